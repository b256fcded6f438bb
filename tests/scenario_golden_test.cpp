// Every scenario in scenarios/ runs and its key results match the golden values in
// tests/golden/<name>.json (the simulator is deterministic, so they match exactly). After an
// intended model change: `make golden` (RDMASIM_UPDATE_GOLDEN=1) rewrites them; the test
// prints every metric that changed, old and new.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "config/scenario_runs.hpp"

using namespace rdmasim;
using namespace rdmasim::config;
namespace fs = std::filesystem;

TEST(ScenarioGolden, EveryShippedScenarioMatchesItsGoldenValues) {
  const fs::path src = RDMASIM_SOURCE_DIR;
  const bool update = std::getenv("RDMASIM_UPDATE_GOLDEN") != nullptr;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(src / "scenarios"))
    if (e.path().extension() == ".toml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 10u);
  for (const fs::path& f : files) {
    const Scenario s = load_scenario(f.string());
    const std::vector<Metric> got = rdmasim::run(s).metrics;
    const fs::path golden = src / "tests" / "golden" / (f.stem().string() + ".json");
    if (update) {
      nlohmann::ordered_json j;
      for (const Metric& m : got) j[m.name] = m.value;
      std::ofstream(golden) << j.dump(2) << "\n";
      continue;
    }
    std::ifstream in(golden);
    ASSERT_TRUE(in) << golden << " missing: run `make golden`";
    const nlohmann::json want = nlohmann::json::parse(in);
    EXPECT_EQ(want.size(), got.size()) << f.filename();
    for (const Metric& m : got) {
      ASSERT_TRUE(want.contains(m.name)) << f.filename() << ": new metric " << m.name;
      const double w = want[m.name].get<double>();
      EXPECT_NEAR(m.value, w, 1e-9 * std::max(1.0, std::fabs(w)))
          << f.filename() << ": " << m.name << " was " << w << ", now " << m.value;
    }
  }
}
