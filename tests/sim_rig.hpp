// Test fixture: a simulation world (scheduler, pools, two hosts' resources, a fabric on demand), with a sink that records every
// delivered message (id, end-to-end time, ledger). Used to drive stages and servers through
// hand-made PathSpecs.
#pragma once

#include <vector>

#include "net/topology.hpp"
#include "sim/path_runner.hpp"
#include "workload/sim_world.hpp"

namespace rdmasim::testing {

struct RecordingSink : MessageSink {
  struct Got {
    std::uint64_t id;
    Time e2e;
    Ledger ledger;
  };
  Pool<Packet>* packets = nullptr;
  Scheduler* sched = nullptr;
  std::vector<Got> got;
  void delivered(Packet& t) override {
    got.push_back({t.msg->id, sched->now() - t.msg->posted, t.ledger});
    packets->release(&t);
  }
};

struct SimRig : SimWorld {
  RecordingSink sink;
  SimRig() : SimWorld(1) {
    sink.packets = &packets;
    sink.sched = &sched;
  }
  Message& msg(std::uint64_t id, std::int64_t size) {
    Message& m = *messages.acquire();
    m.id = id;
    m.size = Bytes(size);
    return m;
  }
  /// Posts one message of `size` on a fresh instance of `spec` and runs to completion.
  void run_one(const PathSpec& spec, std::int64_t size) {
    PathInstance path(ctx, hosts(), spec, sink, this);
    path.post(msg(1, size));
    sched.run();
  }
};

/// Appends: split into `segment`-byte packets, then serialize each on side 0's wire at 8 Gb/s
/// (1 ns per payload byte) — the start of most hand-made test paths.
inline void split_and_serialize(PathSpec& p, Bytes segment) {
  p.split(0, SplitSpec{segment, FrameKind::roce_send, LinkLayer::ib, false}, "split");
  Cost c;
  c.rate = Rate::gbps(8);
  c.basis = Basis::payload;
  p.serve(0, ResourceKind::wire, Category::transmit, "ser", c);
}

/// A k-ary fat-tree with the default rates and lengths.
inline Topology fat_tree(int k) {
  TopologyParams p;
  p.name = "fat-tree";
  p.k = k;
  return build_topology(p);
}

}  // namespace rdmasim::testing
