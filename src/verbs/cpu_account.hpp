// VerbsCpuAccount: the CPU time one host's application spends in the verbs layer.
//
// Kept apart from the host's CPU accounting (verbs calls are what it counts):
// it is charged from the real actions only — the service time of each post_send, post_recv
// and completion-noticing poll the application runs on the host's core (the same costs the
// core's FIFO server serves, verbs.post and verbs.poll_detect) and the time it spends busy-
// polling for a completion or a written byte. The NIC's own work (DMA, pipelines, ACKs, READ
// responses) is never charged, which is the point of one-sided operations: a host whose
// application makes no call uses no CPU, however many WRITEs and READs land in its memory.
// Invariant: spin never overlaps the calls' service, so the total never exceeds elapsed time.
#pragma once

#include "rdmasim/verbs.hpp"

namespace rdmasim::verbs {

class VerbsCpuAccount {
 public:
  /// Work of `t` issued at `now` (served after the core's earlier work).
  void post_send(Time now, Time t) { u_.post_send += t; ++u_.post_sends; busy(now, t); }
  void post_recv(Time now, Time t) { u_.post_recv += t; ++u_.post_recvs; busy(now, t); }
  /// A poll of `t` that ended at `now`.
  void poll(Time now, Time t) { u_.poll += t; ++u_.polls; busy(now - t, t); }
  /// Busy-polling from `from` to `to`, less the part the core spent on the calls above.
  void spin(Time from, Time to) {
    const Time start = from > busy_until_ ? from : busy_until_;
    if (to > start) u_.spin += to - start;
  }
  const VerbsCpuUsage& usage() const { return u_; }

 private:
  void busy(Time now, Time t) { busy_until_ = (busy_until_ > now ? busy_until_ : now) + t; }
  VerbsCpuUsage u_;
  Time busy_until_{};
};

}  // namespace rdmasim::verbs
