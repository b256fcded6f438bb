#include "io/hop_report.hpp"

#include <string>

namespace rdmasim {
namespace {

double mean_us(Time t, double n) { return static_cast<double>(t.count_ps()) / 1e6 / n; }

// The process categories of a hop with any time, largest first ("switch", "nic+pcie_dma").
std::string process_names(const Ledger& l) {
  std::string names;
  Time shown = Time::max();
  for (int k = 0; k < 3; ++k) {  // at most the three largest
    Category best = Category::queue;
    Time most{};
    for (Category c : kAllCategories)
      if (is_process(c) && l[c] > most && l[c] < shown) {
        most = l[c];
        best = c;
      }
    if (most == Time::zero()) break;
    names += (names.empty() ? "" : "+") + std::string(category_name(best));
    shown = most;
  }
  return names;
}

}  // namespace

void print_hop_ledger(std::FILE* out, const ExportStats& s, HopUnit unit) {
  if (s.messages_traced == 0 || s.hops.empty()) return;
  const double n = static_cast<double>(s.messages_traced) / unit.messages;
  std::fprintf(out, " Hop-by-hop ledger: mean usec per %s over the %lld traced messages' critical paths;\n"
                    " rows add up to its mean end-to-end time\n",
               unit.name, static_cast<long long>(s.messages_traced));
  std::fprintf(out, " %-34s %9s %9s %9s %9s  %s\n", "hop", "queue", "transmit", "propagate", "process", "of which");
  Ledger total;
  for (const HopLedgerRow& h : s.hops) {
    total.add(h.total);
    std::fprintf(out, " %-34s %9.3f %9.3f %9.3f %9.3f  %s\n", h.hop.c_str(), mean_us(h.total[Category::queue], n),
                 mean_us(h.total[Category::transmit], n), mean_us(h.total[Category::propagate], n),
                 mean_us(h.total.process(), n), process_names(h.total).c_str());
  }
  std::fprintf(out, " %-34s %9.3f %9.3f %9.3f %9.3f  = %.3f\n", "total", mean_us(total[Category::queue], n),
               mean_us(total[Category::transmit], n), mean_us(total[Category::propagate], n),
               mean_us(total.process(), n), mean_us(total.total(), n));
  std::fprintf(out, "---------------------------------------------------------------------------------------\n");
}

nlohmann::ordered_json hop_ledger_json(const ExportStats& s, HopUnit unit) {
  const double n = static_cast<double>(s.messages_traced) / unit.messages;
  nlohmann::ordered_json j;
  j["messages"] = s.messages_traced;
  j["per"] = unit.name;
  nlohmann::ordered_json hops = nlohmann::ordered_json::array();
  Ledger total;
  for (const HopLedgerRow& h : s.hops) {
    if (n == 0) break;
    total.add(h.total);
    nlohmann::ordered_json process = nlohmann::ordered_json::object();
    for (Category c : kAllCategories)
      if (is_process(c) && h.total[c] > Time::zero()) process[std::string(category_name(c))] = mean_us(h.total[c], n);
    hops.push_back({{"hop", h.hop},
                    {"queue_us", mean_us(h.total[Category::queue], n)},
                    {"transmit_us", mean_us(h.total[Category::transmit], n)},
                    {"propagate_us", mean_us(h.total[Category::propagate], n)},
                    {"process_us", mean_us(h.total.process(), n)},
                    {"process", process}});
  }
  j["hops"] = hops;
  j["total_us"] = n > 0 ? mean_us(total.total(), n) : 0.0;
  return j;
}

}  // namespace rdmasim
