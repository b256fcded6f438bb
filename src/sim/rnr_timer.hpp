// The RC timers' encodings (IBA 9.7.5.2.8 and 12.7.34), in simulated time.
//
// min_rnr_timer (5 bits): how long a requester waits after an RNR NAK before it retries the
// SEND; 0 encodes the longest wait, 655.36 ms; 1 = 0.01 ms ... 31 = 491.52 ms (IBA table 45).
// timeout (5 bits): the local ACK timeout 4.096 us x 2^timeout; 0 means wait forever.
// rnr_retry 7 means retry an RNR NAK forever; retry_cnt 7 means 7 retries.
#pragma once

#include <cstdint>
#include <optional>

#include "rdmasim/units.hpp"

namespace rdmasim::verbs {

/// The RNR NAK wait for an encoded min_rnr_timer (0..31).
Time rnr_timer_delay(std::uint8_t encoded);
/// The ACK timeout for an encoded timeout (0..31); nullopt for 0 (no timeout).
std::optional<Time> ack_timeout(std::uint8_t encoded);
inline constexpr std::uint8_t kInfiniteRnrRetry = 7;

}  // namespace rdmasim::verbs
