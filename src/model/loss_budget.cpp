#include "model/loss_budget.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "model/budget.hpp"
#include "model/path.hpp"
#include "path/fabric_route.hpp"
#include "net/wire_format.hpp"

namespace rdmasim {
namespace {

/// The NIC's transmit pipeline: the unloaded time of one packet from the split (where the
/// transmit window starts) to the start of its transmission on the wire.
Time split_to_wire(const LatConfig& c, const NetworkAppender& net) {
  LatConfig one = c;
  one.size = c.mtu;
  const PathSpec path = flatten_network(build_acked_path(one, resolve(one), net));
  std::vector<CriticalStep> steps;
  evaluate_path(path, one.size, false, steps);
  int split = -1, wire = -1;
  for (std::size_t i = 0; i < path.stages.size(); ++i) {
    const StageSpec& s = path.stages[i];
    if (split < 0 && s.kind == StageKind::split) split = static_cast<int>(i);
    if (split >= 0 && wire < 0 && s.res == ResourceKind::wire) wire = static_cast<int>(i);
  }
  Time d{};
  for (const CriticalStep& s : steps)
    if (s.stage > split && s.stage < wire) d += s.time;
  return d;
}

}  // namespace

GbnEstimate estimate_go_back_n(const LatConfig& c, double p) {
  if (c.topology != LatTopology::fabric) throw std::invalid_argument("--loss: needs a switched --topology");
  if (c.transport != Transport::rdma || c.test == TestKind::read)
    throw std::invalid_argument("--loss: the go-back-N estimate is for RDMA WRITE/SEND streams");
  if (!(p >= 0 && p < 1)) throw std::invalid_argument("--loss: expected a probability in [0, 1)");
  if (c.size < c.mtu)
    throw std::invalid_argument("--loss: the go-back-N estimate is for a stream that keeps the wire busy: "
                                "use -s of at least the MTU (bw's default is 65536)");
  if (c.profile.rc.ooo_placement)
    throw std::invalid_argument("--loss: the go-back-N estimate assumes rc.ooo_placement=off");
  const FabricNetwork fabric(c);
  const FabricRoute& fwd = *fabric.forward;
  const FabricRoute& rev = *fabric.reverse;
  GbnEstimate e;
  e.loss = p;
  e.cables = fwd.cables();
  e.packet_loss = 1 - std::pow(1 - p, e.cables);
  e.nak_loss = 1 - std::pow(1 - p, rev.cables());

  const FrameKind fk = c.test == TestKind::send ? FrameKind::roce_send : FrameKind::roce_write;
  const std::int64_t packets = packet_count(c.size, c.mtu);
  const Bytes wire = message_wire_bytes(fk, c.size, c.mtu, c.link_layer);
  Rate bottleneck = c.profile.link.rate;
  for (int cable : fabric.forward_path.cables)
    bottleneck = std::min(bottleneck, fabric.topology->cables()[static_cast<std::size_t>(cable)].rate);
  const double t_pkt = static_cast<double>(serialization_time(wire, bottleneck).count_ps()) / static_cast<double>(packets);
  e.packet_time = Time::ps(std::llround(t_pkt));
  const Bytes full = frame_wire_bytes(fk, packets > 1 ? FramePos::middle : FramePos::only,
                                      std::min(c.size, c.mtu), c.link_layer);
  e.data_one_way = fwd.unloaded(full, 0);
  e.nak_one_way = rev.unloaded(frame_wire_bytes(FrameKind::roce_ack, FramePos::only, Bytes(0), c.link_layer), 1);
  e.nic_pipeline = split_to_wire(c, fabric.appender());
  const Bytes window = c.profile.nic.tx_window.count() > 0 ? c.profile.nic.tx_window : Bytes(wire.count() * 128);
  e.window_frames = std::max<std::int64_t>(1, window.count() / full.count());

  // Packet k starts at 0, its successor at t_pkt; the NAK reaches the requester at t_nak. The
  // frames ahead of the resend are those the split released (W frames ahead of the wire) and
  // the NIC pipeline delivered to the port by then; each leaves at a slot boundary.
  const double t_nak = t_pkt + static_cast<double>((e.data_one_way + e.nak_one_way).count_ps());
  const auto last = static_cast<std::int64_t>(
      std::floor((t_nak - static_cast<double>(e.nic_pipeline.count_ps())) / t_pkt)) + e.window_frames;
  e.resent_per_nak = std::max<std::int64_t>(last + 1, static_cast<std::int64_t>(std::ceil(t_nak / t_pkt)));
  const double c_gbn = static_cast<double>(e.resent_per_nak) * t_pkt;
  e.go_back_cost = Time::ps(std::llround(c_gbn));
  // A loss among resends: one resend at a time sits in the NIC, so only the frames started
  // until the NAK, the one handed over, and the superseded slot are wasted.
  e.resent_in_block_cost = Time::ps(std::llround((std::ceil(t_nak / t_pkt) + 1) * t_pkt));
  e.timeout = Time::ps(4'096'000LL << c.profile.rc.timeout);
  const double t = static_cast<double>(e.timeout.count_ps());
  e.timeout_cost = Time::ps(std::llround(t + c_gbn));

  const double q = e.packet_loss, qn = e.nak_loss;
  // PSNs recovered in blocks: per loss in the stream, the R_s - 1 frames after it (NAK) or the
  // frames sent until the timeout (lost NAK).
  const double block = (1 - qn) * static_cast<double>(e.resent_per_nak - 1) + qn * (t + c_gbn) / t_pkt;
  e.in_block_share = q * block / (1 + q * block);
  const double c_wire = (1 - e.in_block_share) * c_gbn +
                        e.in_block_share * static_cast<double>(e.resent_in_block_cost.count_ps());
  e.wire_cost_per_loss_ps = c_wire;
  e.timeouts_per_loss = qn + q / (1 - q);
  e.cost_per_loss_ps = c_wire + e.timeouts_per_loss * t;
  const double payload_bits = static_cast<double>(c.size.count()) * 8.0 / static_cast<double>(packets);
  e.payload_bits = payload_bits;
  e.ideal_bps = payload_bits / (t_pkt / 1e12);
  e.goodput_bps = payload_bits / ((t_pkt + q * e.cost_per_loss_ps) / 1e12);
  e.efficiency = e.goodput_bps / e.ideal_bps;
  return e;
}

double GbnEstimate::goodput_given(double timeouts, double packets) const {
  if (packets <= 0) return goodput_bps;
  const double per_packet = static_cast<double>(packet_time.count_ps()) + packet_loss * wire_cost_per_loss_ps +
                            timeouts / packets * static_cast<double>(timeout.count_ps());
  return payload_bits / (per_packet / 1e12);
}

TcpLossEstimate estimate_tcp_under_loss(const LatConfig& c, double p) {
  if (c.topology != LatTopology::fabric) throw std::invalid_argument("--loss: needs a switched --topology");
  const FabricNetwork fabric(c);
  LatConfig tcp = c;
  tcp.transport = Transport::tcp;
  tcp.test = TestKind::send;
  tcp.topology = LatTopology::back_to_back;
  tcp.size = c.profile.tcp.mss;
  tcp.iters = 1000;
  tcp.toggles = Toggles{};
  const Bytes seg = frame_wire_bytes(FrameKind::tcp_segment, FramePos::only, c.profile.tcp.mss, LinkLayer::roce);
  const Bytes ack = frame_wire_bytes(FrameKind::tcp_segment, FramePos::only, Bytes(0), LinkLayer::roce);
  TcpLossEstimate e;
  e.segment_loss = 1 - std::pow(1 - p, fabric.forward->cables());
  e.rtt = run_budget(tcp).rtt.total() + fabric.forward->unloaded(seg, 0) + fabric.reverse->unloaded(ack, 1);
  const double mss_bits = static_cast<double>(c.profile.tcp.mss.count()) * 8.0;
  e.line_bps = static_cast<double>(c.profile.link.rate.bits_per_sec()) * static_cast<double>(c.profile.tcp.mss.count()) /
               static_cast<double>(seg.count());
  e.goodput_bps = e.line_bps;
  if (e.segment_loss > 0)
    e.goodput_bps = std::min(e.line_bps, mss_bits / (static_cast<double>(e.rtt.count_ps()) / 1e12) *
                                             std::sqrt(1.5 / e.segment_loss));
  return e;
}

}  // namespace rdmasim
