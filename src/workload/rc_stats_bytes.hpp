// An RC QP's report (rdmasim/rc_stats.hpp) as bytes, for a run over MPI ranks: each rank holds
// a copy of every QP and counts what its own LPs did with it, so a QP's whole report is its
// requester's rank's (state, failure time, rate and the requester's counters) with the other
// ranks' counts added (accumulate).
#pragma once

#include <vector>

#include "core/byte_io.hpp"
#include "rdmasim/rc_stats.hpp"

namespace rdmasim {

/// Appends `s`; `requester` false sends the counts alone (the side counted on another rank
/// than the requester's: its state, failure time and rate are not its to tell).
void put_rc(ByteWriter& out, const RcStats& s, bool requester);
RcStats get_rc(ByteReader& in);
/// A QP's whole report from every rank's copy (by rank; `requester`: the requester's rank): the
/// requester's, with the others' counts added in rank order.
RcStats join_rc(const std::vector<RcStats>& by_rank, int requester);

}  // namespace rdmasim
