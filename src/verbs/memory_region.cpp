#include "verbs/memory_region.hpp"

#include <cerrno>
#include <memory>

namespace rdmasim::verbs {
namespace {
constexpr unsigned kKnownAccess =
    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
constexpr std::uint32_t kMaxSlots = 1u << 24;
}  // namespace

ibv_mr* MrTable::reg(ibv_context* ctx, ibv_pd* pd, void* addr, std::size_t len, unsigned access, int* err) {
  const bool needs_local = (access & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)) != 0;
  if (!addr || len == 0 || (access & ~kKnownAccess) != 0 || (needs_local && !(access & IBV_ACCESS_LOCAL_WRITE)) ||
      reinterpret_cast<std::uintptr_t>(addr) > UINTPTR_MAX - len) {
    *err = EINVAL;
    return nullptr;
  }
  std::uint32_t index;
  if (!free_.empty()) {
    index = free_.back();
    free_.pop_back();
  } else {
    if (slots_.size() >= kMaxSlots) {
      *err = ENOMEM;
      return nullptr;
    }
    index = static_cast<std::uint32_t>(slots_.size());
    slots_.push_back(std::make_unique<MrSlot>());
  }
  MrSlot& s = *slots_[index];
  s.tag = static_cast<std::uint8_t>(s.tag + 1);
  s.context = ctx;
  s.pd = pd;
  s.addr = addr;
  s.length = len;
  s.handle = index;
  s.lkey = s.rkey = (index << 8) | s.tag;
  s.access = access;
  s.valid = true;
  return &s;
}

int MrTable::dereg(ibv_mr* mr) {
  if (!mr || mr->handle >= slots_.size()) return EINVAL;
  MrSlot& s = *slots_[mr->handle];
  if (&s != mr || !s.valid) return EINVAL;
  s.valid = false;
  free_.push_back(s.handle);
  return 0;
}

const MrSlot* MrTable::find(std::uint32_t key) const {
  const std::uint32_t index = key >> 8;
  if (index >= slots_.size()) return nullptr;
  const MrSlot& s = *slots_[index];
  return s.valid && s.lkey == key ? &s : nullptr;
}

MrCheck MrTable::check(std::uint32_t key, const ibv_pd* pd, std::uint64_t addr, std::uint64_t len, unsigned need,
                       std::uint8_t** out) const {
  const MrSlot* s = find(key);
  if (!s) return MrCheck::bad_key;
  if (s->pd != pd) return MrCheck::wrong_pd;
  if ((s->access & need) != need) return MrCheck::no_access;
  const auto base = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(s->addr));
  if (addr < base || len > s->length || addr - base > s->length - len) return MrCheck::out_of_range;
  *out = static_cast<std::uint8_t*>(s->addr) + (addr - base);
  return MrCheck::ok;
}

int MrTable::count(const ibv_pd* pd) const {
  int n = 0;
  for (const auto& s : slots_) n += s->valid && s->pd == pd;
  return n;
}

}  // namespace rdmasim::verbs
