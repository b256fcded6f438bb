// Flow lists for open-loop workloads (rdmasim/flows.hpp): Poisson arrivals from a flow-size
// distribution, periodic incast bursts, and the two merged. The flow files are flow_files.cpp.
#include <algorithm>
#include <iterator>
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

std::vector<FlowArrival> incast_burst_flows(const IncastBursts& b, int hosts, Time horizon, std::uint64_t seed) {
  std::vector<FlowArrival> flows;
  if (b.every <= Time::zero()) return flows;
  if (b.fanin < 1 || b.fanin > hosts - 1)
    throw std::invalid_argument("--incast-fanin: " + std::to_string(b.fanin) + " senders need more than " +
                                std::to_string(hosts) + " hosts");
  if (b.size.count() < 1) throw std::invalid_argument("--incast-size: at least 1 byte");
  RandomStream rng(seed, "flows.incast");
  std::vector<int> others(static_cast<std::size_t>(hosts - 1));
  for (Time t = b.every; t < horizon; t += b.every) {
    const int dst = static_cast<int>(rng.uniform_u64(0, static_cast<std::uint64_t>(hosts - 1)));
    for (int h = 0, n = 0; h < hosts; ++h)
      if (h != dst) others[static_cast<std::size_t>(n++)] = h;
    for (int i = 0; i < b.fanin; ++i) {  // a partial Fisher-Yates shuffle: fanin distinct senders
      const auto j = static_cast<std::size_t>(rng.uniform_u64(static_cast<std::uint64_t>(i), static_cast<std::uint64_t>(hosts - 2)));
      std::swap(others[static_cast<std::size_t>(i)], others[j]);
      flows.push_back({others[static_cast<std::size_t>(i)], dst, b.size, t, b.tc});
      if (flows.size() > kMaxOpenLoopFlows)
        throw std::invalid_argument("the incast bursts have more than " + std::to_string(kMaxOpenLoopFlows) + " flows");
    }
  }
  return flows;
}

std::vector<FlowArrival> merge_flows(const std::vector<FlowArrival>& a, const std::vector<FlowArrival>& b) {
  std::vector<FlowArrival> out;
  out.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out),
             [](const FlowArrival& x, const FlowArrival& y) { return x.start < y.start; });
  return out;
}

}  // namespace rdmasim
