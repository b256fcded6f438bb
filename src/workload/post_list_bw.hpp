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
// Invariants: WQEs complete in post order; in_flight <= tx_depth.
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
  };
  PostListBw(SimWorld& w, const PostListPaths& paths, const Options& o);
  void run();
  void delivered(Packet& token) override;

  std::vector<std::int64_t> posted, completed;  // per WQE, ps (completed: when the app learned)
  std::int64_t violations = 0;
  std::int64_t lists = 0, signaled = 0;
  Ledger wqe_ledger_sum;  // over every WQE, to its own completion at the NIC (or the poll)
  const PathInstance& send_path() const { return *send_; }

 private:
  void post_list();
  bool is_signaled(std::int64_t i) const { return i % o_.cq_mod == o_.cq_mod - 1 || i == o_.iters - 1; }

  SimWorld& w_;
  Options o_;
  std::unique_ptr<PathInstance> post_, send_;
  std::int64_t next_ = 0;  // WQEs posted
};

}  // namespace rdmasim
