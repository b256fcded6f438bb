// Questions about a run's configuration (rdmasim/latency.hpp) that more than one check asks.
#pragma once

#include "rdmasim/latency.hpp"

namespace rdmasim {

/// The first of the fabric's options that loses frames whatever the traffic — "--loss",
/// "--link-loss", "--drop-frames", "--drop-burst", "--link-down" — or nullptr when none does.
/// Paths without a transport to resend (lat's ping-pong, READ over a fabric) refuse them.
const char* frame_loss_option(const FabricConfig& f);

}  // namespace rdmasim
