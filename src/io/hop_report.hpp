// hop_report: the traced messages' ledger hop by hop (ExportStats::hops, `--hop-ledger`) — per
// host stage, fabric port and switch pipeline on their critical paths, the mean per message (or
// per exchange) of its queue, transmit, propagate and process time; the rows add up to the
// mean end-to-end time of one.
#pragma once

#include <cstdio>

#include <nlohmann/json.hpp>

#include "rdmasim/exports.hpp"

namespace rdmasim {

/// What a row's mean is per: `messages` traced messages make one `name` (lat: an exchange of
/// two one-way messages, so each hop shows its own time; bw: one message).
struct HopUnit {
  const char* name = "message";
  int messages = 1;
};

/// The table (nothing when no message was traced).
void print_hop_ledger(std::FILE* out, const ExportStats& s, HopUnit unit);
/// {"messages": N, "per": unit, "hops": [{"hop", "queue_us", "transmit_us", "propagate_us",
/// "process_us", "process": {category: usec, ...}}, ...], "total_us"}: means per unit.
nlohmann::ordered_json hop_ledger_json(const ExportStats& s, HopUnit unit);

}  // namespace rdmasim
