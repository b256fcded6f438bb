// Flow lists for open-loop workloads (rdmasim/flows.hpp): Poisson arrivals from a flow-size
// distribution, and the ns-3 HPCC simulator's flow.txt in and out.
#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "core/random.hpp"
#include "rdmasim/flows.hpp"

namespace rdmasim {
namespace {

// Start times in whole nanoseconds, as the HPCC simulator's generator writes them.
// More than `cap` flows before the horizon: std::invalid_argument.
std::vector<FlowArrival> arrivals_until(const FlowSizeCdf& cdf, int hosts, double mean_gap_ns, Time horizon,
                                        std::uint64_t seed, std::size_t cap = kMaxOpenLoopFlows) {
  std::vector<FlowArrival> flows;
  for (int h = 0; h < hosts; ++h) {
    RandomStream rng(seed, "flows.h" + std::to_string(h));
    for (double t = 0;;) {
      t += -std::log(1 - rng.uniform01()) * mean_gap_ns;
      if (t * 1e3 >= static_cast<double>(horizon.count_ps())) break;
      FlowArrival f;
      f.src = h;
      f.dst = static_cast<int>(rng.uniform_u64(0, static_cast<std::uint64_t>(hosts - 2)));
      if (f.dst >= h) ++f.dst;
      f.size = Bytes(cdf.size_at(rng.uniform01()));
      f.start = Time::ns(static_cast<std::int64_t>(t));
      flows.push_back(f);
      if (flows.size() > cap)
        throw std::invalid_argument("the workload has more than " + std::to_string(kMaxOpenLoopFlows) +
                                    " flows: a shorter duration, a lower load or fewer hosts");
    }
  }
  std::sort(flows.begin(), flows.end(),
            [](const FlowArrival& a, const FlowArrival& b) { return a.start != b.start ? a.start < b.start : a.src < b.src; });
  return flows;
}

[[noreturn]] void bad_line(const std::string& source, int line, const std::string& why) {
  throw std::invalid_argument(source + ":" + std::to_string(line) + ": " + why);
}

}  // namespace

std::vector<FlowArrival> poisson_flows(const FlowSizeCdf& cdf, int hosts, Rate host_rate, double load, Time duration,
                                       std::int64_t max_flows, std::uint64_t seed) {
  if (hosts < 2) throw std::invalid_argument("open-loop flows need at least 2 hosts");
  if (!(load > 0 && load <= 1)) throw std::invalid_argument("--load: expected a fraction in (0, 1], got " + std::to_string(load));
  if (duration <= Time::zero() && max_flows <= 0)
    throw std::invalid_argument("open-loop flows: give a duration or a flow count");
  // Bytes per host per second at the target load, over the mean flow size.
  const double mean_gap_ns = cdf.mean() * 8 / (load * static_cast<double>(host_rate.bits_per_sec())) * 1e9;
  if (duration > Time::zero()) {
    std::vector<FlowArrival> f = arrivals_until(cdf, hosts, mean_gap_ns, duration, seed);
    if (max_flows > 0 && static_cast<std::int64_t>(f.size()) > max_flows) f.resize(static_cast<std::size_t>(max_flows));
    return f;
  }
  if (static_cast<std::uint64_t>(max_flows) > kMaxOpenLoopFlows)
    throw std::invalid_argument("--flows: at most " + std::to_string(kMaxOpenLoopFlows));
  // A flow count alone: the horizon that holds that many (each host's stream is the same
  // whatever the horizon, so a longer one only adds later flows), drawn past the cap if need be.
  const std::size_t cap = 4 * static_cast<std::size_t>(max_flows) + 1000;
  Time horizon = Time::ns(static_cast<std::int64_t>(mean_gap_ns * static_cast<double>(max_flows) / hosts * 1.5) + 1);
  for (;; horizon = horizon * 2) {
    std::vector<FlowArrival> f = arrivals_until(cdf, hosts, mean_gap_ns, horizon, seed, cap);
    if (static_cast<std::int64_t>(f.size()) >= max_flows) {
      f.resize(static_cast<std::size_t>(max_flows));
      return f;
    }
  }
}

std::vector<FlowArrival> parse_hpcc_flow_file(std::string_view text, const std::string& source) {
  std::vector<FlowArrival> flows;
  std::int64_t declared = -1;
  int line = 0;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string l(text.substr(at, end - at));
    at = end + 1;
    ++line;
    if (l.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (declared < 0) {
      char* stop = nullptr;
      declared = std::strtoll(l.c_str(), &stop, 10);
      if (stop == l.c_str() || declared < 0 || l.find_first_not_of(" \t\r", static_cast<std::size_t>(stop - l.c_str())) != std::string::npos)
        bad_line(source, line, "expected the flow count, got \"" + l + "\"");
      continue;
    }
    long long src = 0, dst = 0, pg = 0, dport = 0, size = 0;
    double start = 0;
    char extra = 0;
    if (std::sscanf(l.c_str(), "%lld %lld %lld %lld %lld %lf %c", &src, &dst, &pg, &dport, &size, &start, &extra) != 6)
      bad_line(source, line, "expected \"src dst priority dport size start_seconds\", got \"" + l + "\"");
    if (src < 0 || dst < 0 || src > INT32_MAX || dst > INT32_MAX) bad_line(source, line, "hosts are numbered from 0");
    if (size < 1) bad_line(source, line, "a flow's size is at least 1 byte");
    if (!(start >= 0 && start < 9e6)) bad_line(source, line, "the start time must be 0 or more seconds");
    FlowArrival f;
    f.src = static_cast<int>(src);
    f.dst = static_cast<int>(dst);
    f.size = Bytes(size);
    f.start = Time::ps(std::llround(start * 1e12));
    flows.push_back(f);
    if (flows.size() > kMaxOpenLoopFlows)
      bad_line(source, line, "more than " + std::to_string(kMaxOpenLoopFlows) + " flows");
  }
  if (declared < 0) throw std::invalid_argument(source + ": empty (expected the flow count, then one flow per line)");
  if (static_cast<std::int64_t>(flows.size()) != declared)
    throw std::invalid_argument(source + ": says " + std::to_string(declared) + " flows and lists " +
                                std::to_string(flows.size()));
  std::stable_sort(flows.begin(), flows.end(), [](const FlowArrival& a, const FlowArrival& b) { return a.start < b.start; });
  return flows;
}

std::string hpcc_flow_file(const std::vector<FlowArrival>& flows) {
  std::string out = std::to_string(flows.size()) + "\n";
  char buf[128];
  for (const FlowArrival& f : flows) {
    std::snprintf(buf, sizeof buf, "%d %d 3 100 %" PRId64 " %.9f\n", f.src, f.dst, f.size.count(),
                  static_cast<double>(f.start.count_ps()) / 1e12);
    out += buf;
  }
  return out;
}

}  // namespace rdmasim
