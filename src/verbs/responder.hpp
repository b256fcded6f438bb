// The responder's side of an RC request: the checks a responder NIC makes and the effect on
// its memory and receive queue (IBA 9.7.5; rxe_resp.c), without time.
//
// In order: WRITE / WRITE_WITH_IMM / READ / atomics need a registered region for the R_Key in
// the responder QP's PD with the remote right (and the QP's access flags allowing it) covering
// [remote_addr, +length) -> else NAK Remote Access Error; atomics need an 8-byte-aligned
// address -> else NAK Invalid Request. SEND / SEND_WITH_IMM / WRITE_WITH_IMM need a posted
// receive -> else RNR NAK (nothing is changed). A SEND longer than the receive's buffers
// completes the receive with LOC_LEN_ERR and NAKs Invalid Request; a receive SGE with a bad
// L_Key / no local write / out of range completes it with LOC_PROT_ERR and NAKs Remote
// Operation Error. Otherwise the bytes are written (WRITE, SEND), read into the request's
// response buffer (READ), or the 8-byte atomic is applied and its original value returned.
#pragma once

#include "verbs/queue_pair.hpp"

namespace rdmasim::verbs {

struct ResponderResult {
  Nak nak = Nak::none;
  bool wrote = false;       // the responder's memory changed (announce the DMA write)
  bool has_recv = false;    // a receive WQE was consumed: recv_wc is its completion
  ibv_wc recv_wc;
};

/// Executes request `req` (from a QP whose number is `src_qp`) at responder QP `resp`.
ResponderResult respond(QueuePair& resp, SendSlot& req, std::uint32_t src_qp);

}  // namespace rdmasim::verbs
