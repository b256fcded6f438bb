// The dashboard's computed views that are not runs: the demo's progressive ledger (view 1),
// one RDMA WRITE's data path segment by segment from the closed-form budget: GPUDirect vs
// CPU-staged between GPU buffers, or zero copy vs bounce buffers between host buffers (view 2), and a topology with a host pair's equal-cost paths (view 3). Each takes
// the request's query parameters, checks them (ApiError 400 naming the parameter) and returns
// JSON; the numbers are the CLI's (`rdmasim demo`, `budget --stages`, `topo --json`).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <cstdint>
#include <string>

namespace rdmasim::web {

using Query = std::multimap<std::string, std::string>;

/// The demo view's parameters, validated (ApiError 400 naming the key). The work is bounded:
/// iters x packets per message (4 KiB MTU) is at most kMaxDemoPackets, so no query can keep an
/// HTTP thread busy for long; `key` is canonical (the cache ignores other query parameters).
struct DemoParams {
  std::string profile = "default";
  std::int64_t size = 2, iters = 1000;
  std::string key() const;
};
inline constexpr std::int64_t kMaxDemoPackets = 200'000;
DemoParams demo_params(const Query& q);
/// profile, size (bytes), iters. Deterministic; the server caches it by DemoParams::key.
nlohmann::ordered_json demo_view(const DemoParams& p);
/// profile, size, mem (gpu | host), pcie_topology (switch | root | cross-socket), chunk: the
/// one-way segments (GPU copy engine, PCIe, NIC, wire, ...) of GPUDirect RDMA, the CPU-staged
/// path and the chunk-pipelined staged path (mem=gpu), or of the zero-copy and bounce-buffer
/// host paths (mem=host).
nlohmann::ordered_json path_view(const Query& q);
/// profile, size: the processing pipeline of one message, one way, stage by stage from the
/// closed-form budget, for the demo's first step (kernel TCP) and its last (full RDMA): the
/// same segments as path_view.
nlohmann::ordered_json pipeline_view(const Query& q);
/// topology (fat-tree | leaf-spine | single-switch), k, hosts, leaves, spines, hosts_per_leaf,
/// from, to: nodes, links (with their two port names), the pair's paths, the hop histogram.
nlohmann::ordered_json topology_view(const Query& q);

}  // namespace rdmasim::web
