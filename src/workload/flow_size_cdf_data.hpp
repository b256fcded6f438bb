// Built-in flow-size distributions too long to sit in the registry's file (flow_size_cdfs.cpp).
#pragma once

#include <iterator>
#include <utility>

#include "rdmasim/flows.hpp"

namespace rdmasim {

/// Google's RPC sizes of 2008, 843 points (workload/google_rpc_cdf.cpp).
FlowSizeCdf google_rpc_2008_cdf();

}  // namespace rdmasim
