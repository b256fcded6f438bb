// The simulated verbs API: write an RDMA program against rdmasim as against libibverbs.
//
// Names, values and semantics mirror rdma-core's libibverbs (verbs.h), inside
// namespace rdmasim::verbs: protection domains, memory regions with L_Key/R_Key and access
// rights, completion queues, RC queue pairs with the RESET -> INIT -> RTR -> RTS (and ERR)
// state machine, ibv_post_send / ibv_post_recv / ibv_poll_cq. Memory is the program's own
// memory (real bytes): a WRITE copies bytes into the far MR, a READ brings them back, atomics
// operate on 8-byte values, so programs can check their data.
//
// Where a program lives: a Cluster is one simulation of N hosts (two back-to-back, or the
// hosts of a switched fabric). Each host's NIC is an ibv_context (Cluster::open_device). The
// applications are C++20 coroutines (verbs::Task) spawned on a host; they post with the ibv_*
// calls and wait with `co_await verbs::poll(...)`, `co_await verbs::poll_memory(...)` or
// `co_await verbs::sleep(...)`. Time advances only through the simulator: the work of every
// call (post_send on the CPU, doorbell, NIC pipelines, PCIe, wire, CQE write, the poll that
// notices it) is the same component model `rdmasim lat` uses, so each completion carries the
// exact latency ledger of its operation (ibv_wc::ledger, an rdmasim extension).
//
// Differences from real libibverbs, all deliberate: handles stay valid until the Cluster is
// destroyed (destroying an object marks it dead; any later use returns EINVAL instead of
// undefined behaviour); ibv_* calls return at once and their CPU work is served in order on
// the host's core; ibv_poll_cq called directly takes no simulated time (co_await verbs::poll
// is the timed, busy-polling form); only RC QPs, one port, no SRQ, no completion channels.
#pragma once

#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "rdmasim/latency.hpp"
#include "rdmasim/ledger.hpp"
#include "rdmasim/profile.hpp"
#include "rdmasim/rc_stats.hpp"
#include "rdmasim/units.hpp"

namespace rdmasim::verbs {

// ---- enums (values as in libibverbs verbs.h) ----
enum ibv_access_flags : unsigned {
  IBV_ACCESS_LOCAL_WRITE = 1,
  IBV_ACCESS_REMOTE_WRITE = 1 << 1,
  IBV_ACCESS_REMOTE_READ = 1 << 2,
  IBV_ACCESS_REMOTE_ATOMIC = 1 << 3,
};

enum ibv_wr_opcode : unsigned {
  IBV_WR_RDMA_WRITE,
  IBV_WR_RDMA_WRITE_WITH_IMM,
  IBV_WR_SEND,
  IBV_WR_SEND_WITH_IMM,
  IBV_WR_RDMA_READ,
  IBV_WR_ATOMIC_CMP_AND_SWP,
  IBV_WR_ATOMIC_FETCH_AND_ADD,
};

enum ibv_send_flags : unsigned {
  IBV_SEND_FENCE = 1,
  IBV_SEND_SIGNALED = 1 << 1,
  IBV_SEND_SOLICITED = 1 << 2,
  IBV_SEND_INLINE = 1 << 3,
};

enum ibv_wc_opcode : unsigned {
  IBV_WC_SEND,
  IBV_WC_RDMA_WRITE,
  IBV_WC_RDMA_READ,
  IBV_WC_COMP_SWAP,
  IBV_WC_FETCH_ADD,
  IBV_WC_RECV = 1 << 7,
  IBV_WC_RECV_RDMA_WITH_IMM,
};

enum ibv_wc_flags : unsigned { IBV_WC_GRH = 1, IBV_WC_WITH_IMM = 1 << 1 };

enum ibv_wc_status : unsigned {
  IBV_WC_SUCCESS,
  IBV_WC_LOC_LEN_ERR,
  IBV_WC_LOC_QP_OP_ERR,
  IBV_WC_LOC_EEC_OP_ERR,
  IBV_WC_LOC_PROT_ERR,
  IBV_WC_WR_FLUSH_ERR,
  IBV_WC_MW_BIND_ERR,
  IBV_WC_BAD_RESP_ERR,
  IBV_WC_LOC_ACCESS_ERR,
  IBV_WC_REM_INV_REQ_ERR,
  IBV_WC_REM_ACCESS_ERR,
  IBV_WC_REM_OP_ERR,
  IBV_WC_RETRY_EXC_ERR,
  IBV_WC_RNR_RETRY_EXC_ERR,
  IBV_WC_LOC_RDD_VIOL_ERR,
  IBV_WC_REM_INV_RD_REQ_ERR,
  IBV_WC_REM_ABORT_ERR,
  IBV_WC_INV_EECN_ERR,
  IBV_WC_INV_EEC_STATE_ERR,
  IBV_WC_FATAL_ERR,
  IBV_WC_RESP_TIMEOUT_ERR,
  IBV_WC_GENERAL_ERR,
  IBV_WC_TM_ERR,
  IBV_WC_TM_RNDV_INCOMPLETE,
};

enum ibv_qp_state : unsigned { IBV_QPS_RESET, IBV_QPS_INIT, IBV_QPS_RTR, IBV_QPS_RTS, IBV_QPS_SQD, IBV_QPS_SQE, IBV_QPS_ERR, IBV_QPS_UNKNOWN };
enum ibv_qp_type : unsigned { IBV_QPT_RC = 2, IBV_QPT_UC, IBV_QPT_UD };
enum ibv_mtu : unsigned { IBV_MTU_256 = 1, IBV_MTU_512, IBV_MTU_1024, IBV_MTU_2048, IBV_MTU_4096 };

enum ibv_qp_attr_mask : unsigned {
  IBV_QP_STATE = 1 << 0,
  IBV_QP_CUR_STATE = 1 << 1,
  IBV_QP_EN_SQD_ASYNC_NOTIFY = 1 << 2,
  IBV_QP_ACCESS_FLAGS = 1 << 3,
  IBV_QP_PKEY_INDEX = 1 << 4,
  IBV_QP_PORT = 1 << 5,
  IBV_QP_QKEY = 1 << 6,
  IBV_QP_AV = 1 << 7,
  IBV_QP_PATH_MTU = 1 << 8,
  IBV_QP_TIMEOUT = 1 << 9,
  IBV_QP_RETRY_CNT = 1 << 10,
  IBV_QP_RNR_RETRY = 1 << 11,
  IBV_QP_RQ_PSN = 1 << 12,
  IBV_QP_MAX_QP_RD_ATOMIC = 1 << 13,
  IBV_QP_ALT_PATH = 1 << 14,
  IBV_QP_MIN_RNR_TIMER = 1 << 15,
  IBV_QP_SQ_PSN = 1 << 16,
  IBV_QP_MAX_DEST_RD_ATOMIC = 1 << 17,
  IBV_QP_PATH_MIG_STATE = 1 << 18,
  IBV_QP_CAP = 1 << 19,
  IBV_QP_DEST_QPN = 1 << 20,
};

/// ibv_wc_status_str: "success", "remote access error", ...; "unknown" out of range.
const char* ibv_wc_status_str(ibv_wc_status status);
const char* ibv_qp_state_str(ibv_qp_state state);

// ---- objects (owned by their Cluster; a destroyed object stays addressable, marked dead) ----
struct ibv_context;
struct ibv_pd {
  ibv_context* context = nullptr;
  std::uint32_t handle = 0;
};
struct ibv_mr {
  ibv_context* context = nullptr;
  ibv_pd* pd = nullptr;
  void* addr = nullptr;
  std::size_t length = 0;
  std::uint32_t handle = 0;
  std::uint32_t lkey = 0;
  std::uint32_t rkey = 0;
};
struct ibv_cq {
  ibv_context* context = nullptr;
  int cqe = 0;  // capacity
};

struct ibv_qp_cap {
  std::uint32_t max_send_wr = 0, max_recv_wr = 0, max_send_sge = 0, max_recv_sge = 0, max_inline_data = 0;
};
struct ibv_qp_init_attr {
  void* qp_context = nullptr;
  ibv_cq* send_cq = nullptr;
  ibv_cq* recv_cq = nullptr;
  void* srq = nullptr;  // must be null: no SRQ
  ibv_qp_cap cap;
  ibv_qp_type qp_type = IBV_QPT_RC;
  int sq_sig_all = 0;
};
struct ibv_qp {
  ibv_context* context = nullptr;
  void* qp_context = nullptr;
  ibv_pd* pd = nullptr;
  ibv_cq* send_cq = nullptr;
  ibv_cq* recv_cq = nullptr;
  std::uint32_t qp_num = 0;
  ibv_qp_state state = IBV_QPS_RESET;
  ibv_qp_type qp_type = IBV_QPT_RC;
};

struct ibv_ah_attr {
  std::uint16_t dlid = 0;  // the destination port's LID (Cluster: host index + 1)
  std::uint8_t sl = 0;
  std::uint8_t port_num = 1;
};
struct ibv_qp_attr {
  ibv_qp_state qp_state = IBV_QPS_RESET;
  ibv_qp_state cur_qp_state = IBV_QPS_RESET;
  ibv_mtu path_mtu = IBV_MTU_4096;
  std::uint32_t qkey = 0, rq_psn = 0, sq_psn = 0, dest_qp_num = 0;
  unsigned qp_access_flags = 0;
  ibv_qp_cap cap;
  ibv_ah_attr ah_attr;
  std::uint16_t pkey_index = 0;
  std::uint8_t max_rd_atomic = 0, max_dest_rd_atomic = 0, min_rnr_timer = 0, port_num = 0, timeout = 0,
               retry_cnt = 0, rnr_retry = 0;
};

struct ibv_port_attr {
  ibv_mtu max_mtu = IBV_MTU_4096, active_mtu = IBV_MTU_4096;
  std::uint16_t lid = 0;
};

struct ibv_sge {
  std::uint64_t addr = 0;
  std::uint32_t length = 0;
  std::uint32_t lkey = 0;
};
struct ibv_send_wr {
  std::uint64_t wr_id = 0;
  ibv_send_wr* next = nullptr;
  ibv_sge* sg_list = nullptr;
  int num_sge = 0;
  ibv_wr_opcode opcode = IBV_WR_SEND;
  unsigned send_flags = 0;
  std::uint32_t imm_data = 0;  // network byte order in libibverbs; carried through unchanged here
  struct {
    struct {
      std::uint64_t remote_addr = 0;
      std::uint32_t rkey = 0;
    } rdma;
    struct {
      std::uint64_t remote_addr = 0;
      std::uint64_t compare_add = 0;
      std::uint64_t swap = 0;
      std::uint32_t rkey = 0;
    } atomic;
  } wr;  // libibverbs has a union; two members here so either can be filled
};
struct ibv_recv_wr {
  std::uint64_t wr_id = 0;
  ibv_recv_wr* next = nullptr;
  ibv_sge* sg_list = nullptr;
  int num_sge = 0;
};

struct ibv_wc {
  std::uint64_t wr_id = 0;
  ibv_wc_status status = IBV_WC_SUCCESS;
  ibv_wc_opcode opcode = IBV_WC_SEND;
  std::uint32_t vendor_err = 0;
  std::uint32_t byte_len = 0;
  std::uint32_t imm_data = 0;
  std::uint32_t qp_num = 0;
  std::uint32_t src_qp = 0;
  unsigned wc_flags = 0;
  /// rdmasim extension: where the time went from the post of the work request (the far
  /// side's post for a receive) to this completion being polled; total() is that time.
  Ledger ledger;
};

// ---- verbs (errno-style results: 0 or an errno value; pointers: nullptr and errno set) ----
int ibv_query_port(ibv_context* context, std::uint8_t port_num, ibv_port_attr* port_attr);
ibv_pd* ibv_alloc_pd(ibv_context* context);
int ibv_dealloc_pd(ibv_pd* pd);  // EBUSY while MRs or QPs use it
/// Remote write or atomic access needs local write; length 0 or a null address is EINVAL.
ibv_mr* ibv_reg_mr(ibv_pd* pd, void* addr, std::size_t length, unsigned access);
int ibv_dereg_mr(ibv_mr* mr);
ibv_cq* ibv_create_cq(ibv_context* context, int cqe, void* cq_context = nullptr, void* channel = nullptr,
                      int comp_vector = 0);
int ibv_destroy_cq(ibv_cq* cq);  // EBUSY while a QP uses it
ibv_qp* ibv_create_qp(ibv_pd* pd, ibv_qp_init_attr* init_attr);
/// EINVAL for an illegal transition or when the transition's required attributes are missing
/// or extra ones are given (man ibv_modify_qp).
int ibv_modify_qp(ibv_qp* qp, ibv_qp_attr* attr, int attr_mask);
int ibv_query_qp(ibv_qp* qp, ibv_qp_attr* attr, int attr_mask, ibv_qp_init_attr* init_attr);
int ibv_destroy_qp(ibv_qp* qp);
/// EINVAL: QP not in RTS (ERR accepts and flushes), bad opcode, too many SGEs, inline too
/// long; ENOMEM: send queue full. *bad_wr is the first WR not posted.
int ibv_post_send(ibv_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad_wr);
int ibv_post_recv(ibv_qp* qp, ibv_recv_wr* wr, ibv_recv_wr** bad_wr);
/// Up to num_entries completions, oldest first; negative on a bad CQ. Takes no simulated time.
int ibv_poll_cq(ibv_cq* cq, int num_entries, ibv_wc* wc);

// ---- the program model ----
class Cluster;

/// An application coroutine: `verbs::Task app(...) { ...; co_await verbs::poll(cq, 1, &wc); }`.
/// Spawn it on a host with Cluster::spawn; a Task can also `co_await` another Task.
class Task {
 public:
  struct promise_type {
    std::coroutine_handle<> continuation;
    std::exception_ptr error;
    Task get_return_object() { return Task(std::coroutine_handle<promise_type>::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        auto c = h.promise().continuation;
        return c ? c : std::noop_coroutine();
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_void() {}
    void unhandled_exception() { error = std::current_exception(); }
  };
  Task(Task&& o) noexcept : h_(o.h_) { o.h_ = {}; }
  Task& operator=(Task&& o) noexcept;
  Task(const Task&) = delete;
  ~Task();

  // Awaiting a Task runs it to completion, then continues (rethrowing its exception).
  bool await_ready() const noexcept { return !h_ || h_.done(); }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> caller) noexcept {
    h_.promise().continuation = caller;
    return h_;
  }
  void await_resume();

  bool done() const { return !h_ || h_.done(); }
  std::coroutine_handle<promise_type> release() { auto h = h_; h_ = {}; return h; }

 private:
  explicit Task(std::coroutine_handle<promise_type> h) : h_(h) {}
  std::coroutine_handle<promise_type> h_;
};

/// co_await poll(cq, n, wc): busy-polls `cq` until at least one completion is there, then the
/// poll that notices it runs on the host's core (verbs.poll_detect); yields the number of
/// completions written to wc[0..n).
struct PollAwaiter {
  ibv_cq* cq;
  int n;
  ibv_wc* wc;
  int result = 0;
  bool await_ready();
  void await_suspend(std::coroutine_handle<> h);
  int await_resume() { return result; }
  // Internal state while suspended.
  std::coroutine_handle<> h_{};
  Time waited_from_{}, poll_from_{};
};
PollAwaiter poll(ibv_cq* cq, int num_entries, ibv_wc* wc);

/// co_await poll_memory(ctx, pred): busy-polls this host's memory (perftest's "spin on the
/// last byte") until `pred()` holds after a DMA write by the host's NIC, then the poll that
/// notices it runs on the core. Yields the ledger of the operation whose write made it hold,
/// from its post to this notice (empty if `pred()` already held).
struct MemoryAwaiter {
  ibv_context* ctx;
  std::function<bool()> pred;
  Ledger result;
  bool await_ready();
  void await_suspend(std::coroutine_handle<> h);
  Ledger await_resume() { return result; }
  // Internal state while suspended.
  std::coroutine_handle<> h_{};
  Time waited_from_{}, landed_at_{};
};
MemoryAwaiter poll_memory(ibv_context* ctx, std::function<bool()> pred);

/// co_await sleep(ctx, d): the application does something else for `d` (no CPU charged).
struct SleepAwaiter {
  ibv_context* ctx;
  Time d;
  bool await_ready() const { return !ctx || d <= Time::zero(); }
  void await_suspend(std::coroutine_handle<> h);
  void await_resume() {}
};
SleepAwaiter sleep(ibv_context* ctx, Time d);

/// Simulated time now, on the host of `ctx`.
Time now(ibv_context* ctx);

/// Where a host's CPU time went in the verbs layer (to be folded into the host CPU-accounting
/// component): the service time of every verbs call the application made on the core, and the
/// time it spent busy-polling. A host whose application makes no call uses none.
struct VerbsCpuUsage {
  Time post_send{}, post_recv{}, poll{}, spin{};
  std::uint64_t post_sends = 0, post_recvs = 0, polls = 0;
  Time total() const { return post_send + post_recv + poll + spin; }
};

struct ClusterConfig {
  int hosts = 2;
  Profile profile = make_profile("default");
  LinkLayer link_layer = LinkLayer::roce;
  /// none: two hosts joined by one cable (more hosts: one switch); else the hosts of this
  /// topology (fabric.from/to are ignored; "back-to-back" is the one cable). The fabric's loss,
  /// faults, congestion control and routing apply to every QP: its RC transport resends what
  /// is lost (go-back-N) and fails the QP with IBV_WC_RETRY_EXC_ERR when retries run out.
  std::optional<FabricConfig> fabric;
  /// Every QP's RoCEv2 UDP source port (its ECMP entropy); default 49152 + (QPN mod 16384).
  std::optional<std::uint16_t> udp_sport;
  std::uint64_t seed = 1;
};

class Cluster {
 public:
  explicit Cluster(const ClusterConfig& c);
  ~Cluster();
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  int hosts() const;
  /// The NIC of host `host` (0-based); its port's LID is host + 1.
  ibv_context* open_device(int host);
  /// Starts `app` on `host` at the current simulated time (when run() next runs).
  void spawn(int host, Task app);
  /// Runs until nothing is left to do (a transport's retransmission timer with nothing left to
  /// resend is not left to fire). Returns true when
  /// every spawned application finished; rethrows the first exception an application threw.
  bool run();
  /// Runs every event up to `limit`.
  void run_until(Time limit);
  Time now() const;
  VerbsCpuUsage cpu(int host) const;
  /// What `qp`'s RC transport did for its requests so far: packets sent and resent, timeouts,
  /// NAKs, RNR NAKs, CNPs (all zero before its first request or for a QP of another cluster).
  RcStats transport(const ibv_qp* qp) const;
  /// One line per application still waiting ("host 1: poll_cq"), for a stuck program.
  std::string waiting() const;
  std::uint64_t events() const;

  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace rdmasim::verbs
