// parallel_bench: what window-synchronous parallel simulation (core/parallel_run.hpp) costs and
// gains on this machine, on the PHOLD-like model of tests/phold_model.hpp (16 LPs, 50 ns
// lookahead, a quarter of the events crossing to another LP).
//
// One line per (tokens per LP, work per event): events per window, the wall time per event on
// one thread, the wall time per window on 1 and on `--threads` threads (best of `--repeat`
// interleaved runs), and the speed-up. The first rows (1 token per LP, no work) are nearly
// all synchronization: their time per window on several threads, less the one-thread time,
// is what two barriers and the mailbox hand-over cost. Each run checks that every thread count
// gives the same per-LP results (exit 1 if not).
//
// Usage: parallel_bench [--threads 2] [--lps 16] [--until-us 200] [--repeat 3]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <vector>

#include <CLI/CLI.hpp>

#include "phold_model.hpp"

namespace {

struct Timed {
  double wall = 0;
  std::uint64_t events = 0, windows = 0;
  std::vector<rdmasim::phold::LpResult> result;
};

Timed timed(int lps, int population, int work, int threads, rdmasim::Time until) {
  rdmasim::phold::Model m(lps, population, work);
  const auto t0 = std::chrono::steady_clock::now();
  Timed t;
  t.result = m.run(threads, until);
  t.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  t.events = m.engine().executed();
  t.windows = m.engine().windows();
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"parallel_bench: window-synchronous parallel simulation on a PHOLD-like model"};
  int threads = 2, lps = 16, repeat = 3;
  std::int64_t until_us = 200;
  app.add_option("--threads", threads, "worker threads to compare with one")->capture_default_str()->check(CLI::Range(2, 256));
  app.add_option("--lps", lps, "logical processes")->capture_default_str()->check(CLI::Range(2, 4096));
  app.add_option("--until-us", until_us, "simulated microseconds per run")->capture_default_str()->check(CLI::Range(1, 1000000));
  app.add_option("--repeat", repeat, "interleaved runs per point (the best is kept)")->capture_default_str()->check(CLI::Range(1, 100));
  CLI11_PARSE(app, argc, argv);
  try {
    const rdmasim::Time until = rdmasim::Time::us(until_us);
    std::printf("# parallel_bench: %d LPs, lookahead %lld ns, %lld us simulated, best of %d interleaved runs, 1 vs %d threads\n",
                lps, static_cast<long long>(rdmasim::phold::kLookahead.count_ps() / 1000), static_cast<long long>(until_us), repeat,
                threads);
    std::printf("%8s %6s %12s %10s %12s %12s %12s %8s\n", "tokens", "work", "events", "ev/window", "ns/event_1",
                "us/window_1", "us/window_N", "speedup");
    for (const int population : {1, 4, 16, 64, 256})
      for (const int work : {0, 100, 400}) {
        Timed best1, bestn;
        best1.wall = bestn.wall = 1e300;
        for (int r = 0; r < repeat; ++r) {
          Timed one = timed(lps, population, work, 1, until);
          Timed many = timed(lps, population, work, threads, until);
          if (one.result != many.result || one.windows != many.windows) {
            std::fprintf(stderr, "parallel_bench: %d threads changed the run (tokens %d, work %d)\n", threads, population, work);
            return 1;
          }
          if (one.wall < best1.wall) best1 = std::move(one);
          if (many.wall < bestn.wall) bestn = std::move(many);
        }
        const double w = static_cast<double>(best1.windows);
        std::printf("%8d %6d %12llu %10.1f %12.1f %12.3f %12.3f %8.2f\n", population, work,
                    static_cast<unsigned long long>(best1.events), static_cast<double>(best1.events) / w,
                    best1.wall * 1e9 / static_cast<double>(best1.events), best1.wall * 1e6 / w, bestn.wall * 1e6 / w,
                    best1.wall / bestn.wall);
        std::fflush(stdout);
      }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "parallel_bench: %s\n", e.what());
    return 2;
  }
  return 0;
}
