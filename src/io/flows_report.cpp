#include "io/flows_report.hpp"

#include <cinttypes>

#include "io/traffic_report.hpp"
#include "model/path.hpp"

namespace rdmasim {
namespace {

std::uint32_t hpcc_ip(int host) {
  const auto h = static_cast<std::uint32_t>(host);
  return 0x0b000001u + ((h / 256) << 16) + ((h % 256) << 8);
}

}  // namespace

void print_flows(std::FILE* out, const FlowsResult& r) {
  const LatConfig& b = r.config.base;
  std::fprintf(out, "open-loop flows: %zu flows (%" PRId64 " completed) on a %s, cc %s, routing %s; offered load %.3f\n",
               r.flows.size(), r.completed, b.fabric.topology.c_str(), b.fabric.cc.c_str(), b.fabric.routing.c_str(),
               r.offered_load);
  std::fprintf(out, "simulated %.3f us, %" PRIu64 " events; at most %" PRId64 " flows in progress at once (a QP each)\n\n",
               r.simulated.to_us(), r.events, r.peak_qps);
  std::fprintf(out, " FCT slowdown (FCT / the same flow alone on its path, closed form)\n");
  std::fprintf(out, " %-16s %8s %9s %9s %9s %9s\n", "flow size", "flows", "p50", "p95", "p99", "mean");
  for (const SlowdownRow& s : r.buckets)
    std::fprintf(out, " %-16s %8" PRId64 " %9.3f %9.3f %9.3f %9.3f\n", s.bucket.c_str(), s.flows, s.p50, s.p95, s.p99,
                 s.mean);
  std::fprintf(out, "\n");
  print_rc_stats(out, r.rc);
  print_fabric_stats(out, r.fabric);
}

nlohmann::ordered_json slowdown_json(const std::vector<SlowdownRow>& buckets) {
  nlohmann::ordered_json b = nlohmann::ordered_json::array();
  for (const SlowdownRow& s : buckets)
    b.push_back({{"bucket", s.bucket}, {"min_bytes", s.min_bytes}, {"max_bytes", s.max_bytes}, {"flows", s.flows},
                 {"p50", s.p50}, {"p95", s.p95}, {"p99", s.p99}, {"mean", s.mean}});
  return b;
}

nlohmann::ordered_json flows_json(const FlowsResult& r) {
  nlohmann::ordered_json j;
  j["flows"] = r.flows.size();
  j["completed"] = r.completed;
  j["offered_load"] = r.offered_load;
  j["simulated_us"] = r.simulated.to_us();
  j["events"] = r.events;
  j["peak_qps"] = r.peak_qps;
  j["slowdown"] = slowdown_json(r.buckets);
  j["rc"] = rc_stats_json(r.rc);
  j["fabric"] = fabric_stats_json(r.fabric);
  nlohmann::ordered_json f = nlohmann::ordered_json::array();
  for (const FlowRecord& x : r.flows)
    f.push_back({{"src", x.flow.src}, {"dst", x.flow.dst}, {"size", x.flow.size.count()},
                 {"start_ps", x.flow.start.count_ps()}, {"completed", x.completed}, {"fct_ps", x.fct.count_ps()},
                 {"ideal_fct_ps", x.ideal.count_ps()}, {"slowdown", x.slowdown}, {"retransmitted", x.retransmitted}});
  j["per_flow"] = f;
  return j;
}

std::string hpcc_pfc_txt(const FlowsResult& r) {
  std::string out;
  char line[96];
  for (const PfcFrame& f : r.pfc) {
    std::snprintf(line, sizeof line, "%" PRId64 " %d %d %d %d\n", f.at.count_ps() / 1000, f.node, f.host ? 0 : 1, f.if_index,
                  f.pause ? 1 : 0);
    out += line;
  }
  return out;
}

std::string hpcc_fct_txt(const FlowsResult& r) {
  // A host's HPCC node id: its id in the topology.txt it came from, else its host number.
  std::vector<int> node_of;
  if (r.config.base.topology == LatTopology::fabric) {
    const auto topo = FabricNetwork::make_topology(r.config.base);
    const std::vector<int>& ids = topo->node_ids;
    for (std::size_t id = 0; id < ids.size(); ++id)
      if (ids[id] >= 0) {
        if (node_of.size() <= static_cast<std::size_t>(ids[id])) node_of.resize(static_cast<std::size_t>(ids[id]) + 1, -1);
        node_of[static_cast<std::size_t>(ids[id])] = static_cast<int>(id);
      }
  }
  const auto ip = [&node_of](int host) {
    return hpcc_ip(static_cast<std::size_t>(host) < node_of.size() ? node_of[static_cast<std::size_t>(host)] : host);
  };
  std::string out;
  char line[160];
  for (const FlowRecord& x : r.flows) {
    if (!x.completed) continue;
    std::snprintf(line, sizeof line, "%08x %08x %u %u %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 "\n",
                  ip(x.flow.src), ip(x.flow.dst), static_cast<unsigned>(x.sport), 100u, x.flow.size.count(),
                  x.flow.start.count_ps() / 1000, x.fct.count_ps() / 1000, x.ideal.count_ps() / 1000);
    out += line;
  }
  return out;
}

}  // namespace rdmasim
