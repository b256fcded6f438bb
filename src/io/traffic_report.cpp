#include "io/traffic_report.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "io/json_report.hpp"

namespace rdmasim {

void print_fabric_stats(std::FILE* out, const FabricStats& s, std::size_t busiest) {
  std::fprintf(out, " fabric: %llu packets injected, %llu delivered, %llu dropped (%llu in a lossless class), %llu in flight%s\n",
               static_cast<unsigned long long>(s.injected), static_cast<unsigned long long>(s.delivered),
               static_cast<unsigned long long>(s.dropped), static_cast<unsigned long long>(s.lossless_drops),
               static_cast<unsigned long long>(s.in_flight), s.conserved ? "" : "  CONSERVATION VIOLATED");
  std::fprintf(out, " fabric: %llu ECN marks, %llu PFC pause frames\n", static_cast<unsigned long long>(s.ecn_marked),
               static_cast<unsigned long long>(s.pause_frames));
  if (s.watchdog_storms > 0 || s.watchdog_drops > 0)
    std::fprintf(out, " PFC watchdog: %llu storms (queues put into drop mode), %llu lossless frames dropped by it "
                      "(in the dropped count, not lossless drops)\n",
                 static_cast<unsigned long long>(s.watchdog_storms), static_cast<unsigned long long>(s.watchdog_drops));
  if (s.link_changes > 0)
    std::fprintf(out, " link faults: %llu links down/up, %llu routing recomputations, %llu frames lost to down links\n",
                 static_cast<unsigned long long>(s.link_changes), static_cast<unsigned long long>(s.reroutes),
                 static_cast<unsigned long long>(s.link_drops));
  for (const PfcDeadlock& d : s.deadlock_reports) {
    std::fprintf(out, " PFC DEADLOCK at %.3f us: %zu paused queues wait for each other in a cycle (the run stopped):\n",
                 d.detected_at_us, d.cycle.size());
    for (std::size_t i = 0; i < d.cycle.size(); ++i)
      std::fprintf(out, "   %-22s priority %d  %8lld B queued, paused %.3f us  -> waits for %s\n", d.cycle[i].port.c_str(),
                   d.cycle[i].priority, static_cast<long long>(d.cycle[i].queued_bytes), d.cycle[i].paused_us,
                   d.cycle[(i + 1) % d.cycle.size()].port.c_str());
  }
  std::vector<const PortStats*> shown;
  for (const PortStats& p : s.ports)
    if (p.drops || p.rx_errors || p.pause_tx || p.pause_rx || p.ecn_marked || p.watchdog_drops || p.link_drops)
      shown.push_back(&p);
  std::vector<const PortStats*> by_bytes;
  for (const PortStats& p : s.ports) by_bytes.push_back(&p);
  std::stable_sort(by_bytes.begin(), by_bytes.end(), [](auto* a, auto* b) { return a->tx_bytes > b->tx_bytes; });
  for (std::size_t i = 0; i < by_bytes.size() && i < busiest; ++i)
    if (std::find(shown.begin(), shown.end(), by_bytes[i]) == shown.end()) shown.push_back(by_bytes[i]);
  if (shown.empty()) return;
  std::fprintf(out, " %-22s %7s %10s %12s %6s %8s %7s %8s %8s %8s %11s %8s %6s %6s\n", "port", "link[G]", "tx_packets",
               "tx_bytes", "util%", "drops", "rx_err", "ecn_mark", "pause_tx", "pause_rx", "paused[us]", "maxq[B]", "nak_tx",
               "cnp_tx");
  for (const PortStats* p : shown)
    std::fprintf(out, " %-22s %7.1f %10llu %12llu %6.1f %8llu %7llu %8llu %8llu %8llu %11.3f %8lld %6llu %6llu\n",
                 p->port.c_str(), static_cast<double>(p->rate_bps) / 1e9, static_cast<unsigned long long>(p->tx_packets),
                 static_cast<unsigned long long>(p->tx_bytes), 100.0 * p->utilisation,
                 static_cast<unsigned long long>(p->drops), static_cast<unsigned long long>(p->rx_errors),
                 static_cast<unsigned long long>(p->ecn_marked), static_cast<unsigned long long>(p->pause_tx),
                 static_cast<unsigned long long>(p->pause_rx), p->paused_us, static_cast<long long>(p->max_queue_bytes),
                 static_cast<unsigned long long>(p->naks), static_cast<unsigned long long>(p->cnps));
}

namespace {
// How the run's traffic class is carried: InfiniBand credits, or on Ethernet the class its
// packets ride (RDMA: switch.data_tc; TCP: tcp.tc) and whether PFC makes it lossless.
std::string fabric_class_label(const LatConfig& c) {
  if (c.link_layer == LinkLayer::ib) return "InfiniBand credits";
  const SwitchParams& sw = c.profile.sw;
  if (c.transport == Transport::tcp) {
    const bool pfc = sw.lossless && c.profile.tcp.tc == sw.data_tc;
    return "Ethernet, TCP in " + std::string(pfc ? "lossless" : "lossy") + " class " + std::to_string(c.profile.tcp.tc) +
           (pfc ? " (PFC)" : "");
  }
  return sw.lossless ? "RoCE lossless (PFC)" : "RoCE lossy";
}
}  // namespace

void print_traffic(std::FILE* out, const TrafficResult& r) {
  const TrafficConfig& t = r.config;
  std::string topo = t.base.fabric.topology;
  if (topo == "ring")
    topo += " of " + std::to_string(t.base.fabric.switches) + " switches (" + t.base.fabric.ring_routing + ")";
  const bool tcp = t.base.transport == Transport::tcp;
  const std::string what = tcp ? "kernel TCP send() (" + t.base.fabric.tcp_cc + ")" : "RDMA WRITE";
  std::fprintf(out, "%s traffic, %zu flows of %lld x %lld B %s, tx depth %d, %s, routing %s, %s\n",
               t.pattern.c_str(), r.flows.size(), static_cast<long long>(t.base.iters),
               static_cast<long long>(t.base.size.count()), what.c_str(), t.tx_depth, topo.c_str(),
               t.base.fabric.routing.c_str(),
               fabric_class_label(t.base).c_str());
  std::fprintf(out, " %-5s %-5s %6s %9s %14s %16s %8s %8s  route\n", "src", "dst", "sport", "done", "goodput[Gb/s]",
               "ECMP pred.[Gb/s]", "sharing", "dropped");
  for (const FlowResult& f : r.flows)
    std::fprintf(out, " h%-4d h%-4d %6u %9lld %14.3f %16.3f %8d %8llu  %s\n", f.src, f.dst, f.sport,
                 static_cast<long long>(f.completed), f.goodput_bps / 1e9, f.predicted_bps / 1e9, f.bottleneck_sharing,
                 static_cast<unsigned long long>(f.dropped), f.route.c_str());
  std::fprintf(out, " per-flow goodput: min %.3f  median %.3f  max %.3f Gb/s\n", r.min_bps / 1e9, r.median_bps / 1e9,
               r.max_bps / 1e9);
  std::fprintf(out, " aggregate %.3f Gb/s of the ideal sum(B_i) %.3f Gb/s (%.1f%%)\n", r.aggregate_bps / 1e9,
               r.ideal_aggregate_bps / 1e9, 100.0 * r.aggregate_bps / r.ideal_aggregate_bps);
  std::fprintf(out, " steady state (second half of the run): Jain's fairness index %.4f\n", r.jain_steady);
  std::fprintf(out, " out-of-order arrivals at the receivers: %llu packets\n", static_cast<unsigned long long>(r.out_of_order));
  std::uint64_t oos = 0;
  for (const FlowResult& f : r.flows) oos += f.rc.out_of_sequence;
  if (tcp) {
    std::fprintf(out, " TCP: %llu segments retransmitted, %llu fast retransmits, %llu timeouts, %llu ECE, %llu CWR\n",
                 static_cast<unsigned long long>(r.retransmitted), static_cast<unsigned long long>(r.fast_retransmits),
                 static_cast<unsigned long long>(r.timeouts), static_cast<unsigned long long>(r.ece),
                 static_cast<unsigned long long>(r.cwr));
  } else {
    std::fprintf(out, " RC: %llu packets retransmitted (%s), %llu NAKs, %llu timeouts, %llu CNPs",
                 static_cast<unsigned long long>(r.retransmitted),
                 t.base.profile.rc.selective_repeat ? "selective repeat" : "go-back-N", static_cast<unsigned long long>(r.naks),
                 static_cast<unsigned long long>(r.timeouts), static_cast<unsigned long long>(r.cnps));
    if (r.failed_qps > 0) std::fprintf(out, "; %d QPs failed", r.failed_qps);
    std::fprintf(out, "\n");
  }
  for (const FlowResult& f : r.flows)
    if (f.rc.status != "ok")
      std::fprintf(out, " QP h%d->h%d (sport %u): %s at %.3f us after %llu timeouts, %lld messages flushed\n", f.src,
                   f.dst, f.sport, f.rc.status.c_str(), f.rc.failed_at_us, static_cast<unsigned long long>(f.rc.timeouts),
                   static_cast<long long>(f.flushed));
  if (oos > 0 && !r.config.base.profile.rc.ooo_placement)
    std::fprintf(out, " note: %llu packets arrived out of sequence and were discarded (each costs a go-back-N); "
                      "a multipath NIC places them: --set rc.ooo_placement=on\n",
                 static_cast<unsigned long long>(oos));
  print_fabric_stats(out, r.fabric);
  if (r.fabric.deadlocks > 0) {
    std::int64_t done = 0, posted = 0;
    for (const FlowResult& f : r.flows) done += f.completed, posted += f.completed + f.flushed;
    std::fprintf(out, " deadlocked: %lld of the %lld messages posted completed; fix the routing (e.g. --ring-routing up-down) or "
                      "enable the PFC watchdog (--set switch.pfc_watchdog=200us)\n",
                 static_cast<long long>(done), static_cast<long long>(posted));
  }
}

nlohmann::ordered_json rc_stats_json(const RcStats& s) {
  return {{"status", s.status},
          {"failed_at_us", s.failed_at_us},
          {"sent", s.sent},
          {"retransmitted", s.retransmitted},
          {"retransmitted_bytes", s.retransmitted_bytes},
          {"timeouts", s.timeouts},
          {"naks", s.naks},
          {"out_of_sequence", s.out_of_sequence},
          {"duplicates", s.duplicates},
          {"acks_lost", s.acks_lost},
          {"cnps", s.cnps},
          {"rnr_naks_sent", s.rnr_naks_sent},
          {"rnr_naks", s.rnr_naks},
          {"final_rate_Gbps", s.final_rate_bps / 1e9}};
}

void print_rc_stats(std::FILE* out, const RcStats& s) {
  std::fprintf(out, " RC: %llu packets sent, %llu retransmitted (%s), %llu NAKs, %llu timeouts, %llu ACKs lost, %llu CNPs",
               static_cast<unsigned long long>(s.sent), static_cast<unsigned long long>(s.retransmitted),
               s.recovery.c_str(),
               static_cast<unsigned long long>(s.naks), static_cast<unsigned long long>(s.timeouts),
               static_cast<unsigned long long>(s.acks_lost), static_cast<unsigned long long>(s.cnps));
  if (s.final_rate_bps > 0) std::fprintf(out, "; rate control at the end %.3f Gb/s (sum over the QPs)", s.final_rate_bps / 1e9);
  if (s.rnr_naks_sent > 0 || s.rnr_naks > 0)
    std::fprintf(out, "; RNR NAKs %llu sent, %llu received", static_cast<unsigned long long>(s.rnr_naks_sent),
                 static_cast<unsigned long long>(s.rnr_naks));
  std::fprintf(out, "\n");
  if (s.status != "ok") std::fprintf(out, " QP: %s at %.3f us (outstanding work flushed)\n", s.status.c_str(), s.failed_at_us);
}

nlohmann::ordered_json tcp_stats_json(const TcpStats& s) {
  return {{"cc", s.cc},
          {"sent", s.sent},
          {"retransmitted", s.retransmitted},
          {"retransmitted_bytes", s.retransmitted_bytes},
          {"fast_retransmits", s.fast_retransmits},
          {"timeouts", s.timeouts},
          {"lost_retransmits", s.lost_retransmits},
          {"acks_sent", s.acks_sent},
          {"acks_received", s.acks_received},
          {"dup_acks", s.dup_acks},
          {"out_of_order", s.out_of_order},
          {"duplicates", s.duplicates},
          {"ece", s.ece},
          {"cwr", s.cwr},
          {"delivered_bytes", s.delivered_bytes},
          {"final_cwnd", s.final_cwnd},
          {"srtt_us", s.srtt_us},
          {"rto_us", s.rto_us},
          {"dctcp_alpha", s.dctcp_alpha}};
}

void print_tcp_stats(std::FILE* out, const TcpStats& s) {
  std::fprintf(out,
               " TCP (%s): %llu segments sent, %llu retransmitted (%llu fast retransmits, %llu timeouts), %llu dup ACKs, "
               "%llu ECE, %llu CWR; cwnd %.1f, srtt %.2f us, rto %.1f us",
               s.cc.c_str(), static_cast<unsigned long long>(s.sent), static_cast<unsigned long long>(s.retransmitted),
               static_cast<unsigned long long>(s.fast_retransmits), static_cast<unsigned long long>(s.timeouts),
               static_cast<unsigned long long>(s.dup_acks), static_cast<unsigned long long>(s.ece),
               static_cast<unsigned long long>(s.cwr), s.final_cwnd, s.srtt_us, s.rto_us);
  if (s.cc == "dctcp") std::fprintf(out, ", alpha %.3f", s.dctcp_alpha);
  std::fprintf(out, "\n");
}

nlohmann::ordered_json fabric_stats_json(const FabricStats& s) {
  nlohmann::ordered_json j;
  j["injected"] = s.injected;
  j["delivered"] = s.delivered;
  j["dropped"] = s.dropped;
  j["lossless_drops"] = s.lossless_drops;
  j["in_flight"] = s.in_flight;
  j["conserved"] = s.conserved;
  j["ecn_marked"] = s.ecn_marked;
  j["pause_frames"] = s.pause_frames;
  j["watchdog_drops"] = s.watchdog_drops;
  j["watchdog_storms"] = s.watchdog_storms;
  j["deadlocks"] = s.deadlocks;
  j["link_drops"] = s.link_drops;
  j["link_changes"] = s.link_changes;
  j["reroutes"] = s.reroutes;
  nlohmann::ordered_json dl = nlohmann::ordered_json::array();
  for (const PfcDeadlock& d : s.deadlock_reports) {
    nlohmann::ordered_json cyc = nlohmann::ordered_json::array();
    for (const DeadlockHop& h : d.cycle)
      cyc.push_back({{"port", h.port}, {"priority", h.priority}, {"queued_bytes", h.queued_bytes}, {"paused_us", h.paused_us}});
    dl.push_back({{"detected_at_us", d.detected_at_us}, {"cycle", cyc}});
  }
  j["deadlock_reports"] = dl;
  nlohmann::ordered_json ports = nlohmann::ordered_json::array();
  for (const PortStats& p : s.ports)
    ports.push_back({{"port", p.port},           {"tx_packets", p.tx_packets}, {"tx_bytes", p.tx_bytes},
                     {"rx_packets", p.rx_packets}, {"rx_bytes", p.rx_bytes},   {"drops", p.drops},
                     {"rx_errors", p.rx_errors},   {"rate_Gbps", static_cast<double>(p.rate_bps) / 1e9},
                     {"ecn_marked", p.ecn_marked}, {"pause_tx", p.pause_tx},   {"pause_rx", p.pause_rx},
                     {"watchdog_drops", p.watchdog_drops}, {"watchdog_storms", p.watchdog_storms},
                     {"naks", p.naks},             {"cnps", p.cnps},             {"link_drops", p.link_drops},
                     {"paused_us", p.paused_us},   {"max_queue_bytes", p.max_queue_bytes},
                     {"mean_queue_bytes", p.mean_queue_bytes},
                     {"utilisation", p.utilisation}});
  j["ports"] = ports;
  return j;
}

nlohmann::ordered_json traffic_json(const TrafficResult& r) {
  nlohmann::ordered_json j;
  j["pattern"] = r.config.pattern;
  j["config"] = config_json(r.config.base, resolve(r.config.base));
  nlohmann::ordered_json flows = nlohmann::ordered_json::array();
  for (const FlowResult& f : r.flows) {
    flows.push_back({{"src", f.src},
                     {"dst", f.dst},
                     {"sport", f.sport},
                     {"completed", f.completed},
                     {"goodput_Gbps", f.goodput_bps / 1e9},
                     {"steady_goodput_Gbps", f.steady_goodput_bps / 1e9},
                     {"predicted_Gbps", f.predicted_bps / 1e9},
                     {"bottleneck_sharing", f.bottleneck_sharing},
                     {"dropped", f.dropped},
                     {"ce_marked", f.ce_marked},
                     {"flushed", f.flushed},
                     {"rc", rc_stats_json(f.rc)},
                     {"route", f.route}});
    if (f.tcp) flows.back()["tcp"] = tcp_stats_json(*f.tcp);
  }
  j["flows"] = flows;
  j["summary"] = {{"min_Gbps", r.min_bps / 1e9},
                  {"median_Gbps", r.median_bps / 1e9},
                  {"max_Gbps", r.max_bps / 1e9},
                  {"aggregate_Gbps", r.aggregate_bps / 1e9},
                  {"ideal_aggregate_Gbps", r.ideal_aggregate_bps / 1e9},
                  {"seconds", r.seconds},
                  {"events", r.events},
                  {"out_of_order", r.out_of_order},
                  {"retransmitted", r.retransmitted},
                  {"naks", r.naks},
                  {"timeouts", r.timeouts},
                  {"cnps", r.cnps},
                  {"failed_qps", r.failed_qps},
                  {"jain_steady", r.jain_steady}};
  if (r.config.base.transport == Transport::tcp) {
    j["summary"]["fast_retransmits"] = r.fast_retransmits;
    j["summary"]["ece"] = r.ece;
    j["summary"]["cwr"] = r.cwr;
  }
  j["fabric"] = fabric_stats_json(r.fabric);
  return j;
}

SeedSpread seed_spread(const std::vector<TrafficResult>& runs) {
  SeedSpread s;
  if (runs.empty()) return s;
  std::vector<double> x;
  for (const TrafficResult& r : runs) x.push_back(r.aggregate_bps / r.ideal_aggregate_bps);
  s.min = *std::min_element(x.begin(), x.end());
  s.max = *std::max_element(x.begin(), x.end());
  for (double v : x) s.mean += v / static_cast<double>(x.size());
  for (double v : x) s.stdev += (v - s.mean) * (v - s.mean);
  s.stdev = x.size() > 1 ? std::sqrt(s.stdev / static_cast<double>(x.size() - 1)) : 0.0;  // sample stdev
  return s;
}

void print_seed_spread(std::FILE* out, const std::vector<TrafficResult>& runs, const SeedSpread& s) {
  const TrafficConfig& t = runs.front().config;
  std::fprintf(out, "%s traffic over %zu seeds, %zu flows of %lld x %lld B, %s k=%d, routing %s\n",
               t.pattern.c_str(), runs.size(), runs.front().flows.size(),
               static_cast<long long>(t.base.iters), static_cast<long long>(t.base.size.count()),
               t.base.fabric.topology.c_str(), t.base.fabric.k, t.base.fabric.routing.c_str());
  std::fprintf(out, " %6s %16s %16s %8s %12s %10s\n", "seed", "aggregate[Gb/s]", "sum(B_i)[Gb/s]", "share%", "min flow", "pauses");
  for (const TrafficResult& r : runs)
    std::fprintf(out, " %6llu %16.3f %16.3f %8.1f %12.3f %10llu\n", static_cast<unsigned long long>(r.config.base.seed),
                 r.aggregate_bps / 1e9, r.ideal_aggregate_bps / 1e9, 100.0 * r.aggregate_bps / r.ideal_aggregate_bps,
                 r.min_bps / 1e9, static_cast<unsigned long long>(r.fabric.pause_frames));
  std::fprintf(out, " share of sum(B_i): mean %.1f%%  stdev %.1f%%  min %.1f%%  max %.1f%%\n", 100 * s.mean, 100 * s.stdev,
               100 * s.min, 100 * s.max);
}

nlohmann::ordered_json seed_spread_json(const std::vector<TrafficResult>& runs, const SeedSpread& s) {
  nlohmann::ordered_json j;
  j["pattern"] = runs.front().config.pattern;
  j["config"] = config_json(runs.front().config.base, resolve(runs.front().config.base));
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const TrafficResult& r : runs)
    rows.push_back({{"seed", r.config.base.seed},
                    {"aggregate_Gbps", r.aggregate_bps / 1e9},
                    {"ideal_aggregate_Gbps", r.ideal_aggregate_bps / 1e9},
                    {"min_flow_Gbps", r.min_bps / 1e9},
                    {"pause_frames", r.fabric.pause_frames},
                    {"dropped", r.fabric.dropped}});
  j["runs"] = rows;
  j["share_of_ideal"] = {{"mean", s.mean}, {"stdev", s.stdev}, {"min", s.min}, {"max", s.max}};
  return j;
}

}  // namespace rdmasim
