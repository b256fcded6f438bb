// The pcapng export: the frames starting on a wire or fabric port, with per-flow PSNs in order,
// one frame per transmitted packet (the port's tx_packets) and PFC frames as MAC control.
#include "observe/capture.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "pcapng_reader.hpp"
#include "rdmasim/exports.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/traffic.hpp"

using namespace rdmasim;
using namespace rdmasim::testing;
namespace fs = std::filesystem;

namespace {

fs::path temp_file(const std::string& name) {
  return fs::path(::testing::TempDir()) / ("rdmasim_" + std::to_string(::getpid()) + "_" + name);
}

TrafficConfig fat_tree_pattern(const std::string& pat, int senders = 8) {
  TrafficConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.fabric.k = 4;
  c.base.size = Bytes(16384);  // 4 packets
  c.base.iters = 10;
  c.pattern = pat;
  c.incast_senders = senders;
  c.tx_depth = 4;
  return c;
}

// Runs `c` with a capture of `ports` (none: the client's NIC port both ways) and parses it.
Pcapng capture_traffic(const TrafficConfig& c, const std::vector<std::string>& ports, TrafficResult* r = nullptr,
                       std::int64_t max_frames = 100000, ExportStats* stats = nullptr) {
  const fs::path p = temp_file("traffic.pcapng");
  ExportOptions o;
  o.pcap_path = p.string();
  o.pcap_ports = ports;
  o.pcap_frames = max_frames;
  Exports x(o);
  const TrafficResult res = run_traffic(c, &x);
  x.publish();
  if (r) *r = res;
  if (stats) *stats = x.stats;
  Pcapng cap = parse_pcapng(read_bytes(p));
  fs::remove(p);
  return cap;
}

bool is_pfc(const PcapngPacket& f) { return be16(f.data, 12) == kEtherTypeMacControl; }

// Every interface: one frame per frame its port transmitted and one PFC frame per pause sent;
// frames in time order; each flow's data PSNs 0, 1, 2, ... and its ACKs the last PSN of a message.
void check(const Pcapng& cap, const TrafficResult& r, std::int32_t packets_per_message) {
  std::map<std::string, const PortStats*> ports;
  for (const PortStats& s : r.fabric.ports) ports[s.port] = &s;
  std::vector<std::uint64_t> data(cap.interfaces.size()), pfc(cap.interfaces.size());
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> next_psn;  // (iface, dest QP)
  std::uint64_t last_ns = 0;
  for (const PcapngPacket& f : cap.packets) {
    EXPECT_GE(f.ns, last_ns);
    last_ns = f.ns;
    if (is_pfc(f)) {
      ++pfc[f.iface];
      EXPECT_EQ(be16(f.data, 14), kPfcOpcode);
      EXPECT_EQ(be16(f.data, 16), 1u << 3);  // class 3, switch.data_tc
      const std::uint32_t quanta = be16(f.data, 18 + 2 * 3);
      EXPECT_TRUE(quanta == 0xFFFF || quanta == 0);
      continue;
    }
    ++data[f.iface];
    const std::uint32_t op = f.data.at(42), qp = be24(f.data, 47), psn = be24(f.data, 51);
    std::uint32_t& want = next_psn[{f.iface, qp}];
    if (op == 0x11) {  // ACK: the last PSN of the message it acknowledges
      EXPECT_EQ((psn + 1) % static_cast<std::uint32_t>(packets_per_message), 0u) << "ACK psn " << psn;
      continue;
    }
    EXPECT_EQ(psn, want) << "interface " << cap.interfaces[f.iface].name << " QP " << qp;
    want = psn + 1;
  }
  for (std::size_t i = 0; i < cap.interfaces.size(); ++i) {
    const auto it = ports.find(cap.interfaces[i].name);
    const std::uint64_t tx = it == ports.end() ? 0 : it->second->tx_packets;
    const std::uint64_t pauses = it == ports.end() ? 0 : it->second->pause_tx;
    EXPECT_EQ(data[i], tx) << cap.interfaces[i].name;
    EXPECT_EQ(pfc[i], pauses) << cap.interfaces[i].name;
  }
}

}  // namespace

TEST(Capture, ClientPortBothWaysByDefault) {
  TrafficResult r;
  const Pcapng cap = capture_traffic(fat_tree_pattern("permutation"), {}, &r);
  ASSERT_EQ(cap.interfaces.size(), 2u);
  EXPECT_EQ(cap.interfaces[0].name, "h0->edge0.0");
  EXPECT_EQ(cap.interfaces[1].name, "edge0.0->h0");
  EXPECT_EQ(cap.interfaces[0].linktype, kLinktypeEthernet);
  check(cap, r, 4);
  // h0's own flow: 10 messages of 4 WRITE frames (First, Middle, Middle, Last), RETH on First.
  std::vector<std::uint32_t> ops;
  for (const PcapngPacket& f : cap.packets)
    if (f.iface == 0 && be24(f.data, 47) == kFirstQpn + 1) ops.push_back(f.data.at(42));
  ASSERT_EQ(ops.size(), 40u);
  for (std::size_t i = 0; i < ops.size(); ++i) EXPECT_EQ(ops[i], (std::vector<std::uint32_t>{6, 7, 7, 8})[i % 4]);
}

// ECMP: on any port, every flow passing it shows its data PSNs in order; the frame counts are
// the port counters, PFC frames included (an incast makes the switches pause).
TEST(Capture, BusiestPortsMatchTheirCounters) {
  for (const std::string pat : {"permutation", "incast"}) {
    const TrafficConfig c = fat_tree_pattern(pat);
    TrafficResult plain = run_traffic(c);
    std::sort(plain.fabric.ports.begin(), plain.fabric.ports.end(),
              [](const PortStats& a, const PortStats& b) { return a.tx_packets + a.pause_tx > b.tx_packets + b.pause_tx; });
    std::vector<std::string> names;
    bool pauses = false;
    for (std::size_t i = 0; i < 6 && i < plain.fabric.ports.size(); ++i) names.push_back(plain.fabric.ports[i].port);
    for (const PortStats& s : plain.fabric.ports)
      if (s.pause_tx > 0 && names.size() < 8) {
        pauses = true;
        if (std::find(names.begin(), names.end(), s.port) == names.end()) names.push_back(s.port);
      }
    TrafficResult r;
    const Pcapng cap = capture_traffic(c, names, &r);
    ASSERT_EQ(cap.interfaces.size(), names.size());
    check(cap, r, 4);
    EXPECT_EQ(pauses, pat == "incast");
  }
}

TEST(Capture, BackToBackWires) {
  const fs::path p = temp_file("b2b.pcapng");
  ExportOptions o;
  o.pcap_path = p.string();
  Exports x(o);
  LatConfig c;
  c.iters = 10;
  run_latency(c, &x);
  x.publish();
  const Pcapng cap = parse_pcapng(read_bytes(p));
  fs::remove(p);
  ASSERT_EQ(cap.interfaces.size(), 2u);
  EXPECT_EQ(cap.interfaces[0].name, "host A wire");
  std::uint32_t psn[2] = {0, 0};
  for (const PcapngPacket& f : cap.packets) {
    EXPECT_EQ(f.data.at(42), 0x0A);  // RDMA WRITE Only
    EXPECT_EQ(be32(f.data, 26), 0x0A000001u + f.iface);  // from host A (10.0.0.1) or B
    EXPECT_EQ(be24(f.data, 47), f.iface == 0 ? 0x12u : 0x11u);
    EXPECT_EQ(f.data.at(50), 0x80);                  // AckReq on the last packet
    EXPECT_EQ(be24(f.data, 51), psn[f.iface]++);
    EXPECT_EQ(be32(f.data, 66), 2u);                 // RETH DMA length: the message
  }
  EXPECT_EQ(psn[0], 9u);
  EXPECT_EQ(psn[1], 9u);
}

TEST(Capture, InfinibandOnUser0) {
  const fs::path p = temp_file("ib.pcapng");
  ExportOptions o;
  o.pcap_path = p.string();
  Exports x(o);
  LatConfig c;
  c.iters = 5;
  c.link_layer = LinkLayer::ib;
  c.test = TestKind::send;
  run_latency(c, &x);
  x.publish();
  const Pcapng cap = parse_pcapng(read_bytes(p));
  fs::remove(p);
  ASSERT_EQ(cap.interfaces.size(), 2u);
  EXPECT_EQ(cap.interfaces[0].linktype, kLinktypeUser0);
  ASSERT_EQ(cap.packets.size(), 8u);
  EXPECT_EQ(cap.packets[0].data.at(8), 0x04);  // SEND Only after the 8-byte LRH
}

TEST(Capture, UnknownPortListsValidOnes) {
  try {
    capture_traffic(fat_tree_pattern("permutation"), {"edge9.9->h0"});
    FAIL() << "expected an exception";
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("\"edge9.9->h0\""), std::string::npos) << m;
    EXPECT_NE(m.find("h0->edge0.0"), std::string::npos) << m;
  }
}

TEST(Capture, FrameLimitAndDeterminism) {
  ExportStats s;
  const Pcapng few = capture_traffic(fat_tree_pattern("permutation"), {}, nullptr, 5, &s);
  EXPECT_EQ(few.packets.size(), 5u);
  EXPECT_EQ(s.frames_captured, 5u);
  EXPECT_GT(s.frames_dropped, 0u);
  const Pcapng a = capture_traffic(fat_tree_pattern("incast"), {"edge0.1->h2"});
  const Pcapng b = capture_traffic(fat_tree_pattern("incast"), {"edge0.1->h2"});
  ASSERT_EQ(a.packets.size(), b.packets.size());
  for (std::size_t i = 0; i < a.packets.size(); ++i) {
    EXPECT_EQ(a.packets[i].ns, b.packets[i].ns);
    EXPECT_EQ(a.packets[i].data, b.packets[i].data);
  }
}
