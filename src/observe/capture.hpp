// Capture: the simulated frames that start transmission on chosen wires or fabric ports,
// written as pcapng (observe/pcap_writer.hpp) with simulated nanosecond timestamps, one interface
// per wire or port. It is the simulation's WireTap (sim/wire_tap.hpp).
//
// Frames are rebuilt from the packet and its message's wire identity (stamped by the split
// stages while a tap is attached): opcode from the frame kind and position; PSN = the QP
// direction's packet counter mod 2^24 (an ACK carries the PSN of the last packet it
// acknowledges); DestQP kFirstQpn + 2 x connection (+1 for the responder); AckReq on the last
// packet of a request and every rc.ack_every-th of a WRITE or SEND (Options::ack_every); RETH (remote VA, R_Key, DMA length = message size) on WRITE First/Only;
// AETH with the message's MSN on ACKs and READ responses; IPv4 ECN CE (IB: FECN) from
// Packet::ce; addresses from host indices (host A = 0, host B = 1 back to back). PFC frames a
// switch port sends (Fabric::send_flow_control) are 802.1Qbb MAC control frames: XOFF with
// pause time 0xFFFF, XON with 0 (the model's pause holds until XON), from the MAC 02:00 + 0x01000000
// + port id. A PFC frame is stamped when it leaves (after the frame the port is sending), and
// held back until then so the file stays in time order. InfiniBand frames go on LINKTYPE_USER0
// interfaces (see pcap_writer.hpp for the tshark option that decodes them).
// At most `max_frames` frames are written; later ones are counted in `frames_dropped()`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "observe/pcap_writer.hpp"
#include "rdmasim/latency.hpp"
#include "sim/wire_tap.hpp"

namespace rdmasim {

class Fabric;

class Capture final : public WireTap {
 public:
  struct Options {
    LinkLayer layer = LinkLayer::roce;
    std::uint32_t tcp_mss = 1448;
    std::uint16_t udp_sport = 49152;  // back to back (a fabric flow has its own)
    int ack_every = 0;                // RcParams::ack_interval(): request packets that carry AckReq besides a message's last
    std::int64_t max_frames = 100000;
  };
  Capture(PcapWriter& out, Options o);

  /// Captures the frames starting on a host's wire, from host `src` to host `dst`.
  void add_wire(const FifoServer& wire, const std::string& name, int src, int dst);
  /// Captures fabric port `port` (set `fabric` first).
  void add_port(const Fabric& fabric, int port);
  /// The port named `name` ("edge0.0->h1"); std::invalid_argument listing some valid names.
  static int find_port(const Fabric& fabric, const std::string& name);
  /// Writes the PFC frames still held back.
  void finish();

  std::uint64_t frames_written() const { return out_.frames_written(); }
  std::uint64_t frames_dropped() const { return dropped_; }

  void wire_start(const FifoServer& wire, const Packet& p, Time now) override;
  void port_start(int port, const Packet& p, Time now) override;
  void pfc_start(int port, std::uint8_t tc, bool xoff, Time at) override;

 private:
  struct Wire {
    const FifoServer* server;
    std::uint32_t iface;
    int src, dst;
  };
  void write(std::uint32_t iface, const CapturedFrame& f);
  void flush_until(Time t);
  void fill(CapturedFrame& f, const Packet& p, Time now, int src, int dst, std::uint16_t sport) const;

  PcapWriter& out_;
  Options opt_;
  std::vector<Wire> wires_;
  std::vector<std::int32_t> port_iface_;  // -1: not captured
  std::vector<std::pair<std::uint32_t, CapturedFrame>> held_;  // PFC frames not yet started, by time
  std::uint64_t dropped_ = 0;
};

}  // namespace rdmasim
