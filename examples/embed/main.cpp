// Embedding rdmasim: a congestion control written outside the library, registered by name, and
// a scenario built in code that runs it on a 4 -> 1 incast beside the built-in none, watched by
// an observer. Public headers only (include/rdmasim).
// It halves a QP's rate on an ACK that reports ECN marks (at most once per 20 us) and adds
// 2 Gb/s per unmarked ACK, up to the line rate. Exits non-zero if it did not take effect.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

#include "rdmasim/rate_control.hpp"
#include "rdmasim/scenario.hpp"

namespace {

class HalveOnMark final : public rdmasim::RateControl {
 public:
  explicit HalveOnMark(rdmasim::Rate line) : line_(static_cast<double>(line.bits_per_sec())), rate_(line_) {}
  void on_sent(std::int64_t, rdmasim::Time) override {}
  void on_cnp(rdmasim::Time) override {}
  void on_ack(const rdmasim::AckSignal& a) override {
    if (a.ce_marked > 0 && a.now - last_cut_ >= rdmasim::Time::us(20)) {
      rate_ = std::max(rate_ / 2, 1e9);
      last_cut_ = a.now;
      ++cuts;
    } else if (a.ce_marked == 0) {
      rate_ = std::min(line_, rate_ + 2e9);
    }
  }
  double rate_bps(rdmasim::Time) override { return rate_; }
  double current_bps() const override { return rate_; }
  static inline long cuts = 0;

 private:
  double line_, rate_;
  rdmasim::Time last_cut_ = rdmasim::Time::zero() - rdmasim::Time::us(20);
};

// The scenario of `rdmasim bw --topology single-switch --hosts 5 --pattern incast --incast 4
// -t 16 -n 200 -s 64KiB --cc CC`, built in code: each line is a scenario key.
rdmasim::Scenario incast(const char* cc) {
  rdmasim::Scenario s = rdmasim::make_scenario(rdmasim::Command::bw);
  for (const char* key : {"network.topology=single-switch", "network.hosts=5", "workload.pattern=incast",
                          "workload.incast=4", "workload.tx_depth=16", "workload.iters=200", "workload.size=64KiB"})
    rdmasim::apply_override(s, key);
  rdmasim::apply_override(s, std::string("network.cc=") + cc);
  return s;
}

// Watches the run: the deepest queue any slice saw.
class DeepestQueue final : public rdmasim::RunObserver {
 public:
  void on_sample(rdmasim::Sample&& s) override { deepest = std::max(deepest, s.queue_bytes); }
  double deepest = 0;
};

}  // namespace

int main() {
  rdmasim::register_rate_control({"halve-on-mark", "an embedding program's own: halve on marks, +2 Gb/s per clean ACK",
                                  "", "examples/embed", false,
                                  [](const rdmasim::Profile&, rdmasim::Rate line) {
                                    return std::make_unique<HalveOnMark>(line);
                                  }});
  for (const char* cc : {"none", "halve-on-mark"}) {
    const rdmasim::Scenario s = incast(cc);
    DeepestQueue watch;
    const rdmasim::RunResult r = rdmasim::run(s, &watch);
    std::printf("%-14s aggregate %7.2f Gb/s  PFC pause frames %6.0f  ECN marks %6.0f  deepest queue %8.0f B\n", cc,
                r.metric("aggregate_Gbps"), r.metric("fabric.pause_frames"), r.metric("fabric.ecn_marked"), watch.deepest);
  }
  std::printf("the scenario, as a file for `rdmasim run`:\n%s", rdmasim::to_toml(incast("halve-on-mark")).c_str());
  std::printf("halve-on-mark cut %ld times\n", HalveOnMark::cuts);
  return HalveOnMark::cuts > 0 ? 0 : 1;
}
