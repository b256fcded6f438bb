// Chrome trace-event JSON (opens in Perfetto, ui.perfetto.dev), streamed to a file.
//
// Output: {"traceEvents":[<one event per line>],"displayTimeUnit":"ns"}. Every event is written
// when its call is made (nothing is kept in memory beyond one reused line buffer).
//
// Invariants:
//  - `ts` and `dur` are microseconds printed exactly from integer picoseconds: the integer part,
//    a point and six fractional digits (1234567 ps -> 1.234567), never through floating point.
//    Negative times and durations are rejected (std::invalid_argument).
//  - Every string is emitted as valid JSON: quotes, backslash and control characters escaped,
//    valid UTF-8 passed through unchanged, each byte of an invalid UTF-8 sequence written as
//    U+FFFD.
//  - Atomic publication: events go to "<path>.tmp", which close() renames onto <path>. A writer
//    destroyed without close() (an exception unwinding, a crash) deletes the .tmp file and
//    leaves <path> untouched: a half-written trace is never published. I/O failures throw
//    std::runtime_error naming the path; writing after close() throws std::logic_error.
#pragma once

#include <concepts>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include "rdmasim/units.hpp"

namespace rdmasim {

/// One "args" entry (or one counter series): a key and a string, integer or number value.
/// String keys and values are views: they must outlive the call they are passed to.
class TraceArg {
 public:
  enum class Kind : std::uint8_t { string, int64, uint64, number };
  TraceArg(std::string_view key, std::string_view value) : key_(key), str_(value), kind_(Kind::string) {}
  TraceArg(std::string_view key, const char* value) : TraceArg(key, std::string_view(value)) {}
  TraceArg(std::string_view key, const std::string& value) : TraceArg(key, std::string_view(value)) {}
  template <std::signed_integral I>
  TraceArg(std::string_view key, I value) : key_(key), i_(value), kind_(Kind::int64) {}
  template <std::unsigned_integral U>
    requires(!std::same_as<U, bool>)
  TraceArg(std::string_view key, U value) : key_(key), u_(value), kind_(Kind::uint64) {}
  /// Finite values only (JSON has no NaN/Inf); printed as the shortest round-trip decimal.
  TraceArg(std::string_view key, double value) : key_(key), d_(value), kind_(Kind::number) {}
  TraceArg(std::string_view key, bool) = delete;

  std::string_view key() const { return key_; }
  Kind kind() const { return kind_; }
  std::string_view str() const { return str_; }
  std::int64_t i64() const { return i_; }
  std::uint64_t u64() const { return u_; }
  double number() const { return d_; }

 private:
  std::string_view key_, str_;
  std::int64_t i_ = 0;
  std::uint64_t u_ = 0;
  double d_ = 0;
  Kind kind_;
};

using TraceArgs = std::span<const TraceArg>;

enum class InstantScope : std::uint8_t { thread, process, global };

/// Appends `t` in microseconds with exactly six fractional digits; throws on negative `t`.
void append_trace_us(std::string& out, Time t);
/// Appends `s` as a quoted JSON string (see the escaping invariant above).
void append_json_string(std::string& out, std::string_view s);

class TraceWriter {
 public:
  explicit TraceWriter(std::string path);
  /// Writes nothing: for a run that wants only the tracer's hop ledger (sim/tracer.hpp).
  TraceWriter() : discard_(true) {}
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  // Metadata (ph "M"), with ts 0 so that every event has a ts.
  void process_name(std::int64_t pid, std::string_view name);
  void thread_name(std::int64_t pid, std::int64_t tid, std::string_view name);

  /// Complete slice (ph "X") on one thread.
  void slice(std::int64_t pid, std::int64_t tid, std::string_view name, std::string_view cat, Time start,
             Time dur, TraceArgs args);
  void slice(std::int64_t pid, std::int64_t tid, std::string_view name, std::string_view cat, Time start,
             Time dur, std::initializer_list<TraceArg> args = {}) {
    slice(pid, tid, name, cat, start, dur, TraceArgs(args.begin(), args.size()));
  }

  /// Counter track `name` of process `pid` (ph "C"): one value per series; strings rejected.
  void counter(std::int64_t pid, std::string_view name, Time at, TraceArgs series);
  void counter(std::int64_t pid, std::string_view name, Time at, std::initializer_list<TraceArg> series) {
    counter(pid, name, at, TraceArgs(series.begin(), series.size()));
  }

  /// Flow arrow from the slice enclosing `at` on (pid, tid) (ph "s") to the slice enclosing
  /// `at` of the matching flow_end (ph "f"); both carry "bp":"e" and match on (cat, id).
  void flow_start(std::uint64_t id, std::int64_t pid, std::int64_t tid, std::string_view name,
                  std::string_view cat, Time at);
  void flow_end(std::uint64_t id, std::int64_t pid, std::int64_t tid, std::string_view name,
                std::string_view cat, Time at);

  /// Instant event (ph "i") with scope "t", "p" or "g".
  void instant(std::int64_t pid, std::int64_t tid, std::string_view name, std::string_view cat, Time at,
               InstantScope scope, TraceArgs args);
  void instant(std::int64_t pid, std::int64_t tid, std::string_view name, std::string_view cat, Time at,
               InstantScope scope = InstantScope::thread, std::initializer_list<TraceArg> args = {}) {
    instant(pid, tid, name, cat, at, scope, TraceArgs(args.begin(), args.size()));
  }

  /// Writes the closing bracket, flushes and renames the .tmp file onto the path. Idempotent.
  void close();

  const std::string& path() const { return path_; }
  std::uint64_t events_written() const { return events_; }

 private:
  void flow(const char* ph, std::uint64_t id, std::int64_t pid, std::int64_t tid, std::string_view name,
            std::string_view cat, Time at);
  void begin(std::string_view ph, std::string_view name, std::string_view cat, std::int64_t pid,
             std::int64_t tid);
  void args_object(std::string_view key, TraceArgs args, bool numbers_only);
  void end();
  void put(std::string_view s);

  std::string path_, tmp_path_;
  std::FILE* file_ = nullptr;
  bool discard_ = false;  // writes nothing (default-constructed)
  std::string line_;  // the event being formatted, reused
  std::uint64_t events_ = 0;
};

}  // namespace rdmasim
