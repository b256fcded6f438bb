// A PHOLD-like model on ParallelRun (core/parallel_run.hpp), the classic benchmark of parallel
// discrete-event simulators (Fujimoto, "Performance of Time Warp under synthetic workloads",
// 1990): each LP keeps a population of tokens; an event hashes (time, token) into its LP's
// result, then sends the token on to another LP (a crossing due 1-3 lookaheads ahead, a
// quarter of the time) or to itself (0-1 lookahead ahead; one in eight at the same instant).
// Every draw comes from the LP's own random stream. Shared by tests/parallel_run_test.cpp (which
// checks it against a plain reference) and bench/parallel_bench.cpp (which times it).
#pragma once

#include <cstdint>
#include <cstring>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/parallel_run.hpp"
#include "core/random.hpp"

namespace rdmasim::phold {

constexpr Time kLookahead = Time::ns(50);

inline std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

// What one LP did: an order-sensitive hash of (time, token) over its events, and their count.
struct LpResult {
  std::uint64_t hash = 0;
  std::uint64_t events = 0;
  bool operator==(const LpResult&) const = default;
};

// The decision an event of LP `lp` makes, drawn from the LP's own stream.
struct Draw {
  bool remote;
  int target;
  Time delay;
};
inline Draw draw(RandomStream& rng, int lp, int lps) {
  Draw d{};
  d.remote = lps > 1 && rng.uniform_u64(0, 3) == 0;
  if (d.remote) {
    d.target = static_cast<int>(rng.uniform_u64(0, static_cast<std::uint64_t>(lps - 2)));
    if (d.target >= lp) ++d.target;
    d.delay = kLookahead + rng.uniform_time(kLookahead * 2);
  } else {
    d.target = lp;
    d.delay = rng.uniform_u64(0, 7) == 0 ? Time::zero() : rng.uniform_time(kLookahead);
  }
  return d;
}
inline std::uint64_t next_token(std::uint64_t token, int lp) { return token * 31 + static_cast<std::uint64_t>(lp) + 1; }
inline RandomStream stream_of(int lp) { return RandomStream(7, "lp" + std::to_string(lp)); }

class Model {
 public:
  /// `lps` LPs with `population` tokens each; every event also runs `work` rounds of mixing
  /// (the model's stand-in for a simulator's work per event).
  Model(int lps, int population, int work = 0) : run_(lps, kLookahead), work_(work) {
    for (int i = 0; i < lps; ++i) lps_.emplace_back(*this, i);
    for (auto& lp : lps_) lp.id = run_.add_handler(lp.index, lp);
    for (auto& lp : lps_)
      for (int k = 0; k < population; ++k)
        run_.scheduler(lp.index).schedule_at(lp.rng.uniform_time(kLookahead), lp, static_cast<std::uint64_t>(lp.index * 1000 + k));
  }
  std::vector<LpResult> run(int threads, Time until, RankExchange* ranks = nullptr) {
    run_.run(threads, until, ranks);
    std::vector<LpResult> r;
    for (const auto& lp : lps_) r.push_back(lp.result);
    return r;
  }
  ParallelRun& engine() { return run_; }

 private:
  struct alignas(64) Lp final : EventHandler, CrossingHandler {  // LPs on different threads share no line
    Lp(Model& m, int i) : model(m), index(i), rng(stream_of(i)) {}
    void on_event(std::uint64_t token) override {
      Scheduler& s = model.run_.scheduler(index);
      std::uint64_t h = mix(result.hash, static_cast<std::uint64_t>(s.now().count_ps()));
      for (int w = 0; w < model.work_; ++w) h = mix(h, static_cast<std::uint64_t>(w));
      result.hash = mix(h, token);
      ++result.events;
      const Draw d = draw(rng, index, static_cast<int>(model.lps_.size()));
      const std::uint64_t next = next_token(token, index);
      if (d.remote) {
        std::byte bytes[sizeof next];
        std::memcpy(bytes, &next, sizeof next);
        model.run_.send(index, model.lps_[static_cast<std::size_t>(d.target)].id, s.now() + d.delay, s.tie(static_cast<std::uint32_t>(index) + 1), bytes);
      } else {
        s.schedule_at(s.now() + d.delay, *this, next);
      }
    }
    void accept(Time at, Scheduler::Tie tie, std::span<const std::byte> bytes) override {
      std::uint64_t token = 0;
      if (bytes.size() != sizeof token) throw std::logic_error("phold: a crossing of " + std::to_string(bytes.size()) + " bytes");
      std::memcpy(&token, bytes.data(), sizeof token);
      model.run_.scheduler(index).schedule_at(at, *this, token, tie);
    }
    Model& model;
    int index;
    int id = -1;
    RandomStream rng;
    LpResult result;
  };
  ParallelRun run_;
  int work_;
  std::deque<Lp> lps_;
};

}  // namespace rdmasim::phold
