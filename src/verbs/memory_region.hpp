// MrTable: one host's registered memory regions, found by L_Key/R_Key, and the access checks
// the NIC makes with them.
//
// A key is (slot << 8 | tag): the slot indexes the table, the tag counts registrations of that
// slot, so a key of a deregistered region never finds a later one in its slot (a stale key is
// simply invalid). L_Key == R_Key, as on mlx5. Registration rules (man ibv_reg_mr): remote
// write or remote atomic access needs local write; local read is always allowed; a zero length,
// a null address or unknown access bits are EINVAL. Range checks never overflow:
// [addr, addr + len) must lie inside the region (the responder skips the check for a
// zero-length access: IBA does not validate the R_Key then). Invariant: a region's bytes are the registering program's own memory; the
// table only hands out pointers inside a region that is registered now.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rdmasim/verbs.hpp"

namespace rdmasim::verbs {

struct MrSlot : ibv_mr {
  unsigned access = 0;
  bool valid = false;
  std::uint8_t tag = 0;
};

/// Why an access was refused (or ok).
enum class MrCheck : std::uint8_t { ok, bad_key, wrong_pd, no_access, out_of_range };

class MrTable {
 public:
  /// Registers [addr, addr+len) for `pd`; nullptr and *err = EINVAL on a bad request.
  ibv_mr* reg(ibv_context* ctx, ibv_pd* pd, void* addr, std::size_t len, unsigned access, int* err);
  /// 0, or EINVAL when `mr` is not a registered region of this table.
  int dereg(ibv_mr* mr);
  /// The registered region with this key, or nullptr.
  const MrSlot* find(std::uint32_t key) const;
  /// Checks an access of `len` bytes at `addr` with `key` by a QP of `pd` that needs `need`
  /// (access bits; 0 = local read). On ok, *out points at the first byte.
  MrCheck check(std::uint32_t key, const ibv_pd* pd, std::uint64_t addr, std::uint64_t len, unsigned need,
                std::uint8_t** out) const;
  /// Regions registered now that belong to `pd`.
  int count(const ibv_pd* pd) const;

 private:
  std::vector<std::unique_ptr<MrSlot>> slots_;  // stable addresses: handles stay valid
  std::vector<std::uint32_t> free_;
};

}  // namespace rdmasim::verbs
