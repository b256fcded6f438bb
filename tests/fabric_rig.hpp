// The fabric alone against a fake client, for the queue-management tests: one switch with
// `hosts` hosts, MTU frames injected in a chosen traffic class, every arrival and drop recorded.
#pragma once

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/pool.hpp"
#include "net/ecmp.hpp"
#include "net/topology.hpp"
#include "net/wire_format.hpp"
#include "rdmasim/profile.hpp"
#include "sim/fabric.hpp"

namespace rdmasim::testing {

struct Arrival {
  std::uint8_t tc;
  Time at;
};

struct Client final : FabricClient {
  explicit Client(Pool<Packet>& p, Scheduler& s) : pool(p), sched(s) {}
  void arrived(Packet& p) override {
    got.push_back({p.tc, sched.now()});
    pool.release(&p);
  }
  void dropped(Packet& p) override {
    dropped_tc.push_back(p.tc);
    pool.release(&p);
  }
  Pool<Packet>& pool;
  Scheduler& sched;
  std::vector<Arrival> got;
  std::vector<std::uint8_t> dropped_tc;
};

struct Rig {
  explicit Rig(int hosts, FabricOptions o = {}) : topo(make(hosts)), fabric(sched, topo, o, 7) {}
  static std::shared_ptr<const Topology> make(int hosts) {
    TopologyParams p;
    p.name = "single-switch";
    p.hosts = hosts;
    return std::make_shared<const Topology>(build_topology(p));
  }
  /// `n` MTU-sized packets from `src` to `dst` in traffic class `tc`, now.
  void send(int src, int dst, int n, int tc) {
    FabricFlow& f = fabric.add_flow(
        src, dst, roce_flow(src, dst, static_cast<std::uint16_t>(49152 + src)), client);
    Message& m = *messages.acquire();
    m.id = static_cast<std::uint64_t>(src);
    for (int i = 0; i < n; ++i) {
      Packet& p = *packets.acquire();
      p.msg = &m;
      p.payload = Bytes(4096);
      p.wire =
          frame_wire_bytes(FrameKind::roce_write, FramePos::middle, p.payload, LinkLayer::roce);
      p.stamp = sched.now();
      fabric.inject(p, f, tc);
    }
  }
  struct Sender {
    int host, frames, tc;
  };
  /// Every sender's frames into h0 at once, run to the end.
  Rig& incast(std::initializer_list<Sender> senders) {
    for (const Sender& x : senders) send(x.host, 0, x.frames, x.tc);
    sched.run();
    return *this;
  }
  const PortCounters& port(const std::string& name) const {
    for (int i = 0; i < fabric.port_count(); ++i)
      if (fabric.port_name(i) == name) return fabric.counters(i);
    throw std::invalid_argument("no port " + name);
  }
  // Frames of class `tc` that reached h0 before the last frame of class `other` did.
  int before_last(std::uint8_t tc, std::uint8_t other) const {
    Time last{};
    for (const Arrival& a : client.got)
      if (a.tc == other) last = std::max(last, a.at);
    return static_cast<int>(
        std::count_if(client.got.begin(), client.got.end(),
                      [&](const Arrival& a) { return a.tc == tc && a.at < last; }));
  }
  Scheduler sched;
  Pool<Packet> packets;
  Pool<Message> messages;
  std::shared_ptr<const Topology> topo;
  Fabric fabric;
  Client client{packets, sched};
};

}  // namespace rdmasim::testing
