// run_collective: the AllReduce schedule's steps as one-way RDMA WRITEs over the packet-level
// fabric, with per-step data dependencies and GPU peer copies. The GPU data path is the host
// model's (model/path.hpp with both buffers in GPU memory): GPUDirect reads and writes the GPU
// through pcie.topology; staged, the path's D2H copy precedes the send and the receive path's
// H2D copy (build_receive_path) follows placement, on each host's copy engine.
//
// Partitioned (CollectiveConfig::threads, the fabric's cut: sim/fabric_partition.hpp), each
// rank runs in its server's LP (every NIC of a server in one LP, or the run is refused): its
// steps, chunk masks, NVLink transfers and the critical path an arrival hands on are that LP's
// (a Part); a step's data reaches another LP as the WRITE's frames, and its arrival runs in
// the receiver's LP. The iteration barrier is found between windows: the iteration ends at the
// latest finish (lowest LP among equals) and the next starts a barrier's delay later in every
// LP, as on one scheduler (the delay is no shorter than a window).
//
// Over MPI ranks (a RankExchange) every process builds the whole run and runs the ranks of its
// LPs. A transfer whose receiver runs on another process travels there between windows as a
// record, named by its message's id (its frames follow as a fabric run's do, and cannot reach
// the receiver's LP before the window ends); with it go each process's LPs' finishes, so every
// process finds the same iteration barrier. At the end the processes join what their LPs kept:
// their ranks' data and bytes sent, their hosts' copy time, the events and the fabric's counts.
// A step that carries no data (a chunk of no element) arrives at once; partitioned, it must stay
// in its LP, or the run is refused.
#include "rdmasim/nccl_test.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <tuple>
#include <unordered_map>
#include <memory>
#include <stdexcept>
#include <utility>

#include "core/byte_io.hpp"
#include "model/path.hpp"
#include "path/link.hpp"
#include "net/wire_format.hpp"
#include "rdmasim/collective.hpp"
#include "host/gpu.hpp"
#include "host/nvlink.hpp"
#include "workload/sim_world.hpp"
#include "rdmasim/load_balancer.hpp"
#include "rdmasim/server.hpp"

namespace rdmasim {
namespace {

constexpr Bytes kNcclStagingSlot{512 * 1024};  // NCCL_BUFFSIZE / NCCL_STEPS (see build_paths)

constexpr std::int64_t kFloat = 4;
// An event's argument: its kind in the low three bits, above them its Transfer's address (a
// Transfer is 8-byte aligned) or, for kStart, the LP whose ranks start.
enum : std::uint64_t { kArrive = 1, kPost = 2, kNextIteration = 3, kStart = 4 };
constexpr std::uint64_t kKindMask = 7;
constexpr std::uint64_t kReceived = 1;  // Message::tag's low bit: a receive-path token (the rest: its Transfer)
constexpr int kLpShift = 40;            // Message::id: the LP that made the message, above this bit

class CollectiveRun final : public MessageSink, public StageObserver, public EventHandler {
 public:
  CollectiveRun(const CollectiveConfig& c, int ranks, int channels, const CollSizes& z, RankExchange* procs)
      : c_(c),
        procs_(procs != nullptr && procs->ranks() > 1 ? procs : nullptr),
        n_(ranks),
        words_(c.check ? (ranks + 63) / 64 : 0),  // -c 0: no data tracked
        channels_(channels),
        per_channel_(static_cast<int>(z.chunk_elems.size())),
        chunks_(channels * per_channel_),
        bytes_(z.bytes),
        shipping_(procs_ ? static_cast<std::size_t>(procs_->ranks()) : 0),
        w_(c.base.seed) {
    for (int ch = 0; ch < channels_; ++ch)  // channel ch takes its share of every chunk
      for (std::int64_t e : z.chunk_elems) chunk_elems_.push_back(e / channels_ + (ch < e % channels_ ? 1 : 0));
    build_channels(collective_schedule(c.op, c.algo, ranks, per_channel_, c.gpus));
    masks_.assign(static_cast<std::size_t>(n_) * static_cast<std::size_t>(chunks_) * static_cast<std::size_t>(words_), 0);
    match_steps();
    next_step_.assign(static_cast<std::size_t>(n_ * channels_), 0);
    bytes_sent_.assign(static_cast<std::size_t>(n_), 0);
    build_paths();
  }

  void run() {
    // The next iteration starts a barrier's delay after the last rank finishes (barrier());
    // the scheduler then still drains the transports' timers, which do not count.
    // Partitioned, the barrier is found between windows.
    iteration_ = 0;
    reset_iteration(Time::zero());
    for (int r = 0; r < n_; ++r)
      if (here(r)) advance(r);
    w_.run(std::max(1, c_.threads), procs_);
    if (procs_) join_processes();
    if (iteration_ != c_.warmup + c_.iters)
      throw std::runtime_error(std::string(coll_op_info(c_.op).name) +
                               " stalled: a step's data never arrived (a QP failed: RETRY_EXC_ERR)");
  }

  // The sender's completion (the responder's ACK back, CQE, poll): the QP may carry on. Or,
  // staged, the receive path's H2D copy is done: the step's data is in the receiver's GPU.
  // Either runs in the LP that made the message (its id says which).
  void delivered(Packet& token) override {
    Message& m = *token.msg;
    Part& p = *parts_[static_cast<std::size_t>(m.id >> kLpShift)];
    if (token.ledger.total() != p.ctx->sched.now() - m.posted) ++p.violations;
    const std::uint64_t tag = m.tag;
    const Ledger ledger = token.ledger;
    p.ctx->packets.release(&token);
    p.ctx->release_message(m);
    if (tag & kReceived) arrive(*transfer(tag), &ledger);
  }

  // The step's data is in the receiver's memory (the NIC reassembled the message): GPU memory
  // with GPUDirect, else a host buffer its receive path copies to the GPU.
  // Runs in the receiver's LP.
  void passed(Packet& token) override {
    Transfer& x = arrived(*token.msg);
    if (c_.gpudirect) return arrive(x, &token.ledger);
    Part& p = part_of(x.dst);
    Message& q = *p.ctx->messages.acquire();
    q.id = next_id(p);
    q.size = token.msg->size;
    q.tag = word(x) | kReceived;
    receives_.at(path_key(x.via, x.dst, x.channel))->post(q, token.ledger, token.msg->posted);
  }

  void on_event(std::uint64_t arg) override {
    switch (arg & kKindMask) {
      case kArrive: return arrive(*transfer(arg), nullptr);
      case kPost: return post(*transfer(arg));
      case kNextIteration: {
        const Time now = parts_.front()->ctx->sched.now();
        reset_iteration(now);
        for (int r = 0; r < n_; ++r) advance(r);
        return;
      }
      case kStart:
        for (int r : parts_[static_cast<std::size_t>(arg >> 3)]->ranks) advance(r);
        return;
      default: throw std::logic_error("collective: an event of no kind");
    }
  }

  std::int64_t wrong() const {  // elements (of the last iteration) not holding what chunk_after says
    if (words_ == 0) return -1;  // not checked
    std::int64_t bad = 0;
    std::vector<std::uint64_t> want(static_cast<std::size_t>(words_));
    for (int r = 0; r < n_; ++r)
      for (int ch = 0; ch < chunks_; ++ch) {
        const ChunkState after = chunk_state(false, r, ch);
        if (after.data == ChunkData::any) continue;
        set_mask(want.data(), after);
        if (!std::equal(want.begin(), want.end(), mask(r, ch))) bad += chunk_elems_[static_cast<std::size_t>(ch)];
      }
    return bad;
  }

  Time mean_time() const { return c_.iters > 0 ? timed_ / c_.iters : Time::zero(); }
  std::vector<std::int64_t> bytes_per_rank() const {
    std::vector<std::int64_t> b = bytes_sent_;
    for (auto& x : b) x /= (c_.warmup + c_.iters);
    return b;
  }
  Time staging_per_rank() const { return (procs_ ? joined_.copy_busy : copy_busy()) / (static_cast<std::int64_t>(n_) * (c_.warmup + c_.iters)); }
  int steps() const { return base_steps_; }  // per channel
  const CollectiveLedger& ledger() const { return ledger_; }
  std::uint64_t events() const { return procs_ ? joined_.events : w_.executed(); }
  std::int64_t violations() const { return violations_ + (procs_ ? joined_.violations : part_violations()); }

 private:
  struct Transfer {
    int src = 0, dst = 0, step = 0;  // step: the receiver's
    int via = 0;                     // the rank whose NIC sends it (PXN: the GPU on dst's rail)
    int channel = 0;
    Bytes bytes{};
    std::vector<std::uint64_t> payload;  // the sender's masks of the sent chunks at send time
    CollectiveLedger path;  // the critical path to its send, then its own NVLink hop or peer copy
  };
  static_assert(alignof(Transfer) > kKindMask, "an event's kind rides in its Transfer address's low bits");
  static std::uint64_t word(const Transfer& x) { return reinterpret_cast<std::uintptr_t>(&x); }
  static Transfer* transfer(std::uint64_t w) { return reinterpret_cast<Transfer*>(w & ~kKindMask); }

  // What the ranks of one logical process share, written by its worker only (the whole run's,
  // unpartitioned). A transfer is made by its sender's LP and released to its receiver's, so
  // the free lists even out between windows.
  struct alignas(64) Part {
    std::uint64_t index = 0;       // its LP
    SimContext* ctx = nullptr;
    std::vector<int> ranks;                        // the ranks it runs, in order
    std::vector<std::unique_ptr<Transfer>> made;   // the transfers it allocated (stable addresses)
    std::vector<Transfer*> free;
    CollectiveLedger cause;        // the critical path of the arrival being handled (none at an iteration's start)
    std::uint64_t next_id = 0;     // its messages' ids
    int finished = 0;              // its ranks done this iteration, the last at last_finish on last_cause
    Time last_finish{};
    CollectiveLedger last_cause;
    std::int64_t violations = 0;   // ledgers not summing to their time
  };
  Part& part_of(int rank) { return *parts_[static_cast<std::size_t>(rank_part_[static_cast<std::size_t>(rank)])]; }
  // Whether this process runs LP `lp`, or rank r's (always, unless over MPI ranks).
  bool runs(std::uint64_t lp) const {
    return procs_ == nullptr || ParallelRun::rank_of(static_cast<int>(lp), procs_->ranks()) == procs_->rank();
  }
  bool here(int r) const { return runs(static_cast<std::uint64_t>(rank_part_[static_cast<std::size_t>(r)])); }
  std::int64_t part_violations() const {
    std::int64_t n = 0;
    for (const auto& p : parts_) n += runs(p->index) ? p->violations : 0;
    return n;
  }
  Time copy_busy() const {  // this process's hosts' copy engines (peer copies are not staging)
    Time busy{};
    for (const auto& [port, h] : hosts_) busy += runs(static_cast<std::uint64_t>(w_.lp_of(port))) ? h->gpu_copy_busy() : Time{};
    return busy;
  }
  static std::uint64_t next_id(Part& p) { return p.index << kLpShift | ++p.next_id; }
  Transfer& acquire(Part& p) {
    if (p.free.empty()) return *p.made.emplace_back(std::make_unique<Transfer>());
    Transfer* x = p.free.back();
    p.free.pop_back();
    return *x;
  }
  // A transfer's NVLink hop asked at `now`, arriving `at`, `service` of it moving.
  void nvlink_hop(Transfer& x, Time now, Time at, Time service) {
    const Time move = service + c_.base.profile.gpu.nvlink_latency;
    x.path.nvlink += move;
    x.path.nvlink_wait += at - now - move;
  }

  // The machine a rank runs on: a host, or a server of a server fabric (rank / G either way).
  int host_of(int rank) const { return rank / c_.gpus; }
  // The fabric port rank r sends and receives through on its QP number `qp`: the host itself,
  // or the server's NIC on the GPU's rail (GPU g: NIC g mod N), the QP's plane qp mod P.
  int port_of(const Topology& t, int r, std::uint32_t qp) const {
    if (t.server_count() == 0) return host_of(r);
    const std::vector<int>& ports = t.server_hosts(host_of(r));
    return ports[static_cast<std::size_t>((r % c_.gpus) % t.server_nics(host_of(r)) * t.planes() +
                                          static_cast<int>(qp % static_cast<std::uint32_t>(t.planes())))];
  }
  // PXN: a GPU sending to another server hands the data over NVLink to its server's GPU on the
  // receiver's rail, which sends through its own NIC (same rail: one leaf, no spine). Without
  // PXN (or NVLink), or on plain hosts, the sender sends itself.
  bool pxn(const Topology& t) const { return c_.pxn && t.server_count() > 0 && c_.base.profile.gpu.nvlink_bw.bits_per_sec() > 0; }
  int sender(const Topology& t, int r, int to) const {
    if (!pxn(t)) return r;
    return r - r % c_.gpus + (to % c_.gpus) % t.server_nics(host_of(r));
  }
  NvlinkDomain& nvlink(int host) {
    std::unique_ptr<NvlinkDomain>& d = nvlink_[host];
    if (!d) d = std::make_unique<NvlinkDomain>(c_.base.profile.gpu, c_.gpus);
    return *d;
  }
  HostResources* resources(int port) {
    std::unique_ptr<HostResources>& h = hosts_[port];
    if (!h) h = w_.host(port);
    return h.get();
  }
  std::uint64_t* mask(int r, int ch) {
    return &masks_[(static_cast<std::size_t>(r) * static_cast<std::size_t>(chunks_) + static_cast<std::size_t>(ch)) *
                   static_cast<std::size_t>(words_)];
  }
  const std::uint64_t* mask(int r, int ch) const { return const_cast<CollectiveRun*>(this)->mask(r, ch); }
  void set_mask(std::uint64_t* m, ChunkState st) const {
    std::fill(m, m + words_, 0);
    if (st.data == ChunkData::rank) m[st.rank / 64] = std::uint64_t{1} << (st.rank % 64);
    if (st.data == ChunkData::all)
      for (int w = 0; w < words_; ++w) {
        const int bits = std::min(64, n_ - 64 * w);
        m[w] = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
      }
  }

  // Channels, as NCCL's: channel c runs the algorithm on its share of every chunk over its own
  // order of the ranks: position p is rank perm(c, p), each server's GPUs rotated by c, so each
  // channel leaves a server from another GPU, through another NIC. A rank's steps are kept
  // channel by channel (ranges_); a send waits only for its own channel's previous receive.
  // Broadcast's root, rank 0, stays first: on its server the other GPUs rotate.
  int fixed(int p) const { return c_.op == CollOp::broadcast && p < c_.gpus ? 1 : 0; }
  int perm(int ch, int p) const {
    const int g = p % c_.gpus, first = fixed(p), m = c_.gpus - first;
    return g < first || m == 0 ? p : p - g + first + (g - first + ch) % m;
  }
  int position(int ch, int r) const {
    const int g = r % c_.gpus, first = fixed(r), m = c_.gpus - first;
    return g < first || m == 0 ? r : r - g + first + ((g - first - ch) % m + m) % m;
  }
  void build_channels(const CollSchedule& base) {
    base_steps_ = static_cast<int>(base.front().size());
    sched_.assign(static_cast<std::size_t>(n_), {});
    channel_of_.assign(static_cast<std::size_t>(n_), {});
    ranges_.assign(static_cast<std::size_t>(n_ * channels_), {0, 0});
    for (int ch = 0; ch < channels_; ++ch)
      for (int p = 0; p < n_; ++p) {
        const int r = perm(ch, p);
        auto& steps = sched_[static_cast<std::size_t>(r)];
        const int begin = static_cast<int>(steps.size());
        for (CollStep st : base[static_cast<std::size_t>(p)]) {
          if (st.send_to >= 0) st.send_to = perm(ch, st.send_to);
          if (st.recv_from >= 0) st.recv_from = perm(ch, st.recv_from);
          st.send_lo += ch * per_channel_, st.send_hi += ch * per_channel_;
          st.recv_lo += ch * per_channel_, st.recv_hi += ch * per_channel_;
          steps.push_back(st);
          channel_of_[static_cast<std::size_t>(r)].push_back(ch);
        }
        ranges_[static_cast<std::size_t>(r * channels_ + ch)] = {begin, static_cast<int>(steps.size())};
      }
  }
  // Chunk ch of rank r before (or after) the collective: its channel's state at r's position,
  // the ranks named there mapped through the channel's order.
  ChunkState chunk_state(bool before, int r, int ch) const {
    const int channel = ch / per_channel_, p = position(channel, r);
    ChunkState st = before ? chunk_before(c_.op, n_, p, ch % per_channel_) : chunk_after(c_.op, n_, p, ch % per_channel_);
    if (st.data == ChunkData::rank) st.rank = perm(channel, st.rank);
    return st;
  }

  // The i-th send from a to b on a channel meets the i-th receive at b from a on that channel:
  // recv_step_ holds, for each
  // rank's step, the receiver's step; a receive nobody sends is a broken schedule.
  void match_steps() {
    std::map<std::tuple<int, int, int>, std::vector<int>> recvs;  // (from, at, channel) -> the receiver's steps
    std::size_t total = 0;
    pending_.assign(static_cast<std::size_t>(n_), 0);
    for (int r = 0; r < n_; ++r) {
      const auto& steps = sched_.at(static_cast<std::size_t>(r));
      first_.push_back(total);
      total += steps.size();
      for (int k = 0; k < static_cast<int>(steps.size()); ++k)
        if (steps[static_cast<std::size_t>(k)].recv_from >= 0) {
          recvs[{steps[static_cast<std::size_t>(k)].recv_from, r, channel_of_[static_cast<std::size_t>(r)][static_cast<std::size_t>(k)]}].push_back(k);
          ++pending_[static_cast<std::size_t>(r)];
        }
    }
    first_.push_back(total);
    recv_step_.assign(total, -1);
    std::map<std::tuple<int, int, int>, std::size_t> used;
    for (int r = 0; r < n_; ++r)
      for (std::size_t k = 0; k < sched_[static_cast<std::size_t>(r)].size(); ++k) {
        const int to = sched_[static_cast<std::size_t>(r)][k].send_to;
        if (to < 0) continue;
        const std::tuple<int, int, int> key{r, to, channel_of_[static_cast<std::size_t>(r)][k]};
        const auto& v = recvs[key];
        std::size_t& i = used[key];
        if (i >= v.size()) throw std::logic_error("collective schedule: a send nobody receives");
        recv_step_[first_[static_cast<std::size_t>(r)] + k] = v[i++];
      }
    for (const auto& [pair, v] : recvs)
      if (used[pair] != v.size()) throw std::logic_error("collective schedule: a receive nobody sends");
    recv_done_.assign(total, 0);
  }
  char& recv_done(int r, int k) { return recv_done_[first_[static_cast<std::size_t>(r)] + static_cast<std::size_t>(k)]; }

  void build_paths() {
    LatConfig base = c_.base;
    base.topology = LatTopology::fabric;
    base.transport = Transport::rdma;
    base.test = TestKind::write;
    base.toggles.inline_data = false;  // NCCL's data never rides inline in the WQE
    base.gpu.mem[0] = base.gpu.mem[1] = MemKind::gpu;
    base.gpu.gpudirect = c_.gpudirect;
    // Without GPUDirect, NCCL stages through host buffers one FIFO slot at a time: its SIMPLE
    // buffer (NCCL_BUFFSIZE, 4 MiB by default) in NCCL_STEPS = 8 slots (NCCL's device.h) of
    // 512 KiB, so a step's copies pipeline with its transfer.
    if (c_.gpudirect)
      base.gpu.staging_chunk.reset();
    else
      base.gpu.staging_chunk = kNcclStagingSlot;
    const ResolvedToggles tog = resolve(base);
    const PathSpec receive = build_receive_path(base, tog, false);
    const auto topo = FabricNetwork::make_topology(base);
    topo_ = topo;
    const FabricOptions opts = fabric_options(base);
    make_parts(*topo, opts);
    // A server's per-GPU PCIe placement: each end of a path as its GPU is placed from its NIC.
    const ServerSpec* srv = base.fabric.server.empty() || topo->server_count() == 0 ? nullptr : &server(base.fabric.server);
    const auto placed = [&](int rank) { return srv == nullptr ? std::nullopt : srv->gpu_path(rank % c_.gpus); };
    std::uint32_t qp = 0;
    for (int r = 0; r < n_; ++r)
      for (std::size_t k = 0; k < sched_[static_cast<std::size_t>(r)].size(); ++k) {
        const CollStep& s = sched_[static_cast<std::size_t>(r)][k];
        if (s.send_to < 0) continue;
        const int via = sender(*topo, r, s.send_to);
        const std::int64_t key = path_key(via, s.send_to, channel_of_[static_cast<std::size_t>(r)][k]);
        if (host_of(r) == host_of(s.send_to) || paths_.count(key)) continue;
        const int a = port_of(*topo, via, qp), b = port_of(*topo, s.send_to, qp);
        const auto sport = static_cast<std::uint16_t>(base.fabric.udp_sport + qp);
        const FabricNetwork net(topo, base.profile, opts, a, b, sport);
        const std::array<HostResources*, 2> pair{resources(a), resources(b)};
        LatConfig ends = base;
        ends.gpu.placement[0] = placed(via), ends.gpu.placement[1] = placed(s.send_to);
        SimContext& ca = w_.ctx_of(a);
        SimContext& cb = w_.ctx_of(b);
        auto p = std::make_unique<PathInstance>(std::array<SimContext*, 2>{&ca, &cb}, pair,
                                                build_acked_path(ends, tog, net.appender()), *this, &w_);
        if (!c_.gpudirect)  // all on the receiver (posted there)
          receives_[key] = std::make_unique<PathInstance>(std::array<SimContext*, 2>{&cb, &cb}, pair, receive, *this, &w_);
        p->set_connection(qp++);
        p->observe_after("B.nic.reassemble", *this);
        paths_[key] = std::move(p);
      }
  }

  // The LPs (partitioned: the fabric's cut, a server with its NICs in one; else one) and the
  // ranks each runs. Every domain an LP's events touch exists before the run.
  void make_parts(const Topology& topo, const FabricOptions& opts) {
    barrier_ = longest_propagation(topo, opts.velocity_mps);
    if (c_.threads > 0 || procs_) w_.partition(topo, opts.velocity_mps);
    const int lps = w_.partitioned() ? w_.cut.lps : 1;
    for (int lp = 0; lp < lps; ++lp) {
      parts_.push_back(std::make_unique<Part>());
      parts_.back()->index = static_cast<std::uint64_t>(lp);
      parts_.back()->ctx = w_.partitioned() ? &w_.lps_[static_cast<std::size_t>(lp)]->ctx : &w_.ctx;
    }
    for (int r = 0; r < n_; ++r) {
      int lp = -1;
      for (std::uint32_t qp = 0; qp < static_cast<std::uint32_t>(std::max(1, topo.planes())); ++qp)
        for (int g = 0; g < c_.gpus; ++g) {  // every port of its server (or its host)
          const int here = w_.lp_of(port_of(topo, r - r % c_.gpus + g, qp));
          if (lp >= 0 && here != lp)
            throw std::invalid_argument("--threads: the NICs of " + std::string(topo.server_count() > 0 ? "server s" : "host h") +
                                        std::to_string(host_of(r)) +
                                        " lie in different logical processes of the fabric's cut: a server runs in one");
          lp = here;
        }
      rank_part_.push_back(lp);
      parts_[static_cast<std::size_t>(lp)]->ranks.push_back(r);
    }
    if (c_.base.profile.gpu.nvlink_bw.bits_per_sec() > 0)
      for (int h = 0; h * c_.gpus < n_; ++h) nvlink(h);
    if (!w_.partitioned()) return;
    const std::string how = procs_ ? "over MPI ranks" : "--threads";
    for (int r = 0; r < n_; ++r)  // a step without data arrives at once (send()): it must stay in its LP
      for (const CollStep& s : sched_[static_cast<std::size_t>(r)]) {
        if (s.send_to < 0 || rank_part_[static_cast<std::size_t>(r)] == rank_part_[static_cast<std::size_t>(s.send_to)]) continue;
        std::int64_t elems = 0;
        for (int ch = s.send_lo; ch < s.send_hi; ++ch) elems += chunk_elems_[static_cast<std::size_t>(ch)];
        if (elems == 0)
          throw std::invalid_argument(how + ": " + std::string(coll_op_info(c_.op).name) + " of " +
                                      std::to_string(bytes_) + " bytes has steps without data (its " +
                                      std::to_string(chunks_) + " chunks do not all hold an element), and such a step " +
                                      "cannot reach another logical process at once: run larger sizes (-b)");
      }
    if (c_.warmup + c_.iters > 1 && barrier() < w_.parallel->lookahead())
      throw std::invalid_argument("--threads: the barrier between iterations (the longest cable's propagation, " +
                                  std::to_string(barrier().count_ps()) + " ps) is shorter than the lookahead (" +
                                  std::to_string(w_.parallel->lookahead().count_ps()) + " ps): run one iteration (-n 1 -w 0)");
    w_.parallel->add_between_windows([this](Time end) { return between_windows(end); });
  }

  // Every rank's data as the collective starts, at `at`; its ranks then start.
  void reset_iteration(Time at) {
    started_ = at;
    for (int r = 0; r < n_; ++r)
      for (int ch = 0; ch < chunks_ && words_ > 0; ++ch) set_mask(mask(r, ch), chunk_state(true, r, ch));
    std::fill(recv_done_.begin(), recv_done_.end(), 0);
    for (std::size_t i = 0; i < ranges_.size(); ++i) next_step_[i] = ranges_[i].first;
    done_.assign(static_cast<std::size_t>(n_), 0);
    left_ = pending_;
    for (auto& p : parts_) p->cause = {}, p->finished = 0;
  }

  // The iteration's last rank finished at `end`, `cause` its critical path.
  void finish_iteration(Time end, const CollectiveLedger& cause) {
    if (cause.total() != end - started_) ++violations_;
    if (iteration_ >= c_.warmup) timed_ += end - started_, ledger_.add(cause);
    ++iteration_;
  }

  // Partitioned, between windows (every LP stopped at `end`): the iteration ends when every
  // rank has finished, at the latest finish (the lowest LP among equals), and the next starts
  // a barrier() later in every LP. The LPs' free transfers even out.
  ParallelRun::Between between_windows(Time end) {
    if (procs_) swap_with_processes();
    for (auto& r : parts_) {
      if (r->free.size() >= 16 || !runs(r->index)) continue;
      for (auto& d : parts_)
        if (d->free.size() > 64 && runs(d->index)) {
          r->free.insert(r->free.end(), d->free.end() - 32, d->free.end());
          d->free.resize(d->free.size() - 32);
          break;
        }
    }
    int finished = 0;
    const Part* last = nullptr;
    for (const auto& p : parts_) {
      finished += p->finished;
      if (p->finished > 0 && (last == nullptr || p->last_finish > last->last_finish)) last = p.get();
    }
    if (finished < n_) return {};
    finish_iteration(last->last_finish, last->last_cause);
    for (auto& p : parts_) p->finished = 0;
    if (iteration_ == c_.warmup + c_.iters) return {};
    const Time start = last->last_finish + barrier();
    if (start < end) throw std::logic_error("collective: a barrier shorter than the window it was found in");
    reset_iteration(start);
    for (const auto& p : parts_) {
      if (p->ranks.empty() || !runs(p->index)) continue;
      Scheduler::Tie tie = p->ctx->sched.tie(Scheduler::kMaxTag);
      tie.since_ps = last->last_finish.count_ps();  // tied as one scheduler ties it: from the last finish
      p->ctx->sched.schedule_at(start, *this, p->index << 3 | kStart, tie);
    }
    return ParallelRun::Between{.wake = start};
  }

  // Sends every step of rank r whose input has arrived, channel by channel; the rank is done
  // when every step is sent and every receive has arrived.
  void advance(int r) {
    const auto& steps = sched_[static_cast<std::size_t>(r)];
    bool sent_all = true;
    for (int ch = 0; ch < channels_; ++ch) {
      const auto [begin, end] = ranges_[static_cast<std::size_t>(r * channels_ + ch)];
      int& k = next_step_[static_cast<std::size_t>(r * channels_ + ch)];
      while (k < end) {
        const int w = k - steps[static_cast<std::size_t>(k)].after;  // the step whose receive it waits for
        if (w < k && w >= begin && steps[static_cast<std::size_t>(w)].recv_from >= 0 && !recv_done(r, w)) break;
        send(r, k++);
      }
      sent_all = sent_all && k == end;
    }
    if (!sent_all || left_[static_cast<std::size_t>(r)] != 0 || std::exchange(done_[static_cast<std::size_t>(r)], 1)) return;
    // The last arrival ends the iteration: its critical path is the iteration's.
    Part& p = part_of(r);
    ++p.finished;
    p.last_finish = p.ctx->sched.now();
    p.last_cause = p.cause;
    if (w_.partitioned() || p.finished < n_) return;
    finish_iteration(p.last_finish, p.cause);
    if (iteration_ < c_.warmup + c_.iters)
      p.ctx->sched.schedule_at(p.last_finish + barrier(), *this, kNextIteration, p.ctx->sched.tie(Scheduler::kMaxTag));
  }

  // How long after the last rank finishes the next iteration starts: the barrier's word
  // reaching every rank, taken as the longest cable's propagation (a lower bound of a real
  // barrier; the timed iterations do not include it). No window is longer, so a partitioned run
  // finds the barrier between windows in time to start the next iteration where one scheduler
  // does. Its start is tied after every frame due then (the largest tag), from the last finish.
  Time barrier() const { return barrier_; }

  void send(int r, int k) {
    const CollStep& s = sched_[static_cast<std::size_t>(r)][static_cast<std::size_t>(k)];
    if (s.send_to < 0) return;
    Part& p = part_of(r);
    Scheduler& sched = p.ctx->sched;
    Transfer& x = acquire(p);
    x.src = r, x.dst = s.send_to, x.step = recv_step_[first_[static_cast<std::size_t>(r)] + static_cast<std::size_t>(k)];
    x.channel = channel_of_[static_cast<std::size_t>(r)][static_cast<std::size_t>(k)];
    x.via = r;
    x.path = p.cause;
    std::int64_t elems = 0;
    x.payload.clear();
    for (int ch = s.send_lo; ch < s.send_hi; ++ch) {
      elems += chunk_elems_[static_cast<std::size_t>(ch)];
      if (words_ > 0) x.payload.insert(x.payload.end(), mask(r, ch), mask(r, ch) + words_);
    }
    x.bytes = Bytes(elems * kFloat);
    bytes_sent_[static_cast<std::size_t>(r)] += x.bytes.count();
    if (x.bytes.count() == 0) return sched.schedule_in(Time::zero(), *this, word(x) | kArrive);
    if (host_of(r) == host_of(s.send_to)) {  // GPUs of one host: NVLink, or a peer copy through PCIe
      if (c_.base.profile.gpu.nvlink_bw.bits_per_sec() == 0) {
        const Time copy = GpuCopyEngine(c_.base.profile.gpu).copy_time(x.bytes);
        x.path.peer_copy += copy;
        return sched.schedule_in(copy, *this, word(x) | kArrive);
      }
      NvlinkDomain& d = nvlink(host_of(r));
      const int from = r % c_.gpus, to = s.send_to % c_.gpus;
      const Time now = sched.now();
      const Time at = s.in_switch == InSwitch::none
                          ? d.transfer(from, to, x.bytes, now)
                          : d.group_transfer(s.in_switch == InSwitch::multicast ? NvlinkDomain::Group::multicast
                                                                                : NvlinkDomain::Group::reduce,
                                             from, to, x.bytes, now, s.send_lo, c_.gpus - 1);
      nvlink_hop(x, now, at, s.in_switch == InSwitch::none ? d.service(x.bytes) : d.nvls_service(x.bytes));
      return sched.schedule_at(at, *this, word(x) | kArrive);
    }
    x.via = sender(*topo_, r, s.send_to);
    if (x.via != r) {  // PXN: over NVLink to the GPU on the receiver's rail first
      NvlinkDomain& d = nvlink(host_of(r));
      const Time now = sched.now(), at = d.transfer(r % c_.gpus, x.via % c_.gpus, x.bytes, now);
      nvlink_hop(x, now, at, d.service(x.bytes));
      return sched.schedule_at(at, *this, word(x) | kPost);
    }
    post(x);  // staged, the path starts with the D2H copy to a host buffer
  }

  void post(Transfer& x) {  // in the LP of the NIC's GPU (the sender's server)
    Part& p = part_of(x.via);
    Message& m = *p.ctx->messages.acquire();
    m.id = next_id(p);
    m.size = x.bytes;
    m.tag = word(x);
    paths_.at(path_key(x.via, x.dst, x.channel))->post(m);
    if (!here(x.dst)) ship(x, m.id, p);
  }

  // Over MPI ranks: transfer x, sent as message `id` to a rank another process runs, goes there
  // between windows (swap_with_processes); its sender's LP p takes it back at once.
  void ship(Transfer& x, std::uint64_t id, Part& p) {
    const int to = ParallelRun::rank_of(rank_part_[static_cast<std::size_t>(x.dst)], procs_->ranks());
    ByteWriter out(shipping_[static_cast<std::size_t>(to)]);
    out.put(id);
    out.put(std::array{x.src, x.dst, x.step, x.via, x.channel});
    out.put(x.bytes);
    out.put(x.path);
    out.put_all(std::span<const std::uint64_t>(x.payload));
    p.free.push_back(&x);
  }
  // The transfer message m brings to its receiver: m's own (its tag) where its sender's LP runs,
  // else the record its sender's process shipped.
  Transfer& arrived(const Message& m) {
    if (runs(m.id >> kLpShift)) return *transfer(m.tag);
    const auto it = shipped_.find(m.id);
    if (it == shipped_.end()) throw std::logic_error("collective: a step's data arrived before its record");
    Transfer& x = *it->second;
    shipped_.erase(it);
    return x;
  }
  // Over MPI ranks, between windows: the transfers shipped this window go to their receivers'
  // processes, and every process learns every LP's finishes (this process's Parts of the other
  // processes' LPs hold them for between_windows).
  void swap_with_processes() {
    const auto n = static_cast<std::size_t>(procs_->ranks()), me = static_cast<std::size_t>(procs_->rank());
    std::vector<std::byte> states;
    ByteWriter st(states);
    for (const auto& p : parts_)
      if (runs(p->index)) st.put(p->index), st.put(p->finished), st.put(p->last_finish), st.put(p->last_cause);
    std::vector<std::vector<std::byte>> out(n);
    for (std::size_t r = 0; r < n; ++r) {
      if (r == me) continue;
      ByteWriter o(out[r]);
      o.put(states.size());
      o.raw(states.data(), states.size());
      o.raw(shipping_[r].data(), shipping_[r].size());
      shipping_[r].clear();
    }
    procs_->exchange(out, swapped_);
    for (std::size_t r = 0; r < n; ++r) {
      if (r == me) continue;
      ByteReader in(swapped_[r]);
      for (std::size_t left = in.get<std::size_t>(); left > 0; left -= sizeof(std::uint64_t) + sizeof(int) + sizeof(Time) + sizeof(CollectiveLedger)) {
        Part& p = *parts_.at(in.get<std::uint64_t>());
        p.finished = in.get<int>(), p.last_finish = in.get<Time>(), p.last_cause = in.get<CollectiveLedger>();
      }
      while (!in.done()) {
        const auto id = in.get<std::uint64_t>();
        const auto f = in.get<std::array<int, 5>>();
        Transfer& x = acquire(part_of(f[1]));
        x.src = f[0], x.dst = f[1], x.step = f[2], x.via = f[3], x.channel = f[4];
        x.bytes = in.get<Bytes>();
        x.path = in.get<CollectiveLedger>();
        x.payload = in.get_all<std::uint64_t>();
        shipped_.emplace(id, &x);
      }
    }
  }
  // After a run over MPI ranks: what each process's LPs kept, joined on every process — its
  // ranks' data and bytes sent, its hosts' copy time, its LPs' ledger checks and events — and
  // the fabric's counts.
  void join_processes() {
    if (w_.fabric) {
      w_.fabric->merge_ranks(*procs_);
      w_.fabric->check_invariants();
    }
    std::vector<std::byte> mine;
    ByteWriter out(mine);
    out.put(w_.executed());
    out.put(part_violations());
    out.put(copy_busy());
    const std::size_t mask_bytes = static_cast<std::size_t>(chunks_) * static_cast<std::size_t>(words_) * sizeof(std::uint64_t);
    for (int r = 0; r < n_; ++r)
      if (here(r)) {
        out.put(r), out.put(bytes_sent_[static_cast<std::size_t>(r)]);
        if (words_ > 0) out.raw(mask(r, 0), mask_bytes);
      }
    joined_ = {};
    for (const std::vector<std::byte>& part : procs_->all_gather(mine)) {
      ByteReader in(part);
      joined_.events += in.get<std::uint64_t>();
      joined_.violations += in.get<std::int64_t>();
      joined_.copy_busy += in.get<Time>();
      while (!in.done()) {
        const auto r = static_cast<std::size_t>(in.get<int>());
        bytes_sent_.at(r) = in.get<std::int64_t>();
        if (words_ > 0) in.raw(mask(static_cast<int>(r), 0), mask_bytes);
      }
    }
  }

  // Transfer t's data is at its receiver; `network`: its message's ledger, if it crossed the fabric.
  void arrive(Transfer& x, const Ledger* network) {  // in the receiver's LP
    if (network != nullptr) x.path.network.add(*network);
    Part& p = part_of(x.dst);
    p.cause = x.path;  // what this arrival lets the receiver send starts from its critical path
    const CollStep& s = sched_[static_cast<std::size_t>(x.dst)][static_cast<std::size_t>(x.step)];
    if (s.recv_from != x.src || (words_ > 0 && s.recv_hi - s.recv_lo != static_cast<int>(x.payload.size()) / words_))
      throw std::logic_error("collective schedule: a step's sender and receiver disagree");
    for (int ch = s.recv_lo; ch < s.recv_hi && words_ > 0; ++ch) {
      std::uint64_t* m = mask(x.dst, ch);
      const std::uint64_t* in = &x.payload[static_cast<std::size_t>((ch - s.recv_lo) * words_)];
      for (int w = 0; w < words_; ++w) m[w] = s.reduce ? (m[w] | in[w]) : in[w];
    }
    recv_done(x.dst, x.step) = 1;
    --left_[static_cast<std::size_t>(x.dst)];
    const int dst = x.dst;
    p.free.push_back(&x);
    advance(dst);
  }

  const CollectiveConfig& c_;
  RankExchange* procs_;  // the processes of a run over MPI ranks (null: this one runs every LP)
  int n_, words_, channels_, per_channel_, chunks_;
  std::int64_t bytes_;
  std::vector<std::vector<std::byte>> shipping_, swapped_;  // by process: records to ship; what came
  std::unordered_map<std::uint64_t, Transfer*> shipped_;     // message id -> the record it brings
  struct {
    std::uint64_t events = 0;
    std::int64_t violations = 0;
    Time copy_busy{};
  } joined_;  // over MPI ranks: every process's counts (join_processes)
  int base_steps_ = 0;
  std::vector<std::int64_t> chunk_elems_;
  CollSchedule sched_;                            // per rank: its steps of every channel
  std::vector<std::vector<int>> channel_of_;      // per rank and step: its channel
  std::vector<std::pair<int, int>> ranges_;       // [rank * channels + channel]: its steps [first, last)
  std::int64_t path_key(int src, int dst, int ch) const {
    return (static_cast<std::int64_t>(src) * n_ + dst) * channels_ + ch;
  }
  SimWorld w_;
  std::map<int, std::unique_ptr<HostResources>> hosts_;
  std::map<int, std::unique_ptr<NvlinkDomain>> nvlink_;  // per host or server with NVLink
  std::shared_ptr<const Topology> topo_;  // per fabric port (a NIC with its PCIe and GPU copy engine)
  // path_key(sending rank, receiving rank, channel): one QP each. With PXN the sending rank is the
  // GPU on the receiver's rail, so a server's GPUs share its QP to a remote GPU (NCCL's PXN
  // aggregates their messages there too).
  std::map<std::int64_t, std::unique_ptr<PathInstance>> paths_;
  std::map<std::int64_t, std::unique_ptr<PathInstance>> receives_;  // staged: the receiver's H2D copy, per QP
  std::vector<std::uint64_t> masks_;
  std::vector<std::size_t> first_;  // rank r's steps start at first_[r] in the per-step arrays
  std::vector<int> recv_step_;      // per step: the receiver's step its send meets
  std::vector<char> recv_done_;     // per step: its receive has arrived
  std::vector<int> pending_, left_;  // receives per rank; of them, not yet arrived this iteration
  std::vector<char> done_;
  std::vector<int> next_step_;  // [rank * channels + channel]
  std::vector<std::int64_t> bytes_sent_;
  std::vector<std::unique_ptr<Part>> parts_;  // one per LP (one unpartitioned)
  std::vector<int> rank_part_;               // by rank
  int iteration_ = 0;
  Time started_{}, timed_{};
  Time barrier_{};  // barrier()
  CollectiveLedger ledger_;  // the timed iterations' critical paths
  std::int64_t violations_ = 0;
};

}  // namespace

CollectiveResult run_collective(const CollectiveConfig& c, RankExchange* procs) {
  LatConfig base = c.base;
  base.topology = LatTopology::fabric;
  base.transport = Transport::rdma;
  base.test = TestKind::write;
  validate(base);
  const std::string what(coll_op_info(c.op).name);
  if (load_balancer(base.fabric.routing).per_packet_paths)
    throw std::invalid_argument(what + ": --routing " + base.fabric.routing +
                                " is not supported (a flow's packets must keep one path: use ecmp or adaptive)");
  const auto topo = FabricNetwork::make_topology(base);
  const bool servers = topo->server_count() > 0;  // ranks on servers, each GPU through its rail's NIC
  const int hosts = servers ? topo->server_count() : topo->host_count();
  const int nodes = c.nodes == 0 ? hosts : c.nodes;
  if (nodes < 1 || nodes > hosts)
    throw std::invalid_argument("--nodes: the topology has " + std::to_string(hosts) + (servers ? " servers" : " hosts") +
                                ", got " + std::to_string(c.nodes));
  if (c.gpus < 1 || c.gpus > 16) throw std::invalid_argument("--ngpus: must be 1..16");
  const int ranks = nodes * c.gpus;
  if (ranks < 2) throw std::invalid_argument(what + " needs at least 2 ranks (--nodes x --ngpus)");
  if (ranks > 1024) throw std::invalid_argument(what + ": at most 1024 ranks");
  if (c.min_bytes < kFloat || c.max_bytes < c.min_bytes)
    throw std::invalid_argument("-b/-e: sizes must be at least 4 bytes (one float) and -b <= -e");
  if (c.max_bytes > (std::int64_t{1} << 34)) throw std::invalid_argument("-e: at most 16GiB");
  if (c.step_factor < 2) throw std::invalid_argument("-f: the step factor must be at least 2");
  if (c.iters < 1 || c.iters > 10000) throw std::invalid_argument("-n: iterations must be 1..10000");
  if (c.warmup < 0 || c.warmup > 1000) throw std::invalid_argument("-w: warmup iterations must be 0..1000");
  if (procs != nullptr && procs->ranks() > 1 && c.threads > 1)
    throw std::invalid_argument("--threads: over MPI ranks, one thread per rank");
  collective_schedule(c.op, c.algo, ranks, ranks, c.gpus);  // validates the algorithm and the rank count
  const CollectiveSpec& spec = collective(c.op, c.algo);
  if (spec.needs_nvls && (nodes != 1 || base.profile.gpu.nvlink_bw.bits_per_sec() == 0 ||
                          base.profile.gpu.nvls_efficiency <= 0))
    throw std::invalid_argument(what + ": --algo " + spec.name +
                                " runs inside one server's NVSwitch with NVLink SHARP (--nodes 1 and "
                                "gpu.nvls_efficiency > 0, as on --server dgx-h100)");
  CollectiveResult res;
  res.config = c;
  res.config.nodes = nodes;
  res.config.algo = collective(c.op, c.algo).name;
  res.ranks = ranks;
  res.servers = servers;
  // Channels: as many as a server has NICs its GPUs can reach (NCCL spreads its rings over every
  // NIC), one elsewhere. Alltoall takes one: every rank has a QP to every peer, and the peers'
  // rails (with PXN) or the senders' own NICs already spread them over every NIC; NCCL gives
  // point-to-point operations a few channels per peer rather than a share of every ring.
  // --channels sets them.
  const int nics = servers ? topo->server_nics(0) : 1;
  res.channels = c.channels > 0 ? c.channels : c.op == CollOp::alltoall ? 1 : std::min(nics, c.gpus);
  if (res.channels > 64) throw std::invalid_argument("--channels: at most 64");
  for (std::int64_t s = c.min_bytes; s <= c.max_bytes; s *= c.step_factor) {
    const CollSizes z = coll_sizes(c.op, ranks, s, spec.pieces ? spec.pieces(ranks, s) : 1);
    CollectiveRow row;
    row.count = z.count;
    row.bytes = z.bytes;
    CollectiveRun run(res.config, ranks, res.channels, z, procs);
    run.run();
    if (run.violations() != 0) throw std::logic_error("ledger invariant violated");
    row.time_us = run.mean_time().to_us();
    row.algbw_gbs = static_cast<double>(row.bytes) / 1e3 / row.time_us;  // B/us / 1e3 = GB/s
    row.busbw_gbs = row.algbw_gbs * bus_factor(c.op, ranks);
    row.wrong = run.wrong();
    row.bytes_sent = run.bytes_per_rank();
    row.staging_per_rank = run.staging_per_rank();
    row.steps = run.steps();
    row.events = run.events();
    row.ledger = run.ledger();
    res.wrong += std::max<std::int64_t>(row.wrong, 0);
    res.rows.push_back(std::move(row));
    if (s > c.max_bytes / c.step_factor) break;
  }
  double sum = 0;
  for (const CollectiveRow& r : res.rows) sum += r.busbw_gbs;
  res.avg_busbw_gbs = sum / static_cast<double>(res.rows.size());
  const Bytes big(std::int64_t{1} << 30);
  res.link_goodput_gbs = static_cast<double>(base.profile.link.rate.bits_per_sec()) / 8e9 * static_cast<double>(big.count()) /
                         static_cast<double>(message_wire_bytes(FrameKind::roce_write, big, base.mtu, base.link_layer).count());
  return res;
}

}  // namespace rdmasim
