#include "io/progress_line.hpp"

#include <chrono>

namespace rdmasim {

double ProgressLine::steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

ProgressLine::ProgressLine(std::FILE* out, Options o, Clock clock)
    : out_(out), o_(o), clock_(std::move(clock)), start_(clock_()) {}

void ProgressLine::update(double sim_us, std::int64_t messages, std::uint64_t events) {
  const double now = clock_();
  const double wall = now - start_;
  if (wall < o_.delay_s || (last_ >= 0 && now - last_ < o_.every_s)) return;
  last_ = now;
  char pct[16] = "";
  char msgs[48];
  if (o_.expected_messages > 0) {
    std::snprintf(pct, sizeof pct, "%lld%% ", static_cast<long long>(100 * messages / o_.expected_messages));
    std::snprintf(msgs, sizeof msgs, "%lld/%lld", static_cast<long long>(messages),
                  static_cast<long long>(o_.expected_messages));
  } else {
    std::snprintf(msgs, sizeof msgs, "%lld", static_cast<long long>(messages));
  }
  const char* unit = sim_us >= 1e6 ? "s" : sim_us >= 1e3 ? "ms" : "us";
  const double sim = sim_us >= 1e6 ? sim_us / 1e6 : sim_us >= 1e3 ? sim_us / 1e3 : sim_us;
  std::fprintf(out_, "\r\033[Krdmasim: %s%s messages | simulated %.3f %s | %.1f M events | %.1f s", pct, msgs, sim, unit,
               static_cast<double>(events) / 1e6, wall);
  std::fflush(out_);
  drawn_ = true;
  ++redraws_;
}

void ProgressLine::finish() {
  if (!drawn_) return;
  std::fputs("\r\033[K", out_);
  std::fflush(out_);
  drawn_ = false;
}

}  // namespace rdmasim
