// Flow-size distributions (rdmasim/flows.hpp): the piecewise-linear CDF, its parser and the
// registry with the built-in measured workloads, one registration line each.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "core/registry.hpp"
#include "core/text_lines.hpp"
#include "rdmasim/flows.hpp"
#include "workload/flow_size_cdf_data.hpp"

namespace rdmasim {
namespace {

// Throws unless sizes rise from >= 0 and percents rise from 0 to 100.
void check(const FlowSizeCdf& c, const std::string& where) {
  const auto& p = c.points;
  if (p.size() < 2) throw std::invalid_argument(where + ": a flow-size CDF needs at least two points");
  if (p.front().second != 0 || p.back().second != 100)
    throw std::invalid_argument(where + ": the percents must start at 0 and end at 100");
  if (p.front().first < 0) throw std::invalid_argument(where + ": sizes must not be negative");
  for (std::size_t i = 1; i < p.size(); ++i)
    if (!(p[i].first > p[i - 1].first) || !(p[i].second > p[i - 1].second))
      throw std::invalid_argument(where + ": point " + std::to_string(i + 1) + ": sizes and percents must both rise");
}

// The web search workload of the DCTCP paper (Alizadeh et al., SIGCOMM 2010) as the HPCC
// simulator ships it (traffic_gen/WebSearch_distribution.txt): mean 1.71 MB.
FlowSizeCdf websearch() {
  return {"websearch",
          "web search (DCTCP): half the flows under 60 KB, most bytes in flows over 1 MB",
          "Alizadeh et al., SIGCOMM 2010; HPCC simulator traffic_gen/WebSearch_distribution.txt",
          {{0, 0}, {10000, 15}, {20000, 20}, {30000, 30}, {50000, 40}, {80000, 53}, {200000, 60}, {1000000, 70},
           {2000000, 80}, {5000000, 90}, {10000000, 97}, {30000000, 100}}};
}

// Facebook's Hadoop cluster (Roy et al., SIGCOMM 2015) as the HPCC simulator ships it
// (traffic_gen/FbHdp_distribution.txt): mostly small flows, mean 120 KB.
FlowSizeCdf hadoop() {
  return {"hadoop",
          "Facebook Hadoop: 70% of flows under 7 KB, a long tail to 10 MB",
          "Roy et al., SIGCOMM 2015; HPCC simulator traffic_gen/FbHdp_distribution.txt",
          {{0, 0}, {100, 1}, {200, 2}, {300, 5}, {350, 15}, {400, 20}, {500, 30}, {600, 40}, {700, 50}, {1000, 60},
           {2000, 67}, {7000, 70}, {30000, 72}, {50000, 82}, {80000, 87}, {120000, 90}, {300000, 95},
           {1000000, 97.5}, {2000000, 99}, {10000000, 100}}};
}

// Alibaba storage traffic (2019) as the HPCC simulator ships it (traffic_gen/AliStorage2019.txt):
// mostly 4-8 KB blocks, mean 41 KB.
FlowSizeCdf alistorage() {
  return {"alistorage",
          "Alibaba storage (2019): 70% of flows 4-8 KB, a tail to 2 MB",
          "HPCC simulator traffic_gen/AliStorage2019.txt",
          {{0, 0}, {4000, 22.93}, {8000, 69.21}, {16000, 80.61}, {32000, 90.47}, {64000, 93.53}, {128000, 96.77},
           {256000, 97.53}, {2000000, 100}}};
}

Registry<FlowSizeCdf>& registry() {
  static Registry<FlowSizeCdf> r = [] {
    Registry<FlowSizeCdf> x("flow-size distribution");
    x.add(websearch());
    x.add(hadoop());
    x.add(alistorage());
    x.add(google_rpc_2008_cdf());
    return x;
  }();
  return r;
}

}  // namespace

double FlowSizeCdf::mean() const {
  double s = 0;
  for (std::size_t i = 1; i < points.size(); ++i)
    s += (points[i].first + points[i - 1].first) / 2 * (points[i].second - points[i - 1].second);
  return s / 100;
}

std::int64_t FlowSizeCdf::size_at(double u) const {
  const double y = u * 100;
  for (std::size_t i = 1; i < points.size(); ++i)
    if (y <= points[i].second) {
      const auto [x0, y0] = points[i - 1];
      const auto [x1, y1] = points[i];
      return std::max<std::int64_t>(1, static_cast<std::int64_t>(x0 + (x1 - x0) / (y1 - y0) * (y - y0)));
    }
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(points.back().first));
}

double FlowSizeCdf::cdf(double bytes) const {
  if (bytes <= points.front().first) return points.front().second / 100;
  for (std::size_t i = 1; i < points.size(); ++i)
    if (bytes <= points[i].first) {
      const auto [x0, y0] = points[i - 1];
      const auto [x1, y1] = points[i];
      return (y0 + (y1 - y0) / (x1 - x0) * (bytes - x0)) / 100;
    }
  return 1;
}

std::vector<const FlowSizeCdf*> flow_size_cdfs() { return registry().pointers(); }

const FlowSizeCdf& flow_size_cdf(std::string_view name) { return registry().get(name); }

void register_flow_size_cdf(FlowSizeCdf cdf) {
  check(cdf, cdf.name);
  registry().add(std::move(cdf));
}

FlowSizeCdf parse_flow_size_cdf(std::string_view text, const std::string& source) {
  FlowSizeCdf c;
  c.name = source;
  c.description = "flow sizes from " + source;
  c.source = source;
  for_each_line(text, [&](int line, std::string_view l) {
    const auto first = l.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return;
    l = l.substr(first);
    double v[2] = {0, 0};
    const char* p = l.data();
    const char* e = l.data() + l.size();
    for (double& x : v) {
      while (p < e && (*p == ' ' || *p == '\t')) ++p;
      const auto [q, ec] = std::from_chars(p, e, x);
      if (ec != std::errc() || !std::isfinite(x))
        throw std::invalid_argument(source + ":" + std::to_string(line) + ": expected \"bytes percent\", got \"" +
                                    std::string(l) + "\"");
      p = q;
    }
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
    if (p != e)
      throw std::invalid_argument(source + ":" + std::to_string(line) + ": expected \"bytes percent\", got \"" +
                                  std::string(l) + "\"");
    c.points.emplace_back(v[0], v[1]);
  });
  check(c, source);
  return c;
}

}  // namespace rdmasim
