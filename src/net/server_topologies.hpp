// Fabrics of GPU servers, the way AI clusters are cabled (registered in net/topology.cpp).
//
// rail-optimized: S servers with N NICs each (--servers, --nics-per-server), grouped into
// scalable units of U servers (--servers-per-su). NIC r of every server of unit u is cabled to
// that unit's rail leaf r ("su0.rail3"); every leaf to every spine (--spines). Traffic between
// NICs of one rail and unit crosses one leaf; any other pair (another rail, another unit)
// crosses a spine: rails meet only there. Hosts are the NIC ports "s3.nic5".
// multi-plane: the same, with every NIC having one port per plane (--planes P): plane p is an
// independent rail-optimized fabric of its own leaves and spines ("plane1.su0.rail3",
// "plane1.spine0") holding port p of every NIC ("s3.nic5.p1"); no cable joins two planes.
// Invariants: the hosts of a server are consecutive, NIC by NIC, port by port; each plane is
// connected; leaves are tier 1, spines tier 2.
#pragma once

#include "net/topology.hpp"

namespace rdmasim {

Topology rail_optimized(const TopologyParams& p);
Topology multi_plane(const TopologyParams& p);

}  // namespace rdmasim
