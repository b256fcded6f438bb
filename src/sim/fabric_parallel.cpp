// The fabric partitioned over a ParallelRun (Fabric::partition, sim/fabric.hpp): its ports put
// on their nodes' LPs, the flows' route memos filled before the run, the crossings an LP takes
// in, and a lost frame's notice to its client in the flow's destination host's LP. The hot
// path's side (Fabric::reach, per frame) stays in fabric.cpp.
#include <cstring>
#include <stdexcept>
#include <string>

#include "sim/fabric.hpp"
#include "sim/fabric_port.hpp"
#include "sim/stage.hpp"
#include "core/byte_io.hpp"

namespace rdmasim {

using namespace fabric_detail;

void Fabric::partition(ParallelRun& run, const std::vector<int>& lp_of_node) {
  const Topology& topo = *topo_;
  if (lp_of_node.size() != topo.nodes().size())
    throw std::invalid_argument("fabric partition: " + std::to_string(lp_of_node.size()) + " LPs given for " +
                                std::to_string(topo.nodes().size()) + " nodes");
  if (run.lps() > 65535) throw std::invalid_argument("fabric partition: more than 65535 LPs");
  if (injected() > 0) throw std::logic_error("fabric partition: after traffic was injected");
  auto refuse = [](const std::string& what) { throw std::invalid_argument(what + " cannot run in a partitioned fabric"); };
  if (load_balancer(opt_.routing).dynamic) refuse("load balancer '" + opt_.routing + "' (it reads the queues or the time)");
  if (tracer_ || tap_ || pfc_log_ || telemetry_) refuse("a trace, capture, PFC log or telemetry stamped before the cut");
  for (int lp : lp_of_node)
    if (lp < 0 || lp >= run.lps()) throw std::invalid_argument("fabric partition: no LP " + std::to_string(lp));
  for (const Port& p : ports_) {
    const int a = lp_of_node[static_cast<std::size_t>(p.node)], b = lp_of_node[static_cast<std::size_t>(p.peer)];
    if (a != b && p.prop < run.lookahead())
      throw std::invalid_argument("fabric partition: cable " + port_name(p.id) + " between LPs " + std::to_string(a) + " and " +
                                  std::to_string(b) + " propagates in " + std::to_string(p.prop.count_ps()) +
                                  " ps, less than the lookahead of " + std::to_string(run.lookahead().count_ps()) + " ps");
  }
  run_ = &run;
  memo_ = false;
  node_lp_ = lp_of_node;
  lp_sched_.clear();
  tally_.assign(static_cast<std::size_t>(run.lps()), Tally{});
  for (int lp = 0; lp < run.lps(); ++lp) {
    lp_sched_.push_back(&run.scheduler(lp));
    inboxes_.push_back(std::make_unique<Inbox>(*this, lp));
    inboxes_.back()->id = run.add_handler(lp, *inboxes_.back());
  }
  for (Port& p : ports_) p.lp = static_cast<std::uint16_t>(lp_of_node[static_cast<std::size_t>(p.node)]);
  if (faults_) plan_convergence();  // a flow's path may change: each hop looks its next hops up
  else
    for (FabricFlow& f : flows_) fill_memo(f);
  if (opt_.sw.deadlock_detect > Time::zero()) run.add_between_windows([this](Time end) { return between_windows(end); });
}

void Fabric::stamp_telemetry(FabricFlow& f, TelemetrySink& sink) {
  if (run_ && hop_notes_.empty()) {
    hop_notes_.resize(static_cast<std::size_t>(run_->lps()));
    run_->add_between_windows([this](Time) { return hand_over_hops(); });
  }
  f.telemetry = &sink;
  telemetry_ = observed_ = true;  // stamped on the observed path: the plain one pays nothing
}

void Fabric::stamp_hop(const Port& e, const Packet& p, const HopTelemetry& h) {
  if (run_ && ports_[static_cast<std::size_t>(host_port(p.flow->src))].lp != e.lp)
    return hop_notes_[e.lp].notes.push_back({p.flow->index, p.psn, h});
  p.flow->telemetry->hop(p.psn, h);
}

ParallelRun::Between Fabric::hand_over_hops() {
  const auto hand = [&](const HopNote& n) { flows_[static_cast<std::size_t>(n.flow)].telemetry->hop(n.psn, n.hop); };
  RankExchange* ranks = run_->ranks();
  if (!ranks) {
    for (HopNotes& lp : hop_notes_) {
      for (const HopNote& n : lp.notes) hand(n);
      lp.notes.clear();
    }
    return {};
  }
  // Over ranks: each LP's notes for a sender another rank runs go there, LP by LP; every rank
  // then hands its senders their notes in LP order, as threads do.
  const auto me = static_cast<std::size_t>(ranks->rank());
  std::vector<std::vector<std::byte>> out(static_cast<std::size_t>(ranks->ranks()));
  std::vector<std::vector<HopNote>> here(hop_notes_.size());  // by LP: the notes for this rank's senders
  std::vector<std::vector<HopNote>> away(out.size());
  for (std::size_t lp = 0; lp < hop_notes_.size(); ++lp) {
    for (const HopNote& n : hop_notes_[lp].notes) {
      const auto to = static_cast<std::size_t>(rank_of_host(flows_[static_cast<std::size_t>(n.flow)].src));
      (to == me ? here[lp] : away[to]).push_back(n);
    }
    hop_notes_[lp].notes.clear();
    for (std::size_t to = 0; to < away.size(); ++to) {
      if (away[to].empty()) continue;
      ByteWriter w(out[to]);
      w.put(lp);
      w.put_all(std::span<const HopNote>(away[to]));
      away[to].clear();
    }
  }
  std::vector<std::vector<std::byte>> in;
  ranks->exchange(out, in);
  for (const std::vector<std::byte>& from : in) {
    ByteReader r(from);
    while (!r.done()) {
      std::vector<HopNote>& lp = here.at(r.get<std::size_t>());
      const std::vector<HopNote> notes = r.get_all<HopNote>();
      lp.insert(lp.end(), notes.begin(), notes.end());
    }
  }
  for (const std::vector<HopNote>& lp : here)
    for (const HopNote& n : lp) hand(n);
  return {};
}

void Fabric::Inbox::accept(Time at, Scheduler::Tie tie, std::span<const std::byte> bytes) {
  Crossing c;
  std::memcpy(&c, bytes.data(), sizeof c);
  if (c.control & kFromRank) {
    c.control &= ~kFromRank;
    c.arg = packet_arg(f_.receive_from_rank(lp_, bytes.subspan(sizeof c)));
  }
  Scheduler& s = *f_.lp_sched_[static_cast<std::size_t>(lp_)];
  if (c.control == kControlCrossing) return s.schedule_at(at, f_.control_, c.arg, tie);
  if (c.control == kLostCrossing) return s.schedule_at(at, f_.lost_, c.arg, tie);
  if (c.to >= 0) return s.schedule_at(at, f_.ports_[static_cast<std::size_t>(c.to)], c.arg, tie);
  s.schedule_at(at, f_.arrive_, c.arg, tie);
}

int Fabric::rank_of_host(int host) const {
  return ParallelRun::rank_of(node_lp_[static_cast<std::size_t>(topo_->host_node(host))], run_->ranks()->ranks());
}

void Fabric::send_away(const Port& from, const Port& to, Time at, Scheduler::Tie tie, const Crossing& crossing) {
  if (contexts_.size() != static_cast<std::size_t>(run_->lps()))
    throw std::logic_error("fabric: over ranks without the LPs' contexts (use_contexts)");
  if (!transfer_) transfer_ = std::make_unique<PacketTransfer>(run_->ranks()->rank());
  Packet& p = arg_packet(crossing.arg);
  if (p.route && p.route != p.flow->route) throw std::logic_error("fabric: a frame off its flow's route cannot cross ranks");
  image_.clear();
  const Crossing head{0, crossing.to, crossing.control | kFromRank};
  ByteWriter(image_).put(head);
  transfer_->write(p, p.flow->index, image_);
  run_->send(from.lp, inboxes_[to.lp]->id, at, tie, image_);
  SimContext& ctx = *contexts_[from.lp];  // it lives on in the other rank's copy
  if (p.pinned && transfer_->is_shadow(p.msg)) ctx.unpin(*p.msg);  // an original keeps its pin (PacketTransfer)
  ctx.packets.release(&p);
}

Packet& Fabric::receive_from_rank(int lp, std::span<const std::byte> image) {
  if (!transfer_) transfer_ = std::make_unique<PacketTransfer>(run_->ranks()->rank());
  const PacketTransfer::Header h = PacketTransfer::header(image);
  if (h.flow < 0 || static_cast<std::size_t>(h.flow) >= flows_.size()) throw std::logic_error("fabric: a frame of no flow from another rank");
  FabricFlow& f = flows_[static_cast<std::size_t>(h.flow)];
  // The message's responder is the flow's end on another rank than the message's maker (both
  // ends on one rank: that one).
  const int src = rank_of_host(f.src), dst = rank_of_host(f.dst);
  Packet& p = *contexts_[static_cast<std::size_t>(lp)]->packets.acquire();
  transfer_->read(image, p, src == h.origin ? dst : src);
  p.flow = &f;
  p.route = h.routed ? f.route : nullptr;
  return p;
}

void Fabric::hand_back(const Port& at, Packet& p) {
  ++tally(at).dropped;
  p.fab_port = -1;
  // The client hears of it in its far host's LP, at a delay no cut's lookahead exceeds.
  const Port& home = ports_[static_cast<std::size_t>(host_port(p.flow->dst))];
  reach(at, home, now_at(at) + notice_delay_, lost_, packet_arg(p), {packet_arg(p), -1, kLostCrossing});
}

void Fabric::on_lost(std::uint64_t arg) {
  Packet& p = arg_packet(arg);
  ++p.flow->dropped;
  p.flow->client->dropped(p);
}

void Fabric::fill_memo(FabricFlow& f) {
  if (!hash_only_) return;  // a path per packet (spray): each hop looks its next hops up
  memo_ = true;
  f.memo_used = 0;
  int node = ports_[static_cast<std::size_t>(hops_.host_port(f.src))].peer;
  const int dst = topo_->host_node(f.dst);
  for (int hop = 0; node != dst && hop < FabricFlow::kMemoSlots; ++hop) {
    const FabricFlow::RouteMemo m = route_memo(f, node, hop);
    if (m.count == 0) break;
    node = ports_[static_cast<std::size_t>(m.ports[m.count == 1 ? 0 : m.hash % m.count])].peer;
  }
  memo_ = false;
}

}  // namespace rdmasim
