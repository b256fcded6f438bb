// Flow files (rdmasim/flows.hpp, docs/flow-file.md): rdmasim's own format and the ns-3 HPCC
// simulator's flow.txt, read (told apart by the first line) and written.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "rdmasim/flows.hpp"

namespace rdmasim {
namespace {

[[noreturn]] void bad_line(const std::string& source, int line, const std::string& why) {
  throw std::invalid_argument(source + ":" + std::to_string(line) + ": " + why);
}


constexpr std::string_view kMagic = "rdmasim-flows";

// "rdmasim-flows 1", then "start src dst size [tc=N]" per line.
std::vector<FlowArrival> parse_own(std::string_view text, const std::string& source) {
  std::vector<FlowArrival> flows;
  bool header = false;
  int line = 0;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string l(text.substr(at, end - at));
    at = end + 1;
    ++line;
    if (const std::size_t hash = l.find('#'); hash != std::string::npos) l.resize(hash);
    std::istringstream in(l);
    std::vector<std::string> w;
    for (std::string x; in >> x;) w.push_back(x);
    if (w.empty()) continue;
    if (!header) {
      if (w.size() != 2 || w[0] != kMagic || w[1] != "1") bad_line(source, line, "expected \"rdmasim-flows 1\"");
      header = true;
      continue;
    }
    if (w.size() < 4 || w.size() > 5) bad_line(source, line, "expected \"start src dst size [tc=N]\", got \"" + l + "\"");
    FlowArrival f;
    try {
      f.start = parse_time(w[0]);
      f.size = parse_byte_count(w[3]);
    } catch (const std::invalid_argument& e) {
      bad_line(source, line, e.what());
    }
    const auto host = [&](const std::string& x) {
      char* stop = nullptr;
      const long long v = std::strtoll(x.c_str(), &stop, 10);
      if (x.empty() || *stop != '\0' || v < 0 || v > INT32_MAX) bad_line(source, line, "a host is a number from 0, got \"" + x + "\"");
      return static_cast<int>(v);
    };
    f.src = host(w[1]);
    f.dst = host(w[2]);
    if (f.size.count() < 1) bad_line(source, line, "a flow's size is at least 1 byte");
    if (f.start < Time::zero()) bad_line(source, line, "the start time must be 0 or more");
    if (w.size() == 5) {
      if (w[4].rfind("tc=", 0) != 0 || w[4].size() != 4 || w[4][3] < '0' || w[4][3] > '7')
        bad_line(source, line, "expected tc=0..7, got \"" + w[4] + "\"");
      f.tc = w[4][3] - '0';
    }
    flows.push_back(f);
    if (flows.size() > kMaxOpenLoopFlows) bad_line(source, line, "more than " + std::to_string(kMaxOpenLoopFlows) + " flows");
  }
  std::stable_sort(flows.begin(), flows.end(), [](const FlowArrival& a, const FlowArrival& b) { return a.start < b.start; });
  return flows;
}

}  // namespace

std::vector<FlowArrival> parse_flow_file(std::string_view text, const std::string& source) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text.substr(first, kMagic.size()) == kMagic) return parse_own(text, source);
  return parse_hpcc_flow_file(text, source);
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
    if (pg < 0 || pg > 7) bad_line(source, line, "the priority is a traffic class, 0..7");
    if (!(start >= 0 && start < 9e6)) bad_line(source, line, "the start time must be 0 or more seconds");
    FlowArrival f;
    f.src = static_cast<int>(src);
    f.dst = static_cast<int>(dst);
    f.size = Bytes(size);
    f.start = Time::ps(std::llround(start * 1e12));
    f.tc = static_cast<int>(pg);
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
    std::snprintf(buf, sizeof buf, "%d %d %d 100 %" PRId64 " %.9f\n", f.src, f.dst, f.tc >= 0 ? f.tc : 3, f.size.count(),
                  static_cast<double>(f.start.count_ps()) / 1e12);
    out += buf;
  }
  return out;
}

std::string rdmasim_flow_file(const std::vector<FlowArrival>& flows) {
  std::string out = "rdmasim-flows 1\n# start src dst size [tc]\n";
  for (const FlowArrival& f : flows) {
    out += std::to_string(f.start.count_ps()) + "ps " + std::to_string(f.src) + " " + std::to_string(f.dst) + " " +
           std::to_string(f.size.count()) + "B";
    if (f.tc >= 0) out += " tc=" + std::to_string(f.tc);
    out += "\n";
  }
  return out;
}

}  // namespace rdmasim
