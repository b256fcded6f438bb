// QueuePair: an RC QP as the application sees it — its state, attributes, send and receive
// queues — and the in-order completion of its work requests.
//
// The send queue is a ring of max_send_wr slots; a slot holds a copy of the posted WR (its
// SGEs, remote address, key, immediate, atomic operands, inline bytes) and its progress
// through the transport (RcConnection). Slots retire strictly in posting order: a WR that
// finished early waits for the ones before it, then completes; a signaled WR (or every WR
// with sq_sig_all) produces a work completion, an error produces one whether signaled or
// not. When a WR completes in error the QP moves to ERR and every outstanding WR — signaled
// or not, posted before or after — completes with WR_FLUSH_ERR in order, as do the posted
// receives (IBA 10.7.3.1). Each slot has a generation, bumped when it is freed, so the
// transport's in-flight pieces of a flushed WR are recognised and ignored.
// Posting rules (man ibv_post_send / ibv_post_recv): send needs RTS (ERR accepts and
// flushes), receive needs INIT or later; EINVAL for a bad WR, ENOMEM when the queue is full.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "net/packet.hpp"
#include "rdmasim/verbs.hpp"

namespace rdmasim::verbs {

class Device;
class RcConnection;
class CompletionQueue;

inline constexpr int kMaxSge = 16;
inline constexpr std::uint32_t kMaxInline = 1024;
inline constexpr std::uint32_t kMaxQueueDepth = 16384;
inline constexpr std::uint64_t kMaxMessage = std::uint64_t{1} << 30;  // max_msg_sz

struct Pd : ibv_pd {
  bool alive = true;
  int users = 0;  // QPs
};

// A responder's answer to a request other than an ACK (gone: the responder QP disappeared after
// the transport had accepted the request).
enum class Nak : std::uint8_t { none, rnr, access, invalid, op, gone };

struct SendSlot {
  // The posted work request.
  std::uint64_t wr_id = 0;
  ibv_wr_opcode opcode = IBV_WR_SEND;
  unsigned flags = 0;
  std::uint32_t imm = 0;
  std::array<ibv_sge, kMaxSge> sge{};
  int num_sge = 0;
  std::uint64_t remote_addr = 0, compare_add = 0, swap = 0;
  std::uint32_t rkey = 0;
  std::uint64_t length = 0;        // sum of the SGE lengths
  std::vector<std::uint8_t> data;  // payload (inline: copied at post; else when the NIC reads it);
                                   // READ/atomic: the response data
  // Progress.
  std::uint32_t gen = 0;
  std::uint64_t seq = 0;           // position in the QP's request stream
  bool busy = false;               // holds a WR
  bool done = false;
  bool arrived = false;            // request at the responder, waiting for its turn
  bool executed = false;           // the responder executed it (a resend is answered, not redone)
  bool fence_wait = false;         // FENCE: waiting for earlier READs/atomics
  ibv_wc_status status = IBV_WC_SUCCESS;
  Nak nak = Nak::none;
  std::uint8_t attempt = 0;        // READ/atomic: which response counts (a resend's answer supersedes)
  std::uint8_t responses = 0;      // READ/atomic: responses sent
  std::uint32_t rc_psn = 0;        // the PSN of its request's last packet (what a response acknowledges)
  Message* request = nullptr;      // READ/atomic: its request (held by the transport until answered)
  Ledger ledger;                   // from the post up to `stamp`
  Ledger far;                      // at the responder: its ledger on arrival there (at `far_at`)
  Time posted{}, stamp{}, far_at{};
};

struct RecvSlot {
  std::uint64_t wr_id = 0;
  std::array<ibv_sge, kMaxSge> sge{};
  int num_sge = 0;
  Time posted{};
};

class QueuePair : public ibv_qp {
 public:
  QueuePair(Device& dev, Pd& pd, const ibv_qp_init_attr& a, std::uint32_t qpn);
  ~QueuePair();

  int modify(const ibv_qp_attr& attr, int mask);
  int query(ibv_qp_attr* attr, ibv_qp_init_attr* init) const;
  int post_send(ibv_send_wr* wr, ibv_send_wr** bad);
  int post_recv(ibv_recv_wr* wr, ibv_recv_wr** bad);
  int destroy();

  // ---- for the transport ----
  Device& device() const { return dev_; }
  const ibv_qp_attr& attr() const { return attr_; }
  const ibv_qp_init_attr& init() const { return init_; }
  bool alive() const { return alive_; }
  RcConnection* connection() const { return conn_; }
  /// The outstanding slot carrying request `seq`, or nullptr.
  SendSlot* slot_with_seq(std::uint64_t seq);
  SendSlot& slot(std::uint32_t index) { return sq_[index]; }
  std::uint32_t index_of(const SendSlot& s) const { return static_cast<std::uint32_t>(&s - sq_.data()); }
  /// Marks `s` finished with `status` and retires what can retire.
  void finish(SendSlot& s, ibv_wc_status status);
  /// The QP moves to ERR: outstanding WRs and posted receives are flushed.
  void to_error();
  /// The oldest posted receive, or nullptr; pop_recv consumes it.
  RecvSlot* front_recv() { return rq_count_ ? &rq_[rq_head_] : nullptr; }
  void pop_recv();
  /// Responder: posted receives that requests in flight have taken already (RcConnection).
  std::uint32_t receives_held = 0;
  std::uint32_t receives_free() const { return rq_count_ - std::min(rq_count_, receives_held); }
  /// The oldest WR not finished yet, or nullptr.
  SendSlot* oldest_pending();
  /// Responder: the next request sequence number it will execute.
  std::uint64_t expected_seq = 0;
  /// Outstanding WRs before `s` that are READs or atomics (what a FENCE waits for).
  bool reads_before(const SendSlot& s) const;
  /// Whether `s` must wait before its request goes out: it is fenced behind an outstanding
  /// READ/atomic, or an earlier WR is waiting (the send queue is processed in order).
  bool fence_blocks(const SendSlot& s) const;
  /// Starts fenced WRs whose earlier READs/atomics have completed.
  void release_fenced();

 private:
  int post_one_send(const ibv_send_wr& wr);
  void retire();
  void emit(const ibv_wc& wc, CompletionQueue& cq, const Ledger& l);
  void free_slot(SendSlot& s);
  void reset_queues();

  Device& dev_;
  ibv_qp_init_attr init_;
  ibv_qp_attr attr_{};
  bool alive_ = true;
  std::vector<SendSlot> sq_;
  std::uint32_t sq_head_ = 0, sq_count_ = 0;
  std::vector<RecvSlot> rq_;
  std::uint32_t rq_head_ = 0, rq_count_ = 0;
  std::uint64_t next_seq_ = 0;
  bool retiring_ = false;
  RcConnection* conn_ = nullptr;                       // the current connection (from RTR)
  std::vector<std::unique_ptr<RcConnection>> conns_;   // every connection ever made: in-flight
                                                       // pieces of old ones must find their stages
};

}  // namespace rdmasim::verbs
