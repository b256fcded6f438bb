#include "io/demo_report.hpp"

#include <string>

namespace rdmasim {

void print_demo(std::FILE* out, const DemoResult& d) {
  const LatConfig& c = d.steps.front().result.config;
  std::fprintf(out, "rdmasim demo: one path, optimizations switched on one at a time\n");
  std::fprintf(out, "profile %s, %lld B messages, %lld iterations, back-to-back %s, seed %llu\n\n", c.profile.name.c_str(),
               static_cast<long long>(c.size.count()), static_cast<long long>(c.iters),
               std::string(to_string(c.link_layer)).c_str(), static_cast<unsigned long long>(c.seed));
  for (std::size_t i = 0; i < d.steps.size(); ++i)
    std::fprintf(out, "  step %zu  %-16s %s\n", i + 1, d.steps[i].name.c_str(), d.steps[i].change.c_str());
  std::fprintf(out, "\nLatency ledger, mean usec per one-way message (RTT/2), columns add up to t_avg\n");
  std::fprintf(out, " %-12s", "category");
  for (const DemoStep& s : d.steps) std::fprintf(out, " %16s", s.name.c_str());
  std::fprintf(out, "\n");
  for (Category k : kAllCategories) {
    bool any = false;
    for (const DemoStep& s : d.steps) any = any || s.result.kept_ledger_sum[k] != Time::zero();
    if (!any) continue;
    std::fprintf(out, " %-12s", std::string(category_name(k)).c_str());
    for (const DemoStep& s : d.steps) std::fprintf(out, " %16.3f", s.result.mean_ps(k) / 1e6);
    std::fprintf(out, "\n");
  }
  std::fprintf(out, " %-12s", "t_avg");
  for (const DemoStep& s : d.steps) std::fprintf(out, " %16.3f", s.result.stats.avg_us());
  std::fprintf(out, "\n %-12s", "t_typical");
  for (const DemoStep& s : d.steps) std::fprintf(out, " %16.3f", s.result.stats.typical_us());
  std::fprintf(out, "\n %-12s", "99%");
  for (const DemoStep& s : d.steps) std::fprintf(out, " %16.3f", s.result.stats.p99_us());
  std::fprintf(out, "\n\nSavings, step by step (share of the total saving TCP -> full RDMA)\n");
  const double total = d.steps.front().result.stats.avg_ps - d.steps.back().result.stats.avg_ps;
  for (std::size_t i = 1; i < d.steps.size(); ++i) {
    const double saved = d.steps[i - 1].result.stats.avg_ps - d.steps[i].result.stats.avg_ps;
    std::fprintf(out, "  %-16s saves %7.3f usec  (%5.1f%%)\n", d.steps[i].name.c_str(), saved / 1e6,
                 total > 0 ? 100.0 * saved / total : 0.0);
  }
  if (!d.by_size.empty()) {
    std::fprintf(out, "\nThe same steps at larger messages (t_avg usec); copies grow with size, the kernel does not\n");
    std::fprintf(out, " %-10s", "#bytes");
    for (const DemoStep& s : d.steps) std::fprintf(out, " %16s", s.name.c_str());
    std::fprintf(out, " %16s\n", "zero-copy share");
    for (const DemoSizeRow& r : d.by_size) {
      std::fprintf(out, " %-10lld", static_cast<long long>(r.size.count()));
      for (double v : r.step_avg_ps) std::fprintf(out, " %16.3f", v / 1e6);
      std::fprintf(out, " %15.1f%%\n", r.zero_copy_share_pct);
    }
  }
  const auto& tcp = d.steps.front().result.stats;
  const auto& rdma = d.steps.back().result.stats;
  std::fprintf(out, "\nThe toy model's printout, from the simulation:\n");
  std::fprintf(out, "TCP   avg %.2f us  p50 %.2f us\n", tcp.avg_us(), tcp.typical_us());
  std::fprintf(out, "RDMA  avg %.2f us  p50 %.2f us\n", rdma.avg_us(), rdma.typical_us());
  std::fprintf(out, "RDMA(no zero-copy) avg %.2f us\n", d.rdma_no_zero_copy.stats.avg_us());
  std::fprintf(out, "latency cut %.1f%%\n", d.latency_cut_pct);
  std::fprintf(out, "zero-copy share %.1f%%\n", d.zero_copy_share_pct);
}

}  // namespace rdmasim
