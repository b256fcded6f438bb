// rdmasim cmtime: rdma-core's cmtime on the simulator. N RC connections between two hosts are
// set up the way cmtime sets them up: step by step for all of them at once (create the ids,
// bind, resolve addresses, resolve routes, create QPs, move them to INIT, connect, then
// disconnect and destroy), each step issued for every connection before the client waits for
// all of them. The steps run on each host's serial resources: the application thread, the CM
// thread (one MAD or CM event at a time, conn.cm_process) and the NIC's firmware command
// interface (create, modify and destroy QP one command at a time), with the CM MADs crossing
// the network as in a single connection's setup (model/connection.hpp). So the time per
// connection of many connections is the busiest resource's work per connection, not one
// connection's latency. Deterministic: no random part.
#pragma once

#include <string>
#include <vector>

#include "rdmasim/latency.hpp"

namespace rdmasim {

struct CmtimeConfig {
  LatConfig base;        // the hosts, profile (conn.*) and network between them
  int connections = 100; // cmtime -c
};

/// One row of cmtime's table. Per connection, a step's time runs from the start of its first
/// operation to its completion; `total` is the step's wall time (first start to last completion).
struct CmtimeStep {
  std::string name;
  Time sum{}, max{}, min{}, total{};
};

struct CmtimeResult {
  CmtimeConfig config;
  CmtimeStep full_connect;          // each connection from its create id to its connect (sum not kept, as cmtime)
  std::vector<CmtimeStep> steps;    // create id ... destroy id, in order
  Time mad_one_way{};               // one CM MAD between the hosts (the network part of the exchanges)
  std::uint64_t events = 0;
};

CmtimeResult run_cmtime(const CmtimeConfig& c);

}  // namespace rdmasim
