// FabricStats: what a run's packet-level fabric counted — totals for the conservation
// invariant (injected = delivered + dropped + in flight) and the lossless guarantee, and
// per-port counters in the spirit of `ethtool -S` / `perfquery` for every port that carried
// or refused traffic; PFC pathologies: deadlocks found (the cycle's queues) and the PFC
// watchdog's drops, counted apart from every other drop.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rdmasim/units.hpp"

namespace rdmasim {

struct PortStats {
  std::string port;               // "edge0.0->h1": the transmitting node and its peer
  std::uint64_t tx_packets = 0, tx_bytes = 0, rx_packets = 0, rx_bytes = 0;
  std::uint64_t drops = 0;        // discarded at this port's egress queue
  std::uint64_t rx_errors = 0;    // received corrupted (cable loss) and discarded
  std::int64_t rate_bps = 0;      // the cable's rate (a degraded link shows its trained rate)
  std::uint64_t ecn_marked = 0;   // marked CE when queued here
  std::uint64_t pause_tx = 0;     // PFC frames sent to the peer (XOFF + XON)
  std::uint64_t pause_rx = 0;     // PFC frames received from the peer
  std::uint64_t watchdog_drops = 0;   // lossless frames the PFC watchdog dropped at this egress queue
  std::uint64_t watchdog_storms = 0;  // times the watchdog put one of its queues into drop mode
  std::uint64_t naks = 0, cnps = 0;   // RC NAKs and DCQCN CNPs this port transmitted (each hop counts)
  std::uint64_t link_drops = 0;       // frames lost because this port's link was down (queued, routed to it, on the wire)
  double paused_us = 0;           // time the transmitter held frames it was not allowed to send
  std::int64_t max_queue_bytes = 0;
  double mean_queue_bytes = 0;   // time-weighted mean depth of its egress queue over the run
  double utilisation = 0;         // tx bytes on the wire / (rate x run time)
};

/// One queue of a PFC deadlock's cycle: "sw0->sw1" priority 3 waits for the next one.
struct DeadlockHop {
  std::string port;
  int priority = 0;
  std::int64_t queued_bytes = 0;  // frames of that priority stuck in its egress queue
  double paused_us = 0;           // how long it had been paused when the deadlock was declared
};

struct PfcDeadlock {
  double detected_at_us = 0;       // simulated time the run stopped
  std::vector<DeadlockHop> cycle;  // in waits-for order: each queue waits for the next, the last for the first
};

/// A PFC frame a port received (the ns-3 HPCC simulator's pfc.txt records the same): the node
/// (its number in the topology; an HPCC topology.txt's node id), whether it is a host, the port's
/// interface index on it (1.. in cable order, ns-3's device numbering after the loopback), the
/// priority, pause or resume.
struct PfcFrame {
  Time at{};
  int node = 0;
  bool host = false;
  int if_index = 0;
  int tc = 0;
  bool pause = false;
  bool operator==(const PfcFrame&) const = default;
};

struct FabricStats {
  std::uint64_t injected = 0, delivered = 0, dropped = 0, in_flight = 0;
  std::uint64_t lossless_drops = 0;  // must be 0: a lossless class never drops for want of buffer
  std::uint64_t watchdog_drops = 0;  // lossless frames dropped by an enabled PFC watchdog (in `dropped`, not lossless_drops)
  std::uint64_t watchdog_storms = 0; // times a queue went into watchdog drop mode
  std::uint64_t deadlocks = 0;       // PFC deadlocks detected (the run stops at the first)
  std::uint64_t link_drops = 0;      // frames lost to down links or with no route left (in `dropped`)
  std::uint64_t link_changes = 0, reroutes = 0;  // links gone down or up; routing recomputations
  std::vector<PfcDeadlock> deadlock_reports;
  std::uint64_t ecn_marked = 0, pause_frames = 0;
  bool conserved = true;             // injected == delivered + dropped + in_flight
  std::vector<PortStats> ports;      // ports with any traffic, drops or pauses, in port order
};

}  // namespace rdmasim
