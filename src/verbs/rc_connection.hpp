// RcConnection: moves one RC QP's work requests through simulated time — the verbs-level
// transport between this QP (side 0) and its destination QP on another host (side 1).
//
// A WR runs as a chain of path segments (verbs/verbs_paths.hpp), each posted the moment the
// one before delivers, so its ledger adds up exactly: post -> [local key check, gather] ->
// request -> [the responder executes, in posting order] -> ACK | NAK | response -> [retire in
// order] -> CQE. The responder's receive completions travel through this connection's
// cqe(side 1) path; ACKs carry no CQE unless the WR is signaled.
// Errors (the real semantics, REFERENCE.md §6): a bad L_Key or a local SGE outside its MR ->
// LOC_PROT_ERR, nothing sent; a NAK for a bad R_Key / range / right -> REM_ACCESS_ERR and the
// responder QP to ERR; a receive too small -> LOC_LEN_ERR there and REM_INV_REQ_ERR here; an
// RNR NAK -> retry after the responder's min_rnr_timer, rnr_retry times (7: forever), then
// RNR_RETRY_EXC_ERR; a request the responder drops (QP gone, not ready, in ERR) -> resent after
// the ACK timeout 4.096 us x 2^timeout, retry_cnt times, then RETRY_EXC_ERR. Timers run in
// simulated time on the scheduler. Requests that arrive while an earlier one waits (RNR) are
// held and executed in order after it (the model does not resend them, go-back-N style).
// Not modelled here: packet loss (the fabric is lossless for verbs traffic), PSN wrap.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "sim/path_runner.hpp"
#include "verbs/queue_pair.hpp"
#include "verbs/verbs_paths.hpp"

namespace rdmasim::verbs {

class World;
class CompletionQueue;

class RcConnection final : public MessageSink, public EventHandler {
 public:
  RcConnection(World& w, QueuePair& qp, int remote_host, std::uint32_t dest_qpn, Bytes mtu);
  ~RcConnection();

  /// A WR was just posted into slot `s`: its post segment starts now.
  void start(SendSlot& s);
  /// Sends `s`'s request (first time, after a fence, or again after an RNR NAK / timeout).
  void send_request(SendSlot& s);
  /// A completion for `cq` on `side`'s host: its CQE write starts now; `l` is its ledger so far.
  void emit(const ibv_wc& wc, CompletionQueue& cq, const Ledger& l, int side);

  int remote_host() const { return remote_; }
  void delivered(Packet& token) override;
  void on_event(std::uint64_t arg) override;

 private:
  enum Seg : std::uint8_t { seg_post, seg_request, seg_ack, seg_response, seg_cqe };
  struct PendingWc {
    ibv_wc wc;
    CompletionQueue* cq = nullptr;
  };
  PathInstance& path(std::unique_ptr<PathInstance>& slot, const PathSpec& spec);
  void post_segment(PathInstance& p, SendSlot& s, Seg seg, Bytes size);
  QueuePair* peer() const;
  void arrived(SendSlot& s);
  void execute(QueuePair& peer, SendSlot& s);
  void nak_arrived(SendSlot& s);
  void response_arrived(SendSlot& s);
  void local_checks_and_gather(SendSlot& s);
  void schedule_retry(SendSlot& s, Time at, std::uint64_t kind);

  World& w_;
  QueuePair& qp_;
  int remote_;
  std::uint32_t dest_qpn_;
  VerbsPaths paths_;
  std::array<std::unique_ptr<PathInstance>, 2> post_;
  std::array<std::unique_ptr<PathInstance>, kRequestKinds> request_;
  std::unique_ptr<PathInstance> response_, ack_;
  std::array<std::unique_ptr<PathInstance>, 2> cqe_;
  std::vector<PendingWc> wcs_;
  std::vector<std::uint32_t> free_wcs_;
};

}  // namespace rdmasim::verbs
