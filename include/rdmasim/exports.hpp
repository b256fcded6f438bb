// Exports of one simulation run: a Chrome trace-event JSON of the first messages (opens in
// ui.perfetto.dev; sim/tracer.hpp says what is in it) and a pcapng capture of the frames on a
// wire or fabric port (opens in Wireshark / tshark; io/capture.hpp).
//
// With `hop_ledger` the same tracing keeps, per hop, the ledger of the traced messages' critical
// paths (ExportStats::hops): `lat`/`bw --hop-ledger`, with or without a trace file.
//
// Exports opens both files as "<path>.tmp" when it is made (so a bad path fails before any
// simulation) and publishes them only in publish(): a run that fails, or that is never
// published, leaves no output file. Pass it to run_latency / run_bandwidth / run_traffic.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rdmasim/ledger.hpp"

namespace rdmasim {

class TraceWriter;
class PcapWriter;
class RunProbe;

struct ExportOptions {
  std::string trace_path;               // "" = no trace
  std::int64_t trace_messages = 100;    // trace the first N messages posted
  std::string pcap_path;                // "" = no capture
  std::vector<std::string> pcap_ports;  // fabric ports ("edge0.0->h1"); none: the client's NIC port, both ways
  std::int64_t pcap_frames = 100000;    // at most this many frames
  std::int64_t pcap_snaplen = 0;        // bytes kept per frame (0: whole frames)
  bool hop_ledger = false;              // keep the traced messages' ledger hop by hop (traces them even without trace_path)

  bool operator==(const ExportOptions&) const = default;
};

/// One hop of the traced messages' critical paths (a host stage, a fabric port or a switch's
/// pipeline) and the ledger its steps add up to over all of them (sim/tracer.hpp).
struct HopLedgerRow {
  std::string hop;
  Ledger total;
};

/// What a run's exports wrote (filled in by the run).
struct ExportStats {
  std::int64_t messages_traced = 0;
  std::vector<HopLedgerRow> hops;  // with hop_ledger: in the order the paths reach them
  std::uint64_t frames_captured = 0, frames_dropped = 0;  // dropped: beyond pcap_frames
};

class Exports {
 public:
  /// Opens the files; std::invalid_argument naming the option and path it cannot write.
  explicit Exports(ExportOptions o);
  ~Exports();
  Exports(const Exports&) = delete;
  Exports& operator=(const Exports&) = delete;

  /// Closes and renames the files onto their paths. Call once the run has succeeded.
  void publish();

  const ExportOptions& options() const { return opt_; }
  TraceWriter* trace() { return trace_.get(); }
  PcapWriter* pcap() { return pcap_.get(); }
  /// An optional live observer of the run (workload/run_probe.hpp; the dashboard's samples).
  void set_probe(RunProbe* p) { probe_ = p; }
  RunProbe* probe() const { return probe_; }
  ExportStats stats;

 private:
  ExportOptions opt_;
  std::unique_ptr<TraceWriter> trace_;
  std::unique_ptr<PcapWriter> pcap_;
  RunProbe* probe_ = nullptr;
};

}  // namespace rdmasim
