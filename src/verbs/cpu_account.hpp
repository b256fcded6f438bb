// VerbsCpuAccount: the CPU time one host's application spends in the verbs layer.
//
// A small stand-in for the host CPU-accounting component (issue 4), to be folded into it:
// it is charged from the real actions only — the service time of each post_send, post_recv
// and completion-noticing poll the application runs on the host's core (the same costs the
// core's FIFO server serves, verbs.post and verbs.poll_detect) and the time it spends busy-
// polling for a completion or a written byte. The NIC's own work (DMA, pipelines, ACKs, READ
// responses) is never charged, which is the point of one-sided operations: a host whose
// application makes no call uses no CPU, however many WRITEs and READs land in its memory.
#pragma once

#include "rdmasim/verbs.hpp"

namespace rdmasim::verbs {

class VerbsCpuAccount {
 public:
  void post_send(Time t) { u_.post_send += t; ++u_.post_sends; }
  void post_recv(Time t) { u_.post_recv += t; ++u_.post_recvs; }
  void poll(Time t) { u_.poll += t; ++u_.polls; }
  void spin(Time t) { u_.spin += t; }
  const VerbsCpuUsage& usage() const { return u_; }

 private:
  VerbsCpuUsage u_;
};

}  // namespace rdmasim::verbs
