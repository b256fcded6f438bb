// RcConnection: moves one RC QP's work requests through simulated time — the verbs-level
// transport between this QP (side 0) and its destination QP on another host (side 1), on the
// packet-level RC transport that `rdmasim lat` and `bw` use (sim/rc_connection.hpp).
//
// A WR runs as a chain of path segments (verbs/verbs_paths.hpp), each posted the moment the
// one before delivers, so its ledger adds up exactly: post -> [local key check, gather] ->
// request -> [the responder executes, in posting order] -> ACK | NAK | response -> [retire in
// order] -> CQE. Every request travels the connection's one RC transport (one PSN space): a
// packet the fabric loses is resent go-back-N, a rate control paces it, a WRITE's or SEND's
// ACK comes back on the same path, a READ's or atomic's response acknowledges it. The
// responder executes a WRITE or SEND when its payload has landed (B.nic.reassemble), a READ
// or atomic when its request has (B.nic.request_done), strictly in posting order. Receive
// completions travel through this connection's cqe(side 1) path; an ACK carries no CQE unless
// the WR is signaled.
// Errors (the real semantics: IBA ch. 9-11, rdma-core): a bad L_Key or a local SGE outside its MR ->
// LOC_PROT_ERR, nothing sent; a NAK for a bad R_Key / range / right -> REM_ACCESS_ERR and the
// responder QP to ERR; a receive too small -> LOC_LEN_ERR there and REM_INV_REQ_ERR here. The
// transport's own errors: a responder QP that is gone or not ready drops the packets, and the
// requester resends after the ACK timeout 4.096 us x 2^timeout (0: never), retry_cnt times,
// then RETRY_EXC_ERR; a SEND or WRITE_WITH_IMM finding no free receive is RNR-NAKed and resent
// after the responder's min_rnr_timer, rnr_retry times (7: forever), then RNR_RETRY_EXC_ERR. A
// READ or atomic whose response lost a packet times out and is sent again; the responder
// answers the resend from its first execution (an atomic is never applied twice, as a
// responder's saved results guarantee).
// Not modelled: PSN wrap; a READ response does not acknowledge earlier WRITEs' lost ACKs
// beyond what it implies (every earlier PSN).
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "rdmasim/rc_stats.hpp"
#include "sim/path_runner.hpp"
#include "verbs/queue_pair.hpp"
#include "verbs/verbs_paths.hpp"

namespace rdmasim::verbs {

class World;
class CompletionQueue;

class RcConnection final : public MessageSink, public StageObserver, public RcEndpoint {
 public:
  RcConnection(World& w, QueuePair& qp, int remote_host, std::uint32_t dest_qpn, Bytes mtu);
  ~RcConnection();

  /// A WR was just posted into slot `s`: its post segment starts now.
  void start(SendSlot& s);
  /// Sends `s`'s request (first time, or after a fence).
  void send_request(SendSlot& s);
  /// A completion for `cq` on `side`'s host: its CQE write starts now; `l` is its ledger so far.
  void emit(const ibv_wc& wc, CompletionQueue& cq, const Ledger& l, int side);
  /// The QP left RTS (ERR, RESET, destroyed): the transport sends nothing more.
  void close();
  /// The transport's counters (all zero before the first request).
  RcStats stats() const;

  int remote_host() const { return remote_; }
  void delivered(Packet& token) override;
  void passed(Packet& token) override;  // a WRITE's or SEND's payload landed at the responder
  bool responder_ready() override;
  bool take_receive(Message& m) override;
  void duplicate(Message& m) override;
  void failed(QpStatus why) override;

 private:
  enum Seg : std::uint8_t { seg_post, seg_request, seg_nak, seg_response, seg_cqe };
  struct PendingWc {
    ibv_wc wc;
    CompletionQueue* cq = nullptr;
  };
  PathInstance& path(std::unique_ptr<PathInstance>& slot, const PathSpec& spec);
  Message& post_segment(PathInstance& p, SendSlot& s, Seg seg, Bytes size);
  SendSlot* slot_of(const Message& m);
  QueuePair* peer() const;
  bool ready(const QueuePair* p) const;
  void arrived(SendSlot& s, const Ledger& so_far);
  void execute(QueuePair& peer, SendSlot& s, const Ledger& so_far);
  void respond_read(SendSlot& s);
  void acked(SendSlot& s);
  void response_arrived(SendSlot& s);
  void local_checks_and_gather(SendSlot& s);

  World& w_;
  QueuePair& qp_;
  int remote_;
  std::uint32_t dest_qpn_;
  VerbsPaths paths_;
  std::unique_ptr<rdmasim::RcConnection> rc_;  // before the paths bound to it
  std::array<std::unique_ptr<PathInstance>, 2> post_;
  std::array<std::unique_ptr<PathInstance>, kRequestKinds> request_;
  std::unique_ptr<PathInstance> response_, nak_;
  std::array<std::unique_ptr<PathInstance>, 2> cqe_;
  std::vector<PendingWc> wcs_;
  std::vector<std::uint32_t> free_wcs_;
  std::uint32_t held_receives_ = 0;  // the peer's receives taken by requests not yet executed
};

}  // namespace rdmasim::verbs
