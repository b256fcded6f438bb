#include "cmd_allreduce.hpp"

#include <stdexcept>

namespace rdmasim::cli {

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

}  // namespace rdmasim::cli
