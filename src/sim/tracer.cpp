#include "sim/tracer.hpp"

#include <algorithm>
#include <array>
#include <utility>
#include <stdexcept>

#include "sim/trace_writer.hpp"
#include "model/path.hpp"
#include "sim/fabric.hpp"

namespace rdmasim {
namespace {

constexpr int kMessagesPid = 1;
constexpr int kFirstHostPid = 2;
constexpr std::size_t kMaxLanes = 999;  // thread id = ordinal * 1000 + lane

// Host tracks, in display order (ordinal = index + 1).
enum HostTrack : int { core, core_queue, pcie_down, pcie_down_queue, pcie_up, pcie_up_queue, pcie, nic, nic_queue,
                       interrupts, wire, wire_queue, cable, other, kHostTracks };
constexpr const char* kHostTrackNames[kHostTracks] = {
    "CPU core", "CPU core queue", "PCIe down", "PCIe down queue", "PCIe up", "PCIe up queue", "PCIe latency",
    "NIC",      "NIC queue",      "interrupts", "wire",          "wire queue",    "cable",        "other"};
constexpr int kFirstPortOrdinal = 20;

// TraceArg has no default: an array of N copies of one, to be overwritten.
template <std::size_t... I>
std::array<TraceArg, sizeof...(I)> filled(const TraceArg& a, std::index_sequence<I...>) {
  return {((void)I, a)...};
}

// Main and wait track of a host stage.
std::pair<HostTrack, HostTrack> host_tracks(const StageSpec& s) {
  switch (s.kind) {
    case StageKind::serve:
      switch (s.res) {
        case ResourceKind::core: return {core, core_queue};
        case ResourceKind::pcie_down: return {pcie_down, pcie_down_queue};
        case ResourceKind::pcie_up: return {pcie_up, pcie_up_queue};
        case ResourceKind::wire: return {wire, wire_queue};
        default: return {other, other};
      }
    case StageKind::delay:
      switch (s.cat) {
        case Category::pcie_dma: return {pcie, pcie};
        case Category::propagate: return {cable, cable};
        case Category::nic: return {nic, nic};
        case Category::queue:
          return s.label.find("nic.") != std::string::npos ? std::pair{nic_queue, nic_queue} : std::pair{core_queue, core_queue};
        default: return {other, other};
      }
    case StageKind::split: return {nic_queue, nic_queue};  // waits for the NIC's transmit window
    case StageKind::merge: return {nic, nic};
    case StageKind::moderate: return {interrupts, interrupts};
    case StageKind::network: return {other, other};
  }
  return {other, other};
}

}  // namespace

std::int32_t trace_step(const Packet& p, std::int32_t parent, TraceSite site, Category c, Time start, Time dur,
                        bool wait) {
  return p.msg->tracer->add(p, parent, site, c, start, dur, wait);
}

Tracer::Tracer(TraceWriter& out, Options o) : out_(out), opt_(o), counters_left_(o.max_counter_samples) {
  if (o.max_messages < 0) throw std::invalid_argument("--trace-messages must be at least 0");
  pid_names_.resize(kFirstHostPid);
  pid_names_[kMessagesPid] = "messages";
  messages_track_ = track(kMessagesPid, 1, "messages");
  site("unattributed", "unattributed", track(kMessagesPid, 2, "unattributed"), 0, "unattributed");  // site 0
  sites_[0].wait_track = sites_[0].track;
}

Tracer::~Tracer() = default;

std::uint32_t Tracer::track(int pid, int ordinal, const std::string& name) {
  tracks_.push_back(Track{pid, ordinal, name, {}, {}});
  return static_cast<std::uint32_t>(tracks_.size() - 1);
}

TraceSite Tracer::site(std::string name, std::string wait_name, std::uint32_t track, std::uint32_t wait_track,
                       const std::string& hop) {
  const auto [it, added] = hop_ids_.try_emplace(hop, static_cast<std::int32_t>(hops_.size()));
  const std::int32_t id = it->second;
  if (added) {
    hops_.push_back(HopRow{hop, Ledger{}});
    hop_seen_.push_back(false);
  }
  sites_.push_back(Site{std::move(name), std::move(wait_name), track, wait_track, id});
  return static_cast<TraceSite>(sites_.size() - 1);
}

std::vector<Tracer::HopRow> Tracer::hop_ledger() const {
  std::vector<HopRow> rows;
  rows.reserve(hop_order_.size());
  for (std::int32_t h : hop_order_) rows.push_back(hops_[static_cast<std::size_t>(h)]);
  return rows;
}

void Tracer::add_host(const HostResources& h, int host, std::string name) {
  const int pid = kFirstHostPid + host;
  if (pid_names_.size() <= static_cast<std::size_t>(pid)) pid_names_.resize(static_cast<std::size_t>(pid) + 1);
  pid_names_[static_cast<std::size_t>(pid)] = name;
  hosts_.push_back(HostEntry{&h, host, std::move(name), {}});
}

int Tracer::host_pid(const HostResources& h) const {
  for (const HostEntry& e : hosts_)
    if (e.res == &h) return kFirstHostPid + e.host;
  throw std::logic_error("tracer: a stage on a host that was not added");
}

TraceSite Tracer::stage_site(const HostResources& h, const StageSpec& s) {
  HostEntry* e = nullptr;
  for (HostEntry& x : hosts_)
    if (x.res == &h) e = &x;
  if (!e) throw std::logic_error("tracer: a stage on a host that was not added");
  if (e->tracks.empty())
    for (int t = 0; t < kHostTracks; ++t) e->tracks.push_back(track(host_pid(h), t + 1, kHostTrackNames[t]));
  const auto [main, wait] = host_tracks(s);
  return site(s.label, s.label + " queue", e->tracks[static_cast<std::size_t>(main)],
              e->tracks[static_cast<std::size_t>(wait)], s.label);
}

void Tracer::attach(const Fabric& f) {
  const Topology& topo = f.topology();
  const auto& nodes = topo.nodes();
  std::vector<int> host_of(nodes.size(), -1);
  for (int h = 0; h < topo.host_count(); ++h) host_of[static_cast<std::size_t>(topo.host_node(h))] = h;
  node_pid_.assign(nodes.size(), 0);
  int switches = 0;
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    const int h = host_of[n];
    const int pid = h >= 0 ? kFirstHostPid + h : kFirstHostPid + topo.host_count() + switches++;
    node_pid_[n] = pid;
    if (pid_names_.size() <= static_cast<std::size_t>(pid)) pid_names_.resize(static_cast<std::size_t>(pid) + 1);
    if (pid_names_[static_cast<std::size_t>(pid)].empty()) pid_names_[static_cast<std::size_t>(pid)] = nodes[n].name;
  }
  std::vector<int> local(nodes.size(), 0);
  port_base_ = static_cast<TraceSite>(sites_.size());
  counters_.assign(static_cast<std::size_t>(f.port_count()), PortCounter{});
  for (int port = 0; port < f.port_count(); ++port) {
    const Cable& c = topo.cables()[static_cast<std::size_t>(port / 2)];
    const auto node = static_cast<std::size_t>(port % 2 == 0 ? c.a : c.b);
    const int pid = node_pid_[node];
    const int ord = kFirstPortOrdinal + 3 * local[node]++;
    const std::string name = f.port_name(port);
    const std::uint32_t tx = track(pid, ord, name), q = track(pid, ord + 1, name + " queue"),
                        cab = track(pid, ord + 2, name + " cable");
    site(name + " transmit", name + " queue", tx, q, name);
    site(name + " propagate", name + " propagate", cab, cab, name);
    counters_[static_cast<std::size_t>(port)].name = "queue " + name;
    counters_[static_cast<std::size_t>(port)].pid = pid;
  }
  node_base_ = static_cast<TraceSite>(sites_.size());
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    const std::uint32_t t = track(node_pid_[n], 1, "pipeline");
    site(nodes[n].name + " pipeline", nodes[n].name + " pipeline", t, t, nodes[n].name);
  }
}

void Tracer::posted(Message& m, Packet& t) {
  if (traced_ >= opt_.max_messages) return;
  std::int32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<std::int32_t>(slots_.size());
    slots_.emplace_back();
  }
  std::vector<Node>& nodes = slots_[static_cast<std::size_t>(slot)];
  nodes.clear();
  nodes.push_back(Node{-1, 0, 0, Category::queue, false, m.posted, Time::zero()});  // the root
  m.tracer = this;
  m.trace_slot = slot;
  t.trail = 0;
  ++traced_;
  ++live_;
}

std::int32_t Tracer::add(const Packet& p, std::int32_t parent, TraceSite site, Category c, Time start, Time dur,
                         bool wait) {
  if (dur == Time::zero()) return parent;
  std::vector<Node>& nodes = slots_[static_cast<std::size_t>(p.msg->trace_slot)];
  nodes.push_back(Node{parent, site, p.index, c, wait, start, dur});
  return static_cast<std::int32_t>(nodes.size() - 1);
}

void Tracer::name_process(int pid, const std::string& name) {
  if (pid_named_.size() <= static_cast<std::size_t>(pid)) pid_named_.resize(static_cast<std::size_t>(pid) + 1);
  if (pid_named_[static_cast<std::size_t>(pid)]) return;
  pid_named_[static_cast<std::size_t>(pid)] = true;
  out_.process_name(pid, name.empty() ? "pid " + std::to_string(pid) : name);
}

std::int64_t Tracer::place(std::uint32_t track, Time start, Time end) {
  Track& t = tracks_[track];
  std::size_t lane = 0;
  while (lane < t.lane_end.size() && t.lane_end[lane] > start) ++lane;
  if (lane == t.lane_end.size()) {
    if (lane < kMaxLanes) {
      t.lane_end.push_back(end);
      t.named.push_back(false);
    } else {
      lane = kMaxLanes - 1;  // more overlap than lanes: share the last one
    }
  }
  t.lane_end[lane] = std::max(t.lane_end[lane], end);
  const std::int64_t tid = static_cast<std::int64_t>(t.ordinal) * 1000 + static_cast<std::int64_t>(lane);
  if (!t.named[lane]) {
    t.named[lane] = true;
    name_process(t.pid, pid_names_[static_cast<std::size_t>(t.pid)]);
    out_.thread_name(t.pid, tid, lane == 0 ? t.name : t.name + " #" + std::to_string(lane + 1));
  }
  return tid;
}

void Tracer::delivered(const Packet& token, Time now) {
  Message& m = *token.msg;
  std::vector<Node>& nodes = slots_[static_cast<std::size_t>(m.trace_slot)];
  chain_.clear();
  Time sum{};
  bool broken = false;
  for (std::int32_t i = token.trail; i > 0; i = nodes[static_cast<std::size_t>(i)].parent) {
    if (static_cast<std::size_t>(i) >= nodes.size()) {
      broken = true;
      break;
    }
    chain_.push_back(i);
    sum += nodes[static_cast<std::size_t>(i)].dur;
  }
  std::reverse(chain_.begin(), chain_.end());
  if (broken || sum != now - m.posted) ++violations_;
  Ledger ledger;
  int prev_pid = 0;
  std::int64_t prev_tid = 0;
  Time prev_mid{};
  for (std::size_t k = 0; k < chain_.size(); ++k) {
    const Node& n = nodes[static_cast<std::size_t>(chain_[k])];
    const Site& s = sites_[n.site < sites_.size() ? n.site : 0];
    const std::uint32_t tr = n.wait ? s.wait_track : s.track;
    const int pid = tracks_[tr].pid;
    const std::int64_t tid = place(tr, n.start, n.start + n.dur);
    const std::string_view cat = category_name(n.cat);
    const TraceArg args[] = {{"msg", m.id}, {"pkt", n.index}, {"cat", cat},
                             {"start_ps", n.start.count_ps()}, {"dur_ps", n.dur.count_ps()}};
    out_.slice(pid, tid, n.wait ? s.wait_name : s.name, cat, n.start, n.dur, TraceArgs(args));
    const Time mid = n.start + Time::ps(n.dur.count_ps() / 2);
    if (k > 0) {
      out_.flow_start(next_flow_, prev_pid, prev_tid, "critical path", "critical_path", prev_mid);
      out_.flow_end(next_flow_, pid, tid, "critical path", "critical_path", mid);
      ++next_flow_;
    }
    prev_pid = pid;
    prev_tid = tid;
    prev_mid = mid;
    ledger.add(n.cat, n.dur);
    const auto hop = static_cast<std::size_t>(s.hop);
    if (!hop_seen_[hop]) {
      hop_seen_[hop] = true;
      hop_order_.push_back(s.hop);
    }
    hops_[hop].total.add(n.cat, n.dur);
  }
  // The message: its end-to-end time and the ledger its steps add up to.
  auto args = filled(TraceArg{"msg", m.id}, std::make_index_sequence<4 + kCategoryCount>{});
  args[1] = TraceArg{"start_ps", m.posted.count_ps()};
  args[2] = TraceArg{"e2e_ps", (now - m.posted).count_ps()};
  args[3] = TraceArg{"steps", static_cast<std::int64_t>(chain_.size())};
  std::size_t n = 4;
  for (Category c : kAllCategories)
    if (ledger[c] != Time::zero()) args[n++] = TraceArg(category_name(c), ledger[c].count_ps());
  const std::int64_t tid = place(messages_track_, m.posted, now);
  out_.slice(kMessagesPid, tid, "msg " + std::to_string(m.id), "message", m.posted, now - m.posted,
             TraceArgs(args.data(), n));
  nodes.clear();
  free_slots_.push_back(m.trace_slot);
  m.tracer = nullptr;
  m.trace_slot = -1;
  --live_;
  ++written_;
}

void Tracer::emit_counter(PortCounter& c, Time at, std::int64_t v) {
  if (counters_left_ <= 0) return;
  --counters_left_;
  name_process(c.pid, pid_names_[static_cast<std::size_t>(c.pid)]);
  const TraceArg series[] = {{"bytes", v}};
  out_.counter(c.pid, c.name, at, TraceArgs(series));
  c.emitted = true;
  c.last = at;
}

void Tracer::queue_depth(int port, Time now, std::int64_t bytes) {
  if (live_ == 0 || counters_left_ <= 0) return;
  PortCounter& c = counters_[static_cast<std::size_t>(port)];
  if (c.emitted && now - c.last < opt_.counter_interval) {  // hold it back
    c.pending = true;
    c.pend_t = now;
    c.pend_v = bytes;
    return;
  }
  if (c.pending) emit_counter(c, c.pend_t, c.pend_v);
  c.pending = false;
  emit_counter(c, now, bytes);
}

void Tracer::finish() {
  for (PortCounter& c : counters_)
    if (c.pending) {
      emit_counter(c, c.pend_t, c.pend_v);
      c.pending = false;
    }
}

}  // namespace rdmasim
