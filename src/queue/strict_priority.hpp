// Strict priority: the highest eligible traffic class transmits, FIFO within a class. The
// fabric serves it inline (sim/fabric.cpp, Fabric::pick), so the spec makes no object.
#pragma once

#include "rdmasim/queue_scheduler.hpp"

namespace rdmasim {

QueueSchedulerSpec strict_priority_scheduler();

}  // namespace rdmasim
