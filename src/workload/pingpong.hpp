// PingPong: perftest's latency test (ib_write_lat / ib_send_lat / ib_read_lat) on the
// simulated path. WRITE/SEND: the client posts to the server; the moment the server's
// application sees the data it posts the reply; the moment the client sees the reply it posts
// the next iteration. READ: each iteration is one READ round trip. As in perftest the sample
// is the time between consecutive posts on the client (one RTT), and `iters` posts give
// iters - 1 samples.
//
// Every delivered message's ledger is checked against its end-to-end time; the per-iteration
// ledger is the sum of its messages' ledgers, so it sums to the sample exactly.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "rdmasim/latency.hpp"
#include "workload/export_scope.hpp"
#include "workload/sim_world.hpp"

namespace rdmasim {

class PingPong final : public MessageSink {
 public:
  /// `forward` runs from host A; `reverse` (may be null for READ) from host B. `exports`
  /// (optional) traces / captures the run.
  PingPong(const LatConfig& c, const PathSpec& forward, const PathSpec* reverse, Exports* exports = nullptr);
  /// With connection setup in the timed loop: every `reuse`-th exchange starts with
  /// `setup_forward` (the setup stages followed by the forward path) instead of `forward`.
  void set_connection_setup(const PathSpec& setup_forward, std::int64_t reuse);
  std::int64_t connections() const { return connections_; }
  PingPong(const PingPong&) = delete;
  PingPong& operator=(const PingPong&) = delete;

  /// Runs `exchanges` iterations to completion.
  void run(std::int64_t exchanges);

  std::vector<std::int64_t>& samples() { return samples_; }
  /// With LatConfig::record_samples: every iteration in order (else empty).
  std::vector<LatResult::Iteration>& iterations() { return iterations_; }
  /// Sum of the ledgers of all samples except the two largest (perftest's kept set; among
  /// equal values the later iterations count as larger).
  Ledger kept_ledger_sum() const;
  std::int64_t invariant_violations() const { return violations_; }
  std::uint64_t events() const { return w_.sched.executed(); }
  const HostResources& host(int i) const { return i == 0 ? w_.a : w_.b; }
  Time now() const { return w_.sched.now(); }

  void delivered(Packet& token) override;

 private:
  void post(int direction);
  struct Top {
    std::int64_t value = -1;
    Ledger ledger;
  };

  SimWorld w_;
  ExportScope exports_;
  std::unique_ptr<PathInstance> forward_;
  std::unique_ptr<PathInstance> reverse_;
  std::unique_ptr<PathInstance> setup_forward_;
  std::int64_t reuse_ = 0, exchange_ = 0, connections_ = 0;

  Bytes size_{};
  std::int64_t remaining_ = 0;
  std::uint64_t next_msg_id_ = 1;
  Time iteration_start_{};
  Ledger iteration_ledger_;
  Ledger all_ledger_;
  std::array<Top, 2> top_{};  // top_[0] largest
  std::vector<std::int64_t> samples_;
  bool record_ = false;
  std::vector<LatResult::Iteration> iterations_;
  std::int64_t violations_ = 0;
};

}  // namespace rdmasim
