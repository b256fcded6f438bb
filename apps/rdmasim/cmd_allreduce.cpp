#include "cmd_allreduce.hpp"

#include <stdexcept>

namespace rdmasim::cli {

void set_allreduce_defaults(LatOptions& o) {
  o.topology = "single-switch";
  o.fabric.hosts = 8;
  o.iters = 20;
}

void add_allreduce_options(CLI::App& app, LatOptions& l) {
  CollectiveOptions& o = l.collective;
  app.add_option("--algo", o.algo, "ring | halving-doubling (Rabenseifner: recursive halving, then doubling)")
      ->check(CLI::IsMember({"ring", "halving-doubling"}))
      ->capture_default_str();
  app.add_option("-b,--minbytes", o.min_bytes, "smallest size (bytes; K, M, G suffixes)")->capture_default_str();
  app.add_option("-e,--maxbytes", o.max_bytes, "largest size")->capture_default_str();
  app.add_option("-f,--stepfactor", o.step_factor, "multiply the size by this factor")->capture_default_str();
  app.add_option("-n,--iters", l.iters, "timed iterations per size")->capture_default_str();
  app.add_option("-w,--warmup_iters", o.warmup, "warmup iterations per size (simulated, not timed)")->capture_default_str();
  app.add_option("-g,--ngpus", o.gpus, "GPUs (ranks) per host")->capture_default_str();
  app.add_option("--nodes", o.nodes, "hosts taking part, h0..h(N-1) (0: every host of the topology)")->capture_default_str();
  app.add_option("--gpudirect", o.gpudirect,
                 "on: the NIC DMAs GPU memory; off: each step staged through host memory (D2H copy, send, H2D copy)")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  add_topology_options(app, l, true);
  app.add_option("--routing", l.routing, choices_text(load_balancer_names()))
      ->check(CLI::IsMember(load_balancer_names()))
      ->capture_default_str();
  app.add_option("--cc", l.cc, choices_text(rate_control_names()))->check(CLI::IsMember(rate_control_names()))->capture_default_str();
  app.add_option("--link-layer", l.link_layer, "roce | ib")->check(CLI::IsMember({"roce", "ib"}))->capture_default_str();
  app.add_option("-m,--mtu", l.mtu, "RDMA path MTU: 256 .. 4096")->capture_default_str();
  app.add_option("--profile", l.profile, "parameter profile: default | seed-demo")->capture_default_str();
  app.add_option("--set", l.sets, "override a profile parameter, key=value (repeatable; `rdmasim list`)");
  app.add_option("--seed", l.seed, "seed of every random stream")->check(unsigned_number())->capture_default_str();
  app.add_flag("--json", l.json, "print JSON instead of the table");
}

std::int64_t parse_nccl_size(const std::string& v, const char* flag) {
  std::int64_t x = 0;
  std::size_t i = 0;
  for (; i < v.size() && v[i] >= '0' && v[i] <= '9'; ++i) {
    if (x > (std::int64_t{1} << 40)) throw std::invalid_argument(std::string(flag) + ": size too large: \"" + v + "\"");
    x = x * 10 + (v[i] - '0');
  }
  std::int64_t unit = 1;
  if (i + 1 == v.size()) {
    const char s = v[i];
    unit = (s == 'K' || s == 'k') ? 1024 : (s == 'M' || s == 'm') ? 1024 * 1024 : (s == 'G' || s == 'g') ? 1024 * 1024 * 1024 : 0;
    ++i;
  }
  if (i == 0 || i != v.size() || unit == 0)
    throw std::invalid_argument(std::string(flag) + ": expected a size like 8, 64K, 32M or 1G, got \"" + v + "\"");
  return x * unit;
}

AllReduceConfig to_allreduce_config(const LatOptions& l) {
  const CollectiveOptions& o = l.collective;
  AllReduceConfig c;
  LatOptions base = l;
  base.iters = 1000;  // perftest's minimum of 5 does not apply to nccl-tests' -n
  c.base = to_config(base);
  c.algo = o.algo == "halving-doubling" ? AllReduceAlgo::halving_doubling : AllReduceAlgo::ring;
  c.nodes = o.nodes;
  c.gpus = o.gpus;
  c.gpudirect = o.gpudirect != "off";
  c.min_bytes = parse_nccl_size(o.min_bytes, "-b");
  c.max_bytes = parse_nccl_size(o.max_bytes, "-e");
  c.step_factor = o.step_factor;
  if (l.iters < 1 || l.iters > 10000) throw std::invalid_argument("-n: iterations must be 1..10000");
  c.iters = static_cast<int>(l.iters);
  c.warmup = o.warmup;
  return c;
}

}  // namespace rdmasim::cli
