// VerbsPaths: the data path of each piece of a verbs operation, as PathSpecs built from the
// same component models `rdmasim lat` uses (host/nic, host/pcie, net/link or the fabric).
//
// A verbs operation runs as a chain of segments, each ending where the verbs layer has to
// decide something (check keys, execute at the responder, generate a CQE); the transport
// posts the next segment the moment the previous one delivers, so the segments' ledgers add
// up to the operation's end-to-end time. Side 0 is the requester's host, side 1 the
// responder's. Segments:
//   post      post_send on the CPU, doorbell (or BlueFlame WQE), WQE fetch   (side 0)
//   request   NIC send pipeline, packets, network, far NIC, payload DMA write (0 -> 1)
//             and, for WRITE and SEND, the responder's ACK (or NAK) back     (1 -> 0)
//   response  READ/atomic response: far NIC reads memory, packets back, DMA   (1 -> 0)
//   ack       a READ's or atomic's NAK back to the requester's NIC            (1 -> 0)
//   cqe       the NIC writes a CQE into host memory                         (either side)
//   poll      the polling CPU notices a CQE or a written byte                 (side 0)
//   post_recv post_recv on the CPU (a WQE in host memory; no doorbell MMIO)   (side 0)
// A request's network stage is the data direction of the connection's RC transport
// (NetRole::rc_data), a WRITE's or SEND's ACK leg its ACK direction (rc_ack).
// Invariant (tests/verbs_components_test): post + request up to B.nic.reassemble [+ cqe(1)] +
// poll(1) is stage for stage build_path()'s one-way WRITE/SEND, the rest of the request is ack(),
// and post + request(read) + response + cqe(0) + poll(0) is its READ. ACK/NAK generation has no send-arbitration jitter (that models WQE scheduling), so
// a run with nic.tx_jitter draws the same random numbers as `rdmasim lat`. An atomic is timed
// as an 8-byte READ (its request frame is a READ request's, 12 B shorter than an AtomicETH).
#pragma once

#include "model/path.hpp"
#include "rdmasim/profile.hpp"

namespace rdmasim::verbs {

enum class RequestKind : std::uint8_t { write, write_inline, send, send_inline, read };
inline constexpr int kRequestKinds = 5;

class VerbsPaths {
 public:
  /// `network(path, s)` appends the way from side s to the other side (a cable or a fabric).
  VerbsPaths(const Profile& p, LinkLayer layer, Bytes mtu, NetworkAppender network);

  PathSpec post(bool inline_data) const;
  PathSpec request(RequestKind k) const;
  PathSpec response() const;
  PathSpec ack() const;
  PathSpec cqe(int side) const;
  static PathSpec poll(const Profile& p);
  static PathSpec post_recv(const Profile& p);

 private:
  void append_ack(PathSpec& path) const;

  Profile p_;
  LinkLayer layer_;
  Bytes mtu_;
  NetworkAppender network_;
};

}  // namespace rdmasim::verbs
