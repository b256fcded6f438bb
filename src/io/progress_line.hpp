// ProgressLine: the one-line live status of a long run on a terminal's stderr, redrawn in place
// ("\r" + erase to end of line), e.g.
//   rdmasim: 45% 4500/10000 messages | simulated 2.345 ms | 12.3 M events | 2.1 s
// Nothing is drawn before `delay` of wall time has passed (short runs stay silent), at most one
// redraw per `every`, and finish() erases a drawn line, so what the run prints afterwards starts
// on a clean line. Whether to draw at all (stderr a terminal, no --quiet) is the caller's
// decision. The wall clock is injectable so tests are exact.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>

namespace rdmasim {

class ProgressLine {
 public:
  using Clock = std::function<double()>;  // seconds, monotonic
  struct Options {
    double delay_s = 1.0;
    double every_s = 0.1;
    std::int64_t expected_messages = 0;  // 0: unknown (no percentage)
  };
  ProgressLine(std::FILE* out, Options o, Clock clock = steady_seconds);
  /// The run has simulated `sim_us`, completed `messages` and run `events` so far.
  void update(double sim_us, std::int64_t messages, std::uint64_t events);
  /// Erases the line if one was drawn (idempotent).
  void finish();
  int redraws() const { return redraws_; }
  static double steady_seconds();

 private:
  std::FILE* out_;
  Options o_;
  Clock clock_;
  double start_, last_ = -1;
  int redraws_ = 0;
  bool drawn_ = false;
};

}  // namespace rdmasim
