// ProgressLine (io/progress_line.hpp): silent before the delay, rate-limited, percentage when the
// total is known, and erased by finish(); driven by a fake clock into a memory stream.
#include "io/progress_line.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

using namespace rdmasim;

namespace {

struct Mem {
  char* buf = nullptr;
  std::size_t len = 0;
  std::FILE* f = open_memstream(&buf, &len);
  ~Mem() {
    std::fclose(f);
    std::free(buf);
  }
  std::string text() {
    std::fflush(f);
    return std::string(buf, len);
  }
};

}  // namespace

TEST(ProgressLine, SilentUntilTheDelayThenRateLimited) {
  Mem m;
  double now = 100;
  ProgressLine p(m.f, {1.0, 0.1, 1000}, [&] { return now; });
  now = 100.5;
  p.update(10, 5, 100);
  EXPECT_EQ(m.text(), "");  // a short run prints nothing
  now = 101.25;
  p.update(2345.6, 450, 12'300'000);
  EXPECT_EQ(m.text(), "\r\033[Krdmasim: 45% 450/1000 messages | simulated 2.346 ms | 12.3 M events | 1.2 s");
  now = 101.3;
  p.update(2400, 460, 12'400'000);  // within 0.1 s of the last redraw
  EXPECT_EQ(p.redraws(), 1);
  now = 101.4;
  p.update(3e6, 1000, 20'000'000);
  EXPECT_EQ(p.redraws(), 2);
  EXPECT_NE(m.text().find("100% 1000/1000 messages | simulated 3.000 s"), std::string::npos);
  p.finish();
  EXPECT_EQ(m.text().substr(m.text().size() - 4), "\r\033[K");  // the line is erased
  const std::size_t len = m.text().size();
  p.finish();
  EXPECT_EQ(m.text().size(), len);  // once
}

TEST(ProgressLine, UnknownTotalShowsACountAndNothingDrawnNothingErased) {
  Mem m;
  double now = 0;
  ProgressLine p(m.f, {1.0, 0.1, 0}, [&] { return now; });
  p.finish();
  EXPECT_EQ(m.text(), "");
  now = 2;
  p.update(12.5, 7, 1000);
  EXPECT_EQ(m.text(), "\r\033[Krdmasim: 7 messages | simulated 12.500 us | 0.0 M events | 2.0 s");
}
