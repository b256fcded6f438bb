#include "io/json_report.hpp"

#include "io/host_report.hpp"
#include "io/traffic_report.hpp"

#include <cmath>

namespace rdmasim {

nlohmann::ordered_json versioned(nlohmann::ordered_json body) {
  nlohmann::ordered_json j;
  j["schema_version"] = kJsonSchemaVersion;
  if (body.is_object()) {
    for (auto& [k, v] : body.items())
      if (k != "schema_version") j[k] = std::move(v);
  } else {
    j["rows"] = std::move(body);
  }
  return j;
}
namespace {

double round2(double v) { return std::round(v * 100.0) / 100.0; }

nlohmann::ordered_json ledger_object(const Ledger& l, double divisor) {
  nlohmann::ordered_json j;
  for (Category c : kAllCategories) j[std::string(category_name(c))] = static_cast<double>(l[c].count_ps()) / divisor;
  return j;
}

}  // namespace

nlohmann::ordered_json config_json(const LatConfig& c, const ResolvedToggles& t) {
  nlohmann::ordered_json j;
  j["test"] = std::string(to_string(c.test));
  j["transport"] = std::string(to_string(c.transport));
  j["link_layer"] = c.transport == Transport::tcp ? "ethernet" : std::string(to_string(c.link_layer));
  j["mtu"] = c.mtu.count();
  j["profile"] = c.profile.name;
  j["seed"] = c.seed;
  j["toggles"] = {{"kernel_bypass", t.kernel_bypass},   {"zero_copy", t.zero_copy},
                  {"interrupt_coalescing", t.interrupt_coalescing}, {"busy_poll", t.busy_poll},
                  {"inline", t.inline_data},            {"max_inline", t.max_inline.count()}};
  nlohmann::ordered_json params;
  for (const ParamDef& d : profile_params()) params[d.key] = d.get(c.profile);
  j["parameters"] = params;
  j["memory"] = data_path_json(c, t);
  j["connections"] = {{"reuse", c.conn.reuse}, {"pool", c.conn.pool}};
  return j;
}

nlohmann::ordered_json lat_json(const std::vector<LatResult>& rows) {
  nlohmann::ordered_json j;
  if (!rows.empty()) j["config"] = config_json(rows.front().config, rows.front().toggles);
  j["report"] = rows.empty() || rows.front().rtt_factor == 2 ? "RTT/2" : "RTT";
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const LatResult& r : rows) {
    const LatencyStats& s = r.stats;
    nlohmann::ordered_json o;
    o["MsgSize"] = r.config.size.count();
    o["n_iterations"] = r.config.iters;
    o["t_min"] = round2(s.min_us());
    o["t_max"] = round2(s.max_us());
    o["t_typical"] = round2(s.typical_us());
    o["t_avg"] = round2(s.avg_us());
    o["t_stdev"] = round2(s.stdev_us());
    o["percentile_99"] = round2(s.p99_us());
    o["percentile_99.9"] = round2(s.p999_us());
    o["t_stdev_perftest"] = round2(s.perftest_stdev_us);
    o["samples"] = s.samples;
    o["kept"] = s.kept;
    o["exact_ps"] = {{"t_min", s.min_ps},     {"t_max", s.max_ps},     {"t_typical", s.typical_ps},
                     {"t_avg", s.avg_ps},     {"t_stdev", s.stdev_ps}, {"percentile_99", s.p99_ps},
                     {"percentile_99.9", s.p999_ps}};
    o["ledger_ps"] = ledger_object(r.kept_ledger_sum, static_cast<double>(s.kept) * r.rtt_factor);
    o["packets_per_message"] = r.packets_per_message;
    o["wire_bytes_per_message"] = r.wire_bytes_per_message.count();
    o["events"] = r.events;
    o["invariant_violations"] = r.invariant_violations;
    o["hosts"] = host_counters_json(r.hosts, r.simulated);
    o["connections"] = {{"setups", r.connections}, {"setup_ps", r.setup.count_ps()}, {"mean_all_rtt_ps", r.mean_all_rtt_ps}};
    results.push_back(std::move(o));
  }
  j["results"] = std::move(results);
  return j;
}

nlohmann::ordered_json budget_json(const BudgetResult& b) {
  nlohmann::ordered_json j;
  j["config"] = config_json(b.config, b.toggles);
  j["report"] = b.rtt_factor == 2 ? "RTT/2" : "RTT";
  j["total_ps"] = b.reported_ps;
  j["rtt_ps"] = b.rtt.total().count_ps();
  j["ledger_ps"] = ledger_object(b.rtt, b.rtt_factor);
  j["formulas"] = {{"message_wire_bytes", b.message_wire_bytes.count()},
                 {"transmit_ps", b.formula_transmit.count_ps()},
                 {"propagate_ps", b.formula_propagate.count_ps()},
                 {"kernel_tx_ps", b.kernel_tx.count_ps()},
                 {"kernel_rx_ps", b.kernel_rx.count_ps()},
                 {"copy_ps", b.copy_one.count_ps()},
                 {"switch_ps", b.switch_one.count_ps()},
                 {"copies", b.copies_n},
                 {"zero_copy_saving_ps", b.zero_copy_saving.count_ps()}};
  return j;
}

nlohmann::ordered_json bw_json(const BwConfig& b, const std::vector<BwResult>& rows) {
  nlohmann::ordered_json j;
  j["config"] = config_json(b.base, resolve(b.base));
  j["tx_depth"] = b.tx_depth;
  j["qps"] = b.qps;
  j["cores"] = b.cores;
  j["bidirectional"] = b.bidirectional;
  if (b.duration > Time::zero()) {
    j["duration_s"] = b.duration.to_us() / 1e6;
    j["margin_s"] = b.margin.to_us() / 1e6;
  }
  if (b.base.test == TestKind::read) j["outstanding_reads"] = b.outstanding_reads;
  if (b.post_list > 1 || b.cq_mod > 1) {
    j["post_list"] = b.post_list;
    j["cq_mod"] = b.cq_mod;
  }
  nlohmann::ordered_json res = nlohmann::ordered_json::array();
  for (const BwResult& r : rows)
    res.push_back({{"MsgSize", r.config.base.size.count()},
                   {"n_iterations", r.config.base.iters},
                   {"BW_peak_Gbps", r.bw_peak_bps / 1e9},
                   {"BW_average_Gbps", r.bw_avg_bps / 1e9},
                   {"MsgRate", r.msg_rate_mpps},
                   {"ideal_Gbps", r.ideal_bps / 1e9},
                   {"wire_bytes_per_message", r.wire_bytes_per_message.count()},
                   {"events", r.events}});
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const BwResult& r = rows[i];
    if (b.duration > Time::zero()) res[i]["counted"] = r.completed;
    if (r.directions.size() > 1) {
      nlohmann::ordered_json dirs = nlohmann::ordered_json::array();
      for (std::size_t d = 0; d < r.directions.size(); ++d)
        dirs.push_back({{"direction", d == 0 ? "A->B" : "B->A"},
                        {"messages", r.directions[d].completed},
                        {"BW_peak_Gbps", r.directions[d].bw_peak_bps / 1e9},
                        {"BW_average_Gbps", r.directions[d].bw_avg_bps / 1e9},
                        {"MsgRate", r.directions[d].msg_rate_mpps}});
      res[i]["directions"] = dirs;
    }
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const BwResult& r = rows[i];
    if (r.connections > 0 || b.base.conn.pool)
      res[i]["connections"] = {{"timed", r.connections},
                               {"reuse", b.base.conn.reuse},
                               {"setup_us", r.setup.to_us()},
                               {"setup_ledger_us_per_msg",
                                r.completed > 0 ? static_cast<double>(r.wqe_ledger_sum[Category::setup].count_ps()) /
                                                      static_cast<double>(r.completed) / 1e6
                                                : 0.0}};
    if (r.rx_completed > 0)
      res[i]["receiver"] = {{"completed", r.rx_completed}, {"BW_average_Gbps", r.rx_bw_avg_bps / 1e9}};
  }
  if (b.post_list > 1 || b.cq_mod > 1)
    for (std::size_t i = 0; i < rows.size(); ++i)
      res[i]["batching"] = {{"doorbells", rows[i].lists},
                            {"cqes", rows[i].signaled},
                            {"cpu_ns_per_msg", rows[i].cost.cpu_ps / 1e3},
                            {"pcie_down_ns_per_msg", rows[i].cost.pcie_down_ps / 1e3},
                            {"pcie_up_ns_per_msg", rows[i].cost.pcie_up_ps / 1e3},
                            {"wire_ns_per_msg", rows[i].cost.wire_ps / 1e3},
                            {"engine_ns_per_msg", rows[i].cost.engine_ps / 1e3},
                            {"bound_Mpps", rows[i].cost.bound_mpps()}};
  j["results"] = res;
  if (rows.back().fabric) j["fabric"] = fabric_stats_json(*rows.back().fabric);
  if (rows.back().rc) j["rc"] = rc_stats_json(*rows.back().rc);
  if (rows.back().tcp) j["tcp"] = tcp_stats_json(*rows.back().tcp);
  j["hosts"] = host_counters_json(rows.back().hosts, rows.back().simulated);
  return j;
}

}  // namespace rdmasim
