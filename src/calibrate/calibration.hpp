// Calibration: runs the probes, fits the host model's software costs to them, and checks the
// fitted model against the measurement.
//
// Fit (all from one placement of the two ping-pong ends, same core by default):
//   kernel.syscall    = null syscall
//   mem.copy_fixed    = the memcpy fit's fixed cost per call
//   mem.copy_bw       = least-squares slope of TCP p50 over the sizes within one loopback
//                       segment, per copy (the memcpy probe's DRAM bandwidth when there is
//                       no usable slope)
//   kernel.wakeup     = pipe ping-pong p50 RTT/2 - 2 syscalls (the write and the read)
//   kernel stacks     = TCP loopback 1 B p50 one-way - (2 syscalls + 2 copies + wakeup), split
//                       over tx_stack/tx_per_packet/rx_per_packet/rx_stack in the default
//                       profile's proportions (one measurement cannot separate them)
// so the fitted model reproduces the 1 B loopback p50 by construction; the check shows how
// well it predicts the other sizes and the tail. Not modelled: over lo a blocked reader wakes
// once per segment (messages above tcp.loopback_mss pay extra context switches), so the check
// shows that gap for multi-segment sizes.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "calibrate/probes.hpp"
#include "config/host_profile.hpp"
#include "rdmasim/profile.hpp"

namespace rdmasim::calibrate {

struct CalibrationOptions {
  ProbeOptions probe;
  bool same_core = true;  // both ping-pong ends on one core (stable; cross-core adds vCPU wake-ups)
  std::vector<std::int64_t> tcp_sizes{1, 64, 1024, 4096, 16384, 65000, 65536};
};

struct CalibrationReport {
  std::string machine;
  std::string placement;  // "same core (cpu 0)" / "cores 0 and 1"
  ClockResult clock;
  CopyResult copy;
  SyscallResult syscall;
  WakeupResult wakeup;
  std::vector<PingPongResult> tcp;  // one per size, in CalibrationOptions::tcp_sizes order
  PingPongResult udp;
  PingPongResult shm;
  PinResult pin;
};

/// `progress(step, done, total)` is called before each probe and once at the end.
using Progress = std::function<void(const std::string& step, int done, int total)>;
CalibrationReport run_probes(const CalibrationOptions& o, const Progress& progress);

struct FitResult {
  std::vector<std::pair<std::string, std::string>> parameters;  // profile key -> value text
  std::vector<std::string> notes;
};
/// Throws std::runtime_error when a probe the fit needs failed.
FitResult fit_host_profile(const CalibrationReport& r);
HostProfileDoc host_profile_doc(const CalibrationReport& r, const FitResult& f);
/// The default profile with the fitted parameters applied.
Profile fitted_profile(const FitResult& f);
/// "Fitted host profile:" and one line per parameter and note.
std::string fit_text(const FitResult& f);

struct CheckRow {
  std::int64_t bytes = 0;
  double measured_p50_ns = 0, measured_p99_ns = 0;
  double model_p50_ns = 0, model_p99_ns = 0;
};
/// Runs `rdmasim lat --transport tcp --topology loopback` with `fitted` for every measured size.
std::vector<CheckRow> check_model(const CalibrationReport& r, const Profile& fitted);

std::string report_text(const CalibrationReport& r);
std::string check_text(const std::vector<CheckRow>& rows);

}  // namespace rdmasim::calibrate
