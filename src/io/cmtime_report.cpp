#include "io/cmtime_report.hpp"

namespace rdmasim {
namespace {

long long whole_us(Time t) { return static_cast<long long>(t.count_ps() / 1'000'000); }

void row(std::FILE* out, const CmtimeStep& s, int n, bool with_sum) {
  std::fprintf(out, "%-13s:%11lld%11lld%11lld%11lld%11lld%11lld\n", s.name.c_str(),
               with_sum ? whole_us(s.sum) / n : 0LL, with_sum ? whole_us(s.sum) : 0LL, whole_us(s.max), whole_us(s.min),
               whole_us(s.total), whole_us(s.total) / n);
}

}  // namespace

void print_cmtime(std::FILE* out, const CmtimeResult& r) {
  const int n = r.config.connections;
  std::fprintf(out, "Connect (%d) QPs test\n", n);
  std::fprintf(out, "%-14s%11s%11s%11s%11s%11s%11s\n", "step", "us/conn", "sum(us)", "max(us)", "min(us)", "total(us)",
               "avg/iter");
  row(out, r.full_connect, n, false);
  for (const CmtimeStep& s : r.steps) row(out, s, n, true);
  std::fprintf(out,
               "# rdmasim: %d RC connections between two hosts, step by step as cmtime; one CM MAD crosses in %.3f us; "
               "serial per host: the application thread, the CM thread (conn.cm_process per MAD) and the NIC's "
               "firmware commands (conn.qp_create, conn.qp_transition, conn.qp_destroy)\n",
               n, r.mad_one_way.to_us());
}

nlohmann::ordered_json cmtime_json(const CmtimeResult& r) {
  const auto step = [](const CmtimeStep& s) {
    return nlohmann::ordered_json{{"step", s.name},
                                  {"sum_ps", s.sum.count_ps()},
                                  {"max_ps", s.max.count_ps()},
                                  {"min_ps", s.min.count_ps()},
                                  {"total_ps", s.total.count_ps()}};
  };
  nlohmann::ordered_json j;
  j["connections"] = r.config.connections;
  j["mad_one_way_ps"] = r.mad_one_way.count_ps();
  j["full_connect"] = step(r.full_connect);
  j["full_connect"].erase("sum_ps");
  j["steps"] = nlohmann::ordered_json::array();
  for (const CmtimeStep& s : r.steps) j["steps"].push_back(step(s));
  j["events"] = r.events;
  return j;
}

}  // namespace rdmasim
