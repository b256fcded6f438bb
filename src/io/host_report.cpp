#include "io/host_report.hpp"

#include <string>

namespace rdmasim {
namespace {

double pct(Time busy, Time total) {
  return total.count_ps() > 0 ? 100.0 * static_cast<double>(busy.count_ps()) / static_cast<double>(total.count_ps()) : 0;
}
double us(Time t) { return static_cast<double>(t.count_ps()) / 1e6; }
// The receiving side of the coalescing test: the host whose moderator saw packets (B for TCP).
int receiver(const LatResult& r) { return r.hosts[1].moderated_packets >= r.hosts[0].moderated_packets ? 1 : 0; }

}  // namespace

void print_host_counters(std::FILE* out, const HostCounters (&h)[2], Time simulated) {
  std::fprintf(out, " CPU accounting over %.3f usec simulated:\n", us(simulated));
  for (int i = 0; i < 2; ++i)
    std::fprintf(out, "   host %c: CPU busy %.3f usec (%.2f%%%s), %llu interrupts, %llu moderated packets, GPU copy %.3f usec\n",
                 i == 0 ? 'A' : 'B', us(h[i].cpu_busy), pct(h[i].cpu_busy, simulated * h[i].cores),
                 h[i].cores > 1 ? (" of " + std::to_string(h[i].cores) + " cores").c_str() : "",
                 static_cast<unsigned long long>(h[i].interrupts), static_cast<unsigned long long>(h[i].moderated_packets),
                 us(h[i].gpu_copy_busy));
}

void print_host_counters_per_size(std::FILE* out, const std::vector<SizeCounters>& rows) {
  std::fprintf(out, " CPU accounting per size (each size's own run):\n");
  std::fprintf(out, " %-10s %15s %14s %8s %10s %14s %8s %10s\n", "#bytes", "simulated[us]", "A busy[us]", "A[%]",
               "A intr", "B busy[us]", "B[%]", "B intr");
  for (const SizeCounters& r : rows)
    std::fprintf(out, " %-10lld %15.3f %14.3f %8.2f %10llu %14.3f %8.2f %10llu\n", static_cast<long long>(r.size.count()),
                 us(r.simulated), us(r.hosts[0].cpu_busy), pct(r.hosts[0].cpu_busy, r.simulated * r.hosts[0].cores),
                 static_cast<unsigned long long>(r.hosts[0].interrupts), us(r.hosts[1].cpu_busy),
                 pct(r.hosts[1].cpu_busy, r.simulated * r.hosts[1].cores), static_cast<unsigned long long>(r.hosts[1].interrupts));
}

nlohmann::ordered_json host_counters_json(const HostCounters (&h)[2], Time simulated) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const HostCounters& c : h)
    a.push_back({{"cpu_busy_ps", c.cpu_busy.count_ps()},
                 {"cpu_busy_percent", pct(c.cpu_busy, simulated * c.cores)},
                 {"cores", c.cores},
                 {"interrupts", c.interrupts},
                 {"moderated_packets", c.moderated_packets},
                 {"moderation_wait_ps", c.moderation_wait.count_ps()},
                 {"max_moderation_wait_ps", c.max_moderation_wait.count_ps()},
                 {"gpu_copy_busy_ps", c.gpu_copy_busy.count_ps()}});
  return a;
}

void print_data_path(std::FILE* out, const LatConfig& c, const ResolvedToggles& t) {
  if (!c.gpu.any_gpu()) return;
  std::string path;
  const auto placed = [&c](int side) {
    if (c.gpu.mem[side] != MemKind::gpu) return std::string("host memory");
    return std::string(to_string(gpu_pcie_path(c, side)));
  };
  if (t.gpudirect && !c.gpu.placement[0] && !c.gpu.placement[1])
    path = "GPUDirect RDMA (NIC <-> GPU peer-to-peer, pcie.topology " + std::string(to_string(c.profile.pcie.topology)) + ")";
  else if (t.gpudirect)  // a server's GPUs, each placed from its NIC
    path = "GPUDirect RDMA (NIC <-> GPU peer-to-peer; PCIe: client " + placed(0) + ", server " + placed(1) + ")";
  else if (c.gpu.staging_chunk)
    path = "CPU-staged, pipelined in " + std::to_string(c.gpu.staging_chunk->count()) + " B chunks";
  else
    path = "CPU-staged, whole message (D2H copy, transfer, H2D copy)";
  std::fprintf(out, " Memory          : client %s, server %s; %s\n", std::string(to_string(c.gpu.mem[0])).c_str(),
               std::string(to_string(c.gpu.mem[1])).c_str(), path.c_str());
}

nlohmann::ordered_json data_path_json(const LatConfig& c, const ResolvedToggles& t) {
  nlohmann::ordered_json j;
  j["client"] = std::string(to_string(c.gpu.mem[0]));
  j["server"] = std::string(to_string(c.gpu.mem[1]));
  j["gpudirect"] = t.gpudirect;
  j["staging_chunk"] = c.gpu.staging_chunk ? c.gpu.staging_chunk->count() : 0;
  j["pcie_topology"] = std::string(to_string(c.profile.pcie.topology));
  return j;
}

void print_connections(std::FILE* out, const LatResult& r) {
  if (r.connections > 0)
    std::fprintf(out,
                 " Connections: %lld set up in the timed loop (one per %lld exchanges), L_setup %.3f usec each; mean "
                 "exchange incl. setup %.3f usec (RTT)\n",
                 static_cast<long long>(r.connections), static_cast<long long>(r.config.conn.reuse), us(r.setup),
                 r.mean_all_rtt_ps / 1e6);
  else if (r.config.conn.pool)
    std::fprintf(out, " Connections: QP pool, pre-built outside the timed loop (L_setup %.3f usec each, not timed)\n",
                 us(r.setup));
}

void print_coalescing(std::FILE* out, const std::vector<CoalescingRow>& rows) {
  if (rows.empty()) return;
  const LatResult& f = rows.front().result;
  std::fprintf(out, " Interrupt coalescing: %s %s, %lld B, %lld iterations, profile %s (receiver: host %c)\n",
               std::string(to_string(f.config.transport)).c_str(), std::string(to_string(f.config.test)).c_str(),
               static_cast<long long>(f.config.size.count()), static_cast<long long>(f.config.iters),
               f.config.profile.name.c_str(), receiver(f) == 0 ? 'A' : 'B');
  std::fprintf(out, " %9s %9s %10s %11s %13s %10s %10s %13s %13s %9s\n", "rx-frames", "rx-usecs", "intr/msg",
               "pkts/intr", "intr/s", "p50[usec]", "p99[usec]", "wait avg[us]", "wait max[us]", "rx CPU[%]");
  for (const CoalescingRow& row : rows) {
    const LatResult& r = row.result;
    const HostCounters& h = r.hosts[receiver(r)];
    const double msgs = static_cast<double>(r.stats.samples);  // one message to each host per exchange
    const double sec = static_cast<double>(r.simulated.count_ps()) / 1e12;
    std::fprintf(out, " %9d %9.2f %10.3f %11.3f %13.0f %10.3f %10.3f %13.3f %13.3f %9.2f\n", row.frames, us(row.usecs),
                 static_cast<double>(h.interrupts) / msgs,
                 h.interrupts ? static_cast<double>(h.moderated_packets) / static_cast<double>(h.interrupts) : 0.0,
                 sec > 0 ? static_cast<double>(h.interrupts) / sec : 0.0, r.stats.typical_us(), r.stats.p99_us(),
                 h.moderated_packets ? us(h.moderation_wait) / static_cast<double>(h.moderated_packets) : 0.0,
                 us(h.max_moderation_wait), pct(h.cpu_busy, r.simulated));
  }
}

nlohmann::ordered_json coalescing_json(const std::vector<CoalescingRow>& rows) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const CoalescingRow& row : rows) {
    const LatResult& r = row.result;
    a.push_back({{"rx_frames", row.frames},
                 {"rx_usecs_ps", row.usecs.count_ps()},
                 {"t_typical_ps", r.stats.typical_ps},
                 {"percentile_99_ps", r.stats.p99_ps},
                 {"simulated_ps", r.simulated.count_ps()},
                 {"hosts", host_counters_json(r.hosts, r.simulated)}});
  }
  return a;
}

}  // namespace rdmasim
