// RunProbe: a live observer of one simulation run, attached through the run's Exports
// (Exports::set_probe). ExportScope calls attach() once the run's paths (and its fabric) are
// built and before the first event, and detach() when the run is over or unwinds, so a probe can
// hook the scheduler (Scheduler::set_slice_hook) and the context (SimContext::observer) and must
// leave nothing pointing at the world after detach().
#pragma once

#include "workload/sim_world.hpp"

namespace rdmasim {

class RunProbe {
 public:
  virtual void attach(SimWorld& w) = 0;
  virtual void detach(SimWorld& w) = 0;

 protected:
  ~RunProbe() = default;
};

}  // namespace rdmasim
