// `rdmasim lat`'s RDMA tests re-expressed on the verbs API: perftest's ib_write_lat (WRITE
// ping-pong, each side spinning on the last byte of its buffer), ib_read_lat (one READ per
// iteration, polled from the CQ) and ib_send_lat (SEND/RECV ping-pong), written as two verbs
// applications on a Cluster built from the LatConfig.
//
// Invariant (tests/verbs_latency_test): for every configuration both accept, the samples,
// statistics and kept ledger equal run_latency()'s to the picosecond. Only what verbs is
// accepts: RDMA, kernel bypass, zero copy, busy polling, no interrupt moderation.
#pragma once

#include "rdmasim/latency.hpp"

namespace rdmasim::verbs {

/// Throws std::invalid_argument for a configuration verbs does not express.
LatResult run_latency_verbs(const LatConfig& c);

}  // namespace rdmasim::verbs
