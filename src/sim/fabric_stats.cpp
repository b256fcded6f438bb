// The fabric's bookkeeping off the per-packet path (sim/fabric.hpp): flows added and released,
// packet conservation, the statistics a run reports, and the log of PFC frames received.
#include <array>
#include <stdexcept>
#include <string>

#include "sim/fabric.hpp"
#include "sim/fabric_port.hpp"
#include "core/byte_io.hpp"

namespace rdmasim {

using namespace fabric_detail;

std::uint64_t Fabric::in_flight() const {
  std::int64_t transit = 0;
  for (const Tally& t : tally_) transit += t.in_transit;
  auto n = static_cast<std::uint64_t>(transit);
  for (const auto& p : ports_) {
    for (const auto& k : p.cls)
      for (const Packet* q = k.head; q; q = q->next_in_queue) ++n;
  }
  for (const FabricFlow& f : flows_)
    for (const Packet* q = f.head; q; q = q->next_in_queue) ++n;
  return n + queued_elsewhere_;
}

void Fabric::merge_ranks(RankExchange& ranks) {
  // What this rank's LPs counted: their tallies, their ports' counters (a pause still open
  // closed at its LP's now), the flows' counts (each rank counted its LPs' share) and the frames
  // still queued here.
  std::vector<std::byte> mine;
  ByteWriter w(mine);
  std::uint64_t queued = in_flight() - queued_elsewhere_;
  for (const Tally& t : tally_) queued -= static_cast<std::uint64_t>(t.in_transit);
  w.put(queued);
  for (int lp = 0; lp < run_->lps(); ++lp)
    if (run_->runs_here(lp)) w.put(lp), w.put(tally_[static_cast<std::size_t>(lp)]);
  w.put(-1);
  for (const Port& p : ports_) {
    if (!run_->runs_here(p.lp)) continue;
    PortCounters c = p.c;
    if (p.blocked) c.paused += now_at(p) - p.blocked_since;
    w.put(p.id);
    w.put(c);
  }
  w.put(-1);
  for (const FabricFlow& f : flows_) w.put(std::array{f.injected, f.delivered, f.dropped, f.ce_marked});
  const std::vector<std::vector<std::byte>> all = ranks.all_gather(mine);
  for (int r = 0; r < ranks.ranks(); ++r) {
    if (r == ranks.rank()) continue;
    ByteReader in(all[static_cast<std::size_t>(r)]);
    queued_elsewhere_ += in.get<std::uint64_t>();
    for (int lp; (lp = in.get<int>()) >= 0;) tally_.at(static_cast<std::size_t>(lp)) = in.get<Tally>();
    for (int id; (id = in.get<int>()) >= 0;) {
      Port& p = ports_.at(static_cast<std::size_t>(id));
      p.c = in.get<PortCounters>();
      p.blocked = false;
    }
    for (FabricFlow& f : flows_) {
      const auto n = in.get<std::array<std::uint64_t, 4>>();
      f.injected += n[0], f.delivered += n[1], f.dropped += n[2], f.ce_marked += n[3];
    }
    if (!in.done()) throw std::logic_error("fabric: a rank's counts do not match this rank's fabric");
  }
}

void Fabric::check_invariants() const {
  const std::uint64_t flight = in_flight();
  if (injected() != delivered() + dropped() + flight)
    throw std::logic_error("fabric: packets not conserved: injected " + std::to_string(injected()) + " != delivered " +
                           std::to_string(delivered()) + " + dropped " + std::to_string(dropped()) + " + in flight " +
                           std::to_string(flight));
  if (lossless_drops() != 0)
    throw std::logic_error("fabric: " + std::to_string(lossless_drops()) + " packets dropped in a lossless class");
}

FabricStats Fabric::stats(Time span) const {
  FabricStats s;
  s.injected = injected();
  s.delivered = delivered();
  s.dropped = dropped();
  s.lossless_drops = lossless_drops();
  s.watchdog_drops = watchdog_drops();
  s.watchdog_storms = watchdog_storms();
  s.deadlocks = deadlocks();
  s.deadlock_reports = deadlock_reports_;
  s.link_drops = total(&Tally::link_drops);
  s.link_changes = total(&Tally::link_changes);
  s.reroutes = total(&Tally::reroutes);
  s.in_flight = in_flight();
  s.conserved = s.injected == s.delivered + s.dropped + s.in_flight;
  s.ports.reserve(ports_.size());  // at most one each: no transient doubling (a k=16 run has 6144)
  for (const auto& p : ports_) {
    const PortCounters& c = p.c;
    s.ecn_marked += c.ecn_marked;
    s.pause_frames += c.pause_tx;
    if (c.tx_packets == 0 && c.rx_packets == 0 && c.drops == 0 && c.pause_tx == 0 && c.pause_rx == 0 && c.rx_errors == 0 &&
        c.watchdog_drops == 0 && c.link_drops == 0)
      continue;
    PortStats r;
    r.port = port_name(p.id);
    r.tx_packets = c.tx_packets;
    r.tx_bytes = c.tx_bytes;
    r.rx_packets = c.rx_packets;
    r.rx_bytes = c.rx_bytes;
    r.drops = c.drops;
    r.rx_errors = c.rx_errors;
    r.rate_bps = p.rate.bits_per_sec();
    r.ecn_marked = c.ecn_marked;
    r.pause_tx = c.pause_tx;
    r.pause_rx = c.pause_rx;
    r.watchdog_drops = c.watchdog_drops;
    r.watchdog_storms = c.watchdog_storms;
    r.naks = c.nak_tx;
    r.link_drops = c.link_drops;
    r.cnps = c.cnp_tx;
    r.paused_us = (c.paused + (p.blocked ? now_at(p) - p.blocked_since : Time::zero())).to_us();
    r.max_queue_bytes = c.max_queue_bytes;
    if (span > Time::zero()) r.mean_queue_bytes = c.queue_byte_ps / static_cast<double>(span.count_ps());
    if (span > Time::zero())
      r.utilisation = static_cast<double>(c.tx_bytes) * 8.0 /
                      (static_cast<double>(p.rate.bits_per_sec()) * span.to_us() / 1e6);
    s.ports.push_back(std::move(r));
  }
  return s;
}

FabricFlow& Fabric::add_flow(int src, int dst, const FlowKey& key, FabricClient& client) {
  if (src < 0 || src >= topo_->host_count() || dst < 0 || dst >= topo_->host_count() || src == dst)
    throw std::invalid_argument("fabric flow: bad host pair");
  FabricFlow* reuse = nullptr;
  if (!free_flows_.empty()) {
    reuse = free_flows_.back();
    free_flows_.pop_back();
    const std::int32_t index = reuse->index;
    *reuse = FabricFlow{};
    reuse->index = index;
  }
  FabricFlow& f = reuse ? *reuse : flows_.emplace_back();
  if (!reuse) f.index = static_cast<std::int32_t>(flows_.size() - 1);
  f.src = src;
  f.dst = dst;
  f.key = key;
  f.client = &client;
  if (run_ && !faults_) fill_memo(f);
  return f;
}

void Fabric::log_pfc(std::vector<PfcFrame>* log) {
  if (log && run_) throw std::invalid_argument("the PFC log is not kept by a partitioned fabric");
  pfc_log_ = log;
  if (!log || !if_index_.empty()) return;
  std::vector<std::int32_t> next(topo_->nodes().size(), 1);  // ports in id (cable) order per node
  if_index_.resize(ports_.size());
  for (std::size_t i = 0; i < ports_.size(); ++i) if_index_[i] = next[static_cast<std::size_t>(ports_[i].node)]++;
}

void Fabric::note_pfc(const Port& e, unsigned tc, bool pause) {
  pfc_log_->push_back({now_at(e), e.node, !is_switch(e.node), if_index_[static_cast<std::size_t>(e.id)],
                       static_cast<int>(tc), pause});
}

void Fabric::release_flow(FabricFlow& f, bool counted_over_ranks) {
  if (f.head || (!counted_over_ranks && f.injected != f.delivered + f.dropped)) throw std::logic_error("fabric: a flow released with packets in flight");
  f.client = nullptr;
  f.telemetry = nullptr;
  free_flows_.push_back(&f);
}

}  // namespace rdmasim
