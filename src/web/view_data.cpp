#include "web/view_data.hpp"

#include <algorithm>
#include <charconv>

#include "io/topo_report.hpp"
#include "rdmasim/demo.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/profile.hpp"
#include "web/run_manager.hpp"

namespace rdmasim::web {
namespace {

std::string text_param(const Query& q, const std::string& key, const std::string& def) {
  const auto it = q.find(key);
  return it == q.end() ? def : it->second;
}

std::int64_t int_param(const Query& q, const std::string& key, std::int64_t def, std::int64_t lo, std::int64_t hi) {
  const auto it = q.find(key);
  if (it == q.end()) return def;
  std::int64_t v = 0;
  const std::string& s = it->second;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc{} || r.ptr != s.data() + s.size())
    throw ApiError(400, key, key + ": expected an integer, got \"" + s + "\"");
  if (v < lo || v > hi)
    throw ApiError(400, key, key + ": " + s + " is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
  return v;
}

Profile profile_param(const Query& q) {
  const std::string name = text_param(q, "profile", "default");
  try {
    return make_profile(name);
  } catch (const std::invalid_argument& e) {
    throw ApiError(400, "profile", std::string("profile: ") + e.what());
  }
}

double us(Time t) { return t.to_us(); }

nlohmann::ordered_json ledger_us(const LatResult& r) {
  nlohmann::ordered_json j;
  for (Category c : kAllCategories) j[std::string(category_name(c))] = r.mean_ps(c) / 1e6;
  return j;
}

// Consecutive stages of one side and component ("A.pcie.*") form a segment.
nlohmann::ordered_json segments(const BudgetResult& b) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  std::string last_key;
  bool second_side = false;
  for (const StageLine& s : b.critical_path) {
    const auto dot1 = s.label.find('.');
    const std::string side = s.label.substr(0, dot1);
    const auto dot2 = s.label.find('.', dot1 + 1);
    const std::string comp = s.label.substr(dot1 + 1, dot2 == std::string::npos ? std::string::npos : dot2 - dot1 - 1);
    if (side == "B") second_side = true;
    if (second_side && side == "A") break;  // one way: up to the receiver's completion
    if (second_side && comp == "verbs" && s.label.find("post_send") != std::string::npos) break;
    if (side == "B" && comp == "copy" && s.label.find("to_bounce") != std::string::npos) break;
    if (side == "B" && comp == "gpu" && s.label.find("d2h") != std::string::npos) break;  // the reply's staging
    if (s.label == "B.kernel.send") break;  // kernel TCP: the reply's send()
    const std::string key = side + "." + comp;
    if (key != last_key) {
      a.push_back({{"side", side}, {"component", comp}, {"category", std::string(category_name(s.cat))}, {"us", 0.0},
                   {"stages", nlohmann::ordered_json::array()}});
      last_key = key;
    }
    a.back()["us"] = a.back()["us"].get<double>() + us(s.time);
    a.back()["stages"].push_back({{"label", s.label}, {"us", us(s.time)}});
  }
  return a;
}

}  // namespace

std::string DemoParams::key() const { return profile + "|" + std::to_string(size) + "|" + std::to_string(iters); }

DemoParams demo_params(const Query& q) {
  DemoParams p;
  profile_param(q);  // the name is checked now
  p.profile = text_param(q, "profile", "default");
  p.size = int_param(q, "size", 2, 1, 1 << 20);
  p.iters = int_param(q, "iters", 1000, 10, 20000);
  const std::int64_t packets = p.iters * ((p.size + 4095) / 4096);
  if (packets > kMaxDemoPackets)
    throw ApiError(400, "iters",
                   "iters: " + std::to_string(p.iters) + " messages of " + std::to_string(p.size) + " B are " +
                       std::to_string(packets) + " packets per step; a view runs at most " +
                       std::to_string(kMaxDemoPackets) + " (fewer iters, or `rdmasim demo` for more)");
  return p;
}

nlohmann::ordered_json demo_view(const DemoParams& p) {
  LatConfig base;
  base.profile = make_profile(p.profile);
  base.size = Bytes(p.size);
  base.iters = p.iters;
  const DemoResult d = run_demo(base, {});
  nlohmann::ordered_json steps = nlohmann::ordered_json::array();
  const double total = d.steps.front().result.stats.avg_ps - d.steps.back().result.stats.avg_ps;
  for (std::size_t i = 0; i < d.steps.size(); ++i) {
    const LatResult& r = d.steps[i].result;
    nlohmann::ordered_json s{{"name", d.steps[i].name}, {"change", d.steps[i].change},
                             {"t_avg_us", r.stats.avg_ps / 1e6}, {"ledger_us", ledger_us(r)}};
    if (i > 0) {
      const double saved = d.steps[i - 1].result.stats.avg_ps - r.stats.avg_ps;
      s["saves_us"] = saved / 1e6;
      s["saves_share_pct"] = total > 0 ? 100.0 * saved / total : 0.0;
    }
    steps.push_back(std::move(s));
  }
  return {{"size", base.size.count()},
          {"iters", base.iters},
          {"profile", p.profile},
          {"steps", std::move(steps)},
          {"latency_cut_pct", d.latency_cut_pct},
          {"zero_copy_share_pct", d.zero_copy_share_pct}};
}

namespace {

// One path of view 2: its one-way segments from the closed-form budget.
nlohmann::ordered_json path_entry(const LatConfig& x, std::string name) {
  validate(x);
  const nlohmann::ordered_json seg = segments(run_budget(x));
  double sum = 0;
  for (const auto& s : seg) sum += s["us"].get<double>();
  return {{"name", std::move(name)}, {"one_way_us", sum}, {"segments", seg}};
}

PcieTopology pcie_topology_param(const Query& q) {
  const std::string t = text_param(q, "pcie_topology", "switch");
  if (t == "switch") return PcieTopology::pcie_switch;
  if (t == "root") return PcieTopology::root;
  if (t == "cross-socket") return PcieTopology::cross_socket;
  throw ApiError(400, "pcie_topology", "pcie_topology: switch, root or cross-socket, got \"" + t + "\"");
}

}  // namespace

nlohmann::ordered_json path_view(const Query& q) {
  LatConfig c;
  c.profile = profile_param(q);
  c.size = Bytes(int_param(q, "size", 65536, 1, 1 << 23));
  const std::string mem = text_param(q, "mem", "gpu");
  nlohmann::ordered_json paths = nlohmann::ordered_json::array();
  nlohmann::ordered_json out{{"size", c.size.count()}, {"profile", text_param(q, "profile", "default")}, {"mem", mem}};
  if (mem == "host") {
    for (const bool zero_copy : {true, false}) {
      LatConfig x = c;
      x.toggles.zero_copy = zero_copy;
      nlohmann::ordered_json p = path_entry(x, zero_copy ? "zero copy (NIC DMAs the registered buffer)"
                                                         : "staged through a host bounce buffer");
      p["zero_copy"] = zero_copy;
      paths.push_back(std::move(p));
    }
  } else if (mem == "gpu") {
    c.profile.pcie.topology = pcie_topology_param(q);
    c.gpu.mem[0] = c.gpu.mem[1] = MemKind::gpu;
    // Default chunk: a quarter of the message in whole MTUs (at least one MTU).
    const std::int64_t mtu = c.mtu.count();
    const std::int64_t def_chunk = std::max<std::int64_t>(mtu, c.size.count() / 4 / mtu * mtu);
    const std::int64_t chunk = int_param(q, "chunk", def_chunk, mtu, 1 << 23);
    if (chunk % mtu) throw ApiError(400, "chunk", "chunk: a multiple of the MTU (" + std::to_string(mtu) + " B), got " + std::to_string(chunk));
    LatConfig direct = c;
    direct.gpu.gpudirect = true;
    nlohmann::ordered_json p = path_entry(direct, "GPUDirect RDMA (the NIC DMAs GPU memory over PCIe peer-to-peer)");
    p["gpudirect"] = true;
    paths.push_back(std::move(p));
    LatConfig staged = c;
    staged.gpu.gpudirect = false;
    p = path_entry(staged, "CPU-staged: cudaMemcpy D2H, host buffer, NIC, host buffer, H2D");
    p["gpudirect"] = false;
    paths.push_back(std::move(p));
    staged.gpu.staging_chunk = Bytes(chunk);
    p = path_entry(staged, "CPU-staged, pipelined in " + std::to_string(chunk) + " B chunks");
    p["gpudirect"] = false;
    p["staging_chunk"] = chunk;
    paths.push_back(std::move(p));
    out["pcie_topology"] = std::string(to_string(c.profile.pcie.topology));
    out["chunk"] = chunk;
  } else {
    throw ApiError(400, "mem", "mem: gpu or host, got \"" + mem + "\"");
  }
  out["paths"] = std::move(paths);
  return out;
}

nlohmann::ordered_json pipeline_view(const Query& q) {
  LatConfig base;
  base.profile = profile_param(q);
  base.size = Bytes(int_param(q, "size", 4096, 1, 1 << 23));
  const std::vector<LatConfig> steps = demo_step_configs(base);
  nlohmann::ordered_json paths = nlohmann::ordered_json::array();
  paths.push_back(path_entry(steps.front(), "kernel TCP: send() and recv(), copies, kernel stacks, interrupt, wake-up"));
  paths.push_back(path_entry(steps.back(), "RDMA: verbs from user space, zero copy, completion by polling"));
  return {{"size", base.size.count()}, {"profile", text_param(q, "profile", "default")}, {"paths", std::move(paths)}};
}

nlohmann::ordered_json topology_view(const Query& q) {
  TopologyParams tp;
  tp.name = text_param(q, "topology", "fat-tree");
  if (tp.name != "fat-tree" && tp.name != "leaf-spine" && tp.name != "single-switch")
    throw ApiError(400, "topology", "topology: fat-tree, leaf-spine or single-switch, got \"" + tp.name + "\"");
  tp.k = static_cast<int>(int_param(q, "k", 4, 2, 12));
  if (tp.k % 2) throw ApiError(400, "k", "k: the fat-tree arity must be even, got " + std::to_string(tp.k));
  tp.hosts = static_cast<int>(int_param(q, "hosts", 2, 2, 128));
  tp.leaves = static_cast<int>(int_param(q, "leaves", 4, 1, 32));
  tp.spines = static_cast<int>(int_param(q, "spines", 2, 1, 32));
  tp.hosts_per_leaf = static_cast<int>(int_param(q, "hosts_per_leaf", 4, 1, 32));
  LatConfig c;
  c.size = Bytes(int_param(q, "size", 2, 1, 1 << 23));
  tp.host_rate = tp.fabric_rate = c.profile.link.rate;
  tp.host_length_mm = c.profile.link.length_mm;
  tp.fabric_length_mm = c.profile.sw.fabric_length_mm;
  const Topology t = build_topology(tp);
  if (t.host_count() > 432) throw ApiError(400, "k", "the topology has more than 432 hosts");
  const std::string from = text_param(q, "from", "h0"), to = text_param(q, "to", "h" + std::to_string(t.host_count() - 1));
  const int a = t.find_host(from), b = t.find_host(to);
  if (a < 0) throw ApiError(400, "from", "from: no host \"" + from + "\" (hosts are h0..h" + std::to_string(t.host_count() - 1) + ")");
  if (b < 0) throw ApiError(400, "to", "to: no host \"" + to + "\" (hosts are h0..h" + std::to_string(t.host_count() - 1) + ")");
  if (a == b) throw ApiError(400, "to", "to: the same host as from");
  const TopoReport r = make_topo_report(t, std::pair{a, b}, true, c);
  nlohmann::ordered_json j = topo_json(r);
  nlohmann::ordered_json nodes = nlohmann::ordered_json::array();
  for (const Node& n : t.nodes()) nodes.push_back({{"name", n.name}, {"tier", n.tier}, {"pod", n.pod}});
  nlohmann::ordered_json links = nlohmann::ordered_json::array();
  for (const Cable& k : t.cables()) {
    const std::string na = t.nodes()[static_cast<std::size_t>(k.a)].name, nb = t.nodes()[static_cast<std::size_t>(k.b)].name;
    links.push_back({{"a", na}, {"b", nb}, {"ports", {t.egress_name(k.a, k.b), t.egress_name(k.b, k.a)}}});
  }
  j["from_name"] = from;
  j["to_name"] = to;
  j["nodes"] = std::move(nodes);
  j["link_list"] = std::move(links);
  return j;
}

}  // namespace rdmasim::web
