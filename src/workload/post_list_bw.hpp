// PostListBw: the bandwidth test's client with batching (perftest --post_list / --cq-mod).
//
// The client posts lists of `post_list` WQEs with one ibv_post_send: the CPU builds every WQE,
// rings one doorbell, and the NIC fetches the whole list in one DMA read (Nic::append_post_list).
// A list enters the `post` path as one token; when its WQEs are fetched each continues as its
// own message on the `send` path, carrying the list's ledger (so every WQE's ledger still sums
// to its time since the post). With --cq-mod M only every M-th WQE (and the last) is signaled:
// the others skip the CQE write and the poll, and the application learns of them with the next
// signaled completion (RC completes in order). A new list is posted when the window has room
// for it (posted - completed + list <= tx_depth), as perftest does.
// With several QPs (-q) each has its own paths (its own send engine and RC) and iterations, and
// one thread drives them all as perftest does: after every completion it goes round the QPs
// in order, posting to each while its window has room; their posts share the host's core.
// Invariants: each QP's WQEs complete in post order; each QP's in_flight <= tx_depth.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "model/path.hpp"
#include "sim/path_runner.hpp"
#include "workload/sim_world.hpp"

namespace rdmasim {

class PostListBw final : public MessageSink {
 public:
  struct Options {
    Bytes size{};
    std::int64_t iters = 0;
    int tx_depth = 128;
    int post_list = 1;
    int cq_mod = 1;
    int qps = 1;  // iterations are per QP
    int cores = 1;  // QP q's CPU work on core q mod cores of each host
  };
  /// One PostListPaths per QP (o.qps of them).
  PostListBw(SimWorld& w, const std::vector<PostListPaths>& paths, const Options& o);
  void run();
  void delivered(Packet& token) override;

  /// Every QP's WQEs, ps: posted in post order, completed (when the app learned) in completion
  /// order.
  std::vector<std::int64_t> posted, completed;
  std::int64_t violations = 0;
  std::int64_t lists = 0, signaled = 0;
  Ledger wqe_ledger_sum;  // over every WQE, to its own completion at the NIC (or the poll)
  int qps() const { return static_cast<int>(qp_.size()); }
  const PathInstance& send_path(int q) const { return *qp_[static_cast<std::size_t>(q)].send; }

 private:
  struct Qp {
    std::unique_ptr<PathInstance> post, send;
    std::int64_t next = 0;  // WQEs posted
    std::int64_t done = 0;  // WQEs the application learned of
  };
  void post_lists();
  void post_list(std::uint64_t q);
  bool is_signaled(std::int64_t i) const { return i % o_.cq_mod == o_.cq_mod - 1 || i == o_.iters - 1; }

  SimWorld& w_;
  Options o_;
  std::vector<Qp> qp_;
};

}  // namespace rdmasim
