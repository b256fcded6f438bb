// LiveRun (io/live_run.hpp): the command line's observer of one run. It observes only when it
// has something to do; with --csv it keeps the samples for timeseries.csv, checks --watch
// against the fabric's ports and --sample-interval's value; with neither the run is unobserved.
#include "io/live_run.hpp"

#include <gtest/gtest.h>

#include "error_text.hpp"

using namespace rdmasim;
using rdmasim::testing::error_text;

TEST(LiveRun, ObservesOnlyWhenItHasSomethingToDo) {
  ScenarioOptions o;
  o.quiet = true;  // no progress line, whatever stderr is
  EXPECT_EQ(LiveRun(o, 10).observer(), nullptr);
  o.csv = "dir";
  LiveRun live(o, 10);
  EXPECT_EQ(live.observer(), &live);
}

TEST(LiveRun, KeepsTheSamplesForTimeseriesCsvAndChecksTheWatchedPorts) {
  ScenarioOptions o;
  o.quiet = true;
  o.csv = "dir";
  o.sample_interval = "5us";
  LiveRun live(o, 0);
  EXPECT_EQ(live.options().interval, Time::us(5));
  Sample s;
  s.t_us = 5;
  s.dt_us = 5;
  s.messages = s.total_messages = 3;
  live.on_sample(Sample(s));
  live.on_end({{"sw0->h0"}, {}, 1, 3, Time::us(5), Time::us(5)});
  const std::string csv = live.timeseries_csv();
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 2) << csv;  // header + one slice
  o.watch = {"sw0->h9"};
  LiveRun watched(o, 0);
  watched.on_end({{"sw0->h0"}, {}, 0, 0, {}, {}});
  EXPECT_EQ(error_text([&] { watched.timeseries_csv(); }),
            "--watch: no fabric port \"sw0->h9\" (ports are named like edge0.0->h1)");
}

TEST(LiveRun, RefusesWhatItCannotDo) {
  ScenarioOptions o;
  o.watch = {"sw0->h0"};
  EXPECT_EQ(error_text([&] { LiveRun(o, 0); }), "--watch: the watched ports go to timeseries.csv: give --csv DIR");
  o.csv = "dir";
  o.sample_interval = "0us";
  EXPECT_EQ(error_text([&] { LiveRun(o, 0); }), "--sample-interval: must be > 0, got 0us");
  o.sample_interval = "soon";
  EXPECT_NE(error_text([&] { LiveRun(o, 0); }).find("--sample-interval: "), std::string::npos);
}
