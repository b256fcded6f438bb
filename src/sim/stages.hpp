// The six stage kinds of a PathSpec, instantiated on a host's resources (see model/path.hpp
// for their meaning). Each charges exactly the time it holds a packet, so the ledger of the
// packet that completes a message sums to the message's end-to-end time.
#pragma once

#include "core/random.hpp"
#include "model/path.hpp"
#include "sim/fabric.hpp"
#include "sim/fifo_server.hpp"
#include "sim/interrupt_moderator.hpp"
#include "sim/net_transport.hpp"
#include "sim/stage.hpp"

namespace rdmasim {

class MergeStage;

/// A fixed or per-byte delay. Into a merge, a constant delay (no per-byte part, no jitter)
/// holds only the packet that completes its message: the merge counts every packet as it
/// enters the delay and releases the others at once — the same packets in the same order as
/// when each waited out the delay first, one event per message instead of one per packet.
class DelayStage final : public Stage {
 public:
  /// `rng`: where its random part is drawn from (its host's stream).
  DelayStage(SimContext& ctx, const StageSpec& spec, RandomStream& rng)
      : Stage(ctx), cat_(spec.cat), cost_(ctx.costs.intern(spec.cost)), rng_(rng), fixed_only_(cost_.rate.unlimited()),
        random_(cost_.random()) {}
  void receive(Packet& p) override;
  /// receive(p) for a packet that reaches this stage at `at` (>= now; its ledger accounted up to
  /// then): a FIFO server handing it on as its service starts (sim/fifo_server.hpp). Only for a
  /// constant delay.
  void receive_at(Packet& p, Time at);
  void on_event(std::uint64_t arg) override;
  void link(Stage* next) override;
  /// No per-byte part and no random part: every packet is held exactly cost.fixed.
  bool constant() const { return fixed_only_ && !random_; }

 private:
  [[gnu::noinline]] void traced(Packet& p);
  Category cat_;
  const Cost& cost_;  // interned (SimContext::costs)
  RandomStream& rng_;
  bool fixed_only_;  // no per-byte part: the deterministic delay is cost_.fixed for every packet
  bool random_;      // a random part to draw (Cost::random)
  Time draw();
  MergeStage* merge_ = nullptr;  // the next stage, when it is a merge and the delay constant
};

class ServeStage final : public Stage {
 public:
  /// `irqs` (optional): counts the interrupts this stage takes (host CPU accounting).
  ServeStage(SimContext& ctx, const StageSpec& spec, FifoServer& server, std::uint64_t* irqs = nullptr)
      : Stage(ctx), cat_(spec.cat), cost_(ctx.costs.intern(spec.cost)), server_(server), wire_(spec.res == ResourceKind::wire),
        irqs_(irqs) {}
  void receive(Packet& p) override;
  void link(Stage* next) override;
  /// Called by the server when p's service starts (a wire: p starts its transmission).
  void started(Packet& p);
  /// Called by the server when p's service is complete: first to charge it, then to forward.
  void charge_service(Packet& p) { charge_service(p, ctx_.sched.now()); }
  /// Charges p's service as complete at `at`.
  void charge_service(Packet& p, Time at);
  void served(Packet& p) { forward(p); }
  /// Whether the server may finish p's turn as it starts (sim/fifo_server.hpp): the next stage
  /// is a constant delay, p moves on only at the end of its service, and no interrupt is
  /// counted here.
  bool hands_on_at_start(const Packet& p) const { return then_delay_ && p.release >= p.service; }
  /// p, its service charged up to `at`, goes on to the next stage as of `at`.
  void hand_on(Packet& p, Time at) { then_delay_->receive_at(p, at); }
  void on_event(std::uint64_t) override {}

 private:
  [[gnu::noinline]] void charge_traced(Packet& p, Time at);
  Time head_extra(const Packet& p) const {
    return cost_.pays_head(p.index, p.msg->size, p.batch_head) ? cost_.head_extra : Time::zero();
  }
  Category cat_;
  const Cost& cost_;  // interned (SimContext::costs)
  FifoServer& server_;
  bool wire_;
  std::uint64_t* irqs_;
  DelayStage* then_delay_ = nullptr;  // the next stage, when it is a constant delay (see hands_on_at_start)
};

/// The message token becomes its packets. Without a window all of them at once; with one,
/// messages are cut in order and a packet is emitted only while the frames emitted but not yet
/// started on the wire stay within the window (at least one is always allowed); a packet that
/// waited for the window charges the wait to `queue`.
class SplitStage final : public Stage, public TxPacer {
 public:
  SplitStage(SimContext& ctx, const StageSpec& spec) : Stage(ctx), split_(spec.split), side_(spec.side) {}
  void receive(Packet& token) override;
  void transmitting(const Packet& p) override;
  void on_event(std::uint64_t) override {}

 private:
  Bytes payload_of(const Message& m, std::int32_t i) const;
  void set_up(Packet& p, const Message& m, std::int32_t i, std::int32_t n, Bytes wire) const;
  void pump();
  /// For a capture: the frames' kind, destination QP, PSNs and MSN (sim/wire_tap.hpp).
  void stamp_wire(Message& m, const Route& r, std::int32_t n);

  SplitSpec split_;
  int side_;
  std::uint32_t next_psn_ = 0, msn_ = 0;  // this QP direction's counters (captures only)
  // Windowed: messages waiting to be cut (tokens, FIFO) and the one being cut.
  Packet* waiting_head_ = nullptr;
  Packet* waiting_tail_ = nullptr;
  Packet* current_ = nullptr;  // token of the message being cut (its ledger at the split)
  std::int32_t next_ = 0, count_ = 0;
  std::int64_t in_flight_ = 0;
};

class MergeStage final : public Stage {
 public:
  explicit MergeStage(SimContext& ctx) : Stage(ctx) {}
  void receive(Packet& p) override {
    if (count(p)) complete(p);
  }
  void on_event(std::uint64_t) override {}
  /// Counts `p` towards its message: false when more are due (p is released), true when it is
  /// the message's last.
  bool count(Packet& p);
  /// `p`, counted last, continues as its message's token.
  void complete(Packet& p);
};

/// The switched fabric between the NICs: the packet crosses the packet-level Fabric and
/// continues on its route when it reaches the destination host's NIC. Bound to a transport
/// (sim/net_transport.hpp: the data direction or the ACK direction of an RC path, or a TCP
/// connection's), the stage hands its packets to it, which resends what the fabric loses. Unbound
/// (one-way paths), a packet the fabric drops is counted and returned to the pool: its
/// message never completes.
class NetworkStage final : public Stage, public FabricClient {
 public:
  using Role = NetRole;
  NetworkStage(SimContext& ctx, Fabric& fabric, const NetworkSpec& spec)
      : Stage(ctx), flow_(fabric.add_flow(spec.src, spec.dst, spec.key, *this)), fabric_(fabric) {}
  void bind(NetTransport& rc, Role role) {
    rc_ = &rc;
    role_ = role;
  }
  void receive(Packet& p) override {
    if (!rc_) return inject(p);
    if (role_ != Role::rc_ack) rc_->send(p);
    else rc_->send_ack(p);
  }
  void arrived(Packet& p) override {
    if (!rc_) return forward(p);
    if (role_ != Role::rc_ack) rc_->data_arrived(p);
    else rc_->ack_arrived(p);
  }
  void dropped(Packet& p) override {
    if (!rc_) return ctx_.packets.release(&p);
    if (role_ != Role::rc_ack) rc_->data_dropped(p);
    else rc_->ack_dropped(p);
  }
  void on_event(std::uint64_t) override {}
  /// The packet enters the fabric now (tc < 0: the data traffic class).
  void inject(Packet& p, int tc = -1) { fabric_.inject(p, flow_, tc); }
  /// The packet continues on its route after this stage.
  void deliver(Packet& p) { forward(p); }
  const FabricFlow& flow() const { return flow_; }
  /// Its packets' traffic class (0..7) where the sender names none (default: the data class).
  void set_traffic_class(int tc) { flow_.tc = tc; }
  /// None of its packets is queued or in flight in the fabric.
  bool flow_idle() const { return !flow_.head && in_flight() == 0; }
  /// Its packets injected but neither delivered nor dropped (over ranks: this rank's share,
  /// which alone may be negative).
  std::int64_t in_flight() const {
    return static_cast<std::int64_t>(flow_.injected) - static_cast<std::int64_t>(flow_.delivered + flow_.dropped);
  }
  bool flow_queued() const { return flow_.head != nullptr; }
  /// Gives its fabric flow back (flow_idle(); Fabric::release_flow): the stage must not be used
  /// again. `counted_over_ranks`: see Fabric::release_flow.
  void release_flow(bool counted_over_ranks = false) { fabric_.release_flow(flow_, counted_over_ranks); }
  /// Its packets that have a route follow `r` (a frame crossing to another rank is given it
  /// again there).
  void set_route(const Route& r) { Fabric::set_route(flow_, r); }
  /// The switches report this stage's packets' egresses to `sink`.
  void stamp_telemetry(TelemetrySink& sink) { fabric_.stamp_telemetry(flow_, sink); }

 private:
  FabricFlow& flow_;
  Fabric& fabric_;
  NetTransport* rc_ = nullptr;
  Role role_ = Role::plain;
};

class ModerateStage final : public Stage {
 public:
  ModerateStage(SimContext& ctx, const StageSpec& spec, InterruptModerator& m)
      : Stage(ctx), spec_(spec.moderation), moderator_(m) {}
  void receive(Packet& p) override { moderator_.arrive(p, *this, spec_.usecs, spec_.frames, spec_.adaptive); }
  void release(Packet& p) { forward(p); }
  void on_event(std::uint64_t) override {}

 private:
  ModerationSpec spec_;
  InterruptModerator& moderator_;
};

}  // namespace rdmasim
