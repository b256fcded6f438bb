// Device: one host's RDMA NIC as an ibv_context — the objects the host's application made
// (PDs, MRs, CQs, QPs) and the host-side work the verbs layer times on the host's resources:
// the post_recv and completion-noticing poll on its CPU core, the busy-polling waits of its
// application coroutines (on a CQ or on a byte of its memory), and its CPU account.
//
// Objects are never freed before the Device: a destroyed one is marked dead so a later use is
// a defined EINVAL, and in-flight pieces of its work still find their stages. Every DMA write
// the NIC makes into this host's memory is announced (dma_written) so memory pollers see it.
#pragma once

#include <coroutine>
#include <memory>
#include <vector>

#include "sim/path_runner.hpp"
#include "verbs/completion_queue.hpp"
#include "verbs/cpu_account.hpp"
#include "verbs/memory_region.hpp"
#include "verbs/queue_pair.hpp"

namespace rdmasim::verbs {

class World;

}  // namespace rdmasim::verbs

namespace rdmasim::verbs {

struct ibv_context {
  int host = 0;
};

class Device final : public ibv_context, public CompletionQueue::Waiter, public MessageSink, public EventHandler {
 public:
  Device(World& w, int host, HostResources& res);
  ~Device();

  World& world() const { return w_; }
  Time now() const;
  const Profile& profile() const;
  VerbsCpuAccount& cpu() { return cpu_; }
  MrTable& mrs() { return mrs_; }
  HostResources& resources() { return res_; }

  Pd* alloc_pd();
  CompletionQueue* create_cq(int cqe);
  QueuePair* create_qp(Pd& pd, const ibv_qp_init_attr& a);
  /// The live QP with this number, or nullptr.
  QueuePair* find_qp(std::uint32_t qpn) const;
  bool owns(const ibv_pd* p) const;
  bool owns(const ibv_cq* c) const;
  bool owns(const ibv_qp* q) const;
  int qps_using(const ibv_pd* p) const;

  /// post_recv's work on the core.
  void post_recv_work();
  /// The NIC wrote `wc` into `cq` now.
  void cq_written(CompletionQueue& cq, const ibv_wc& wc);
  /// The NIC DMA-wrote into this host's memory, finishing an operation whose ledger is `l`.
  void dma_written(const Ledger& l);

  // Program support (program.cpp).
  void wait_cq(PollAwaiter& a);
  void wait_memory(MemoryAwaiter& a);
  void resume_at(Time at, std::coroutine_handle<> h);
  /// What the host's waiting coroutines wait for ("poll_cq", "poll_memory").
  std::string waiting() const;

  void completion_arrived(CompletionQueue& cq, void* cookie) override;
  void delivered(Packet& token) override;
  void on_event(std::uint64_t arg) override;

 private:
  void start_poll(std::uint64_t tag);

  World& w_;
  HostResources& res_;
  VerbsCpuAccount cpu_;
  MrTable mrs_;
  std::vector<std::unique_ptr<Pd>> pds_;
  std::vector<std::unique_ptr<CompletionQueue>> cqs_;
  std::vector<std::unique_ptr<QueuePair>> qps_;
  std::uint32_t next_qpn_ = 0x11;
  std::unique_ptr<PathInstance> poll_path_, post_recv_path_;
  std::vector<MemoryAwaiter*> mem_waiters_;
  int cq_waiters_ = 0;
};

}  // namespace rdmasim::verbs
