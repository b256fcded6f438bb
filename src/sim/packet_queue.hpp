// The intrusive FIFO of packets the transports keep (send queues, held packets): packets are
// linked through Packet::next_in_queue, so queueing allocates nothing. Invariant: head is null
// exactly when tail is; a popped packet's link is cleared.
#pragma once

#include "net/packet.hpp"

namespace rdmasim {

inline void queue_push(Packet*& head, Packet*& tail, Packet& p) {
  p.next_in_queue = nullptr;
  if (tail) tail->next_in_queue = &p;
  else head = &p;
  tail = &p;
}

inline Packet* queue_pop(Packet*& head, Packet*& tail) {
  Packet* p = head;
  if (!p) return nullptr;
  head = p->next_in_queue;
  if (!head) tail = nullptr;
  p->next_in_queue = nullptr;
  return p;
}

inline bool last_of_message(const Packet& p) { return p.pos == FramePos::last || p.pos == FramePos::only; }

/// Whether an RC request packet carries AckReq: the last of its message, and every
/// `ack_every`-th packet of it (rc.ack_every; 0: the last only).
inline bool asks_ack(const Packet& p, int ack_every) {
  return last_of_message(p) || (ack_every > 0 && (p.index + 1) % ack_every == 0);
}

}  // namespace rdmasim
