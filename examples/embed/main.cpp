// Embedding rdmasim: a congestion control written outside the library, registered by name and
// run on a 4 -> 1 incast beside the built-in none. Public headers only (include/rdmasim).
// It halves a QP's rate on an ACK that reports ECN marks (at most once per 20 us) and adds
// 2 Gb/s per unmarked ACK, up to the line rate. Exits non-zero if it did not take effect.
#include <algorithm>
#include <cstdio>
#include <memory>

#include "rdmasim/rate_control.hpp"
#include "rdmasim/traffic.hpp"

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

rdmasim::TrafficResult incast(const char* cc) {
  rdmasim::TrafficConfig c;
  c.base.topology = rdmasim::LatTopology::fabric;
  c.base.fabric.topology = "single-switch";
  c.base.fabric.hosts = 5;
  c.base.fabric.cc = cc;
  c.base.size = rdmasim::Bytes(65536);
  c.base.iters = 200;
  c.pattern = rdmasim::Pattern::incast;
  c.incast_senders = 4;
  c.tx_depth = 16;
  return rdmasim::run_traffic(c);
}

}  // namespace

int main() {
  rdmasim::register_rate_control({"halve-on-mark", "an embedding program's own: halve on marks, +2 Gb/s per clean ACK",
                                  "", "examples/embed", false,
                                  [](const rdmasim::Profile&, rdmasim::Rate line) {
                                    return std::make_unique<HalveOnMark>(line);
                                  }});
  for (const char* cc : {"none", "halve-on-mark"}) {
    const rdmasim::TrafficResult r = incast(cc);
    std::printf("%-14s aggregate %7.2f Gb/s  PFC pause frames %8llu  ECN marks %8llu\n", cc, r.aggregate_bps / 1e9,
                static_cast<unsigned long long>(r.fabric.pause_frames),
                static_cast<unsigned long long>(r.fabric.ecn_marked));
  }
  std::printf("halve-on-mark cut %ld times\n", HalveOnMark::cuts);
  return HalveOnMark::cuts > 0 ? 0 : 1;
}
