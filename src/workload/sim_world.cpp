#include "workload/sim_world.hpp"

#include <stdexcept>

namespace rdmasim {

Fabric& SimWorld::fabric_for(const NetworkSpec& spec) {
  if (!fabric) {
    fabric = std::make_unique<Fabric>(parallel ? parallel->scheduler(0) : sched, spec.topology, spec.options, seed_);
    if (parallel) {
      fabric->partition(*parallel, cut.lp_of_node);
      std::vector<SimContext*> contexts;
      for (const auto& lp : lps_) contexts.push_back(&lp->ctx);
      fabric->use_contexts(std::move(contexts));
    }
  } else if (fabric->topology_ptr() != spec.topology) {
    throw std::logic_error("one simulation, one fabric topology");
  }
  return *fabric;
}

void SimWorld::partition(const Topology& topology, std::int64_t velocity_mps) {
  if (parallel || fabric) throw std::logic_error("SimWorld::partition: after the fabric was made");
  cut = partition_fabric(topology, velocity_mps);
  parallel = std::make_unique<ParallelRun>(cut.lps, cut.lookahead);
  for (int lp = 0; lp < cut.lps; ++lp) lps_.push_back(std::make_unique<Lp>(parallel->scheduler(lp)));
  // A flow's packets are acquired at its requester and released at its responder: between
  // windows the pools even out, so a receiver's LP does not hoard what a sender's keeps growing.
  for (const auto& lp : lps_) packet_pools_.push_back(&lp->packets), message_pools_.push_back(&lp->messages);
  parallel->add_between_windows([this](Time) {
    Pool<Packet>::balance(packet_pools_);
    Pool<Message>::balance(message_pools_);
    return ParallelRun::Between{};
  });
  host_lp_.clear();
  for (int h = 0; h < topology.host_count(); ++h)
    host_lp_.push_back(cut.lp_of_node[static_cast<std::size_t>(topology.host_node(h))]);
}

std::uint64_t SimWorld::out_of_order() const {
  std::uint64_t n = ctx.out_of_order;
  for (const auto& lp : lps_) n += lp->ctx.out_of_order;
  return n;
}

void SimWorld::trim_packets() {
  std::vector<Pool<Packet>*> pools{&packets};
  for (const auto& lp : lps_) pools.push_back(&lp->packets);
  Pool<Packet>::trim_all(pools);
}

}  // namespace rdmasim
