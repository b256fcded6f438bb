// libFuzzer target for the scenario parser (TOML, or JSON when built with
// -DRDMASIM_FUZZ_JSON): any input must either parse into a validated configuration or throw
// std::invalid_argument with a message; anything else (a crash, another exception, a
// sanitizer report) is a bug. Run: `make fuzz-smoke` (seconds, part of `make test`) or, for
// longer, ./build/fuzz/scenario_toml_fuzz -max_total_time=600 fuzz/corpus/toml.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "config/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
#ifdef RDMASIM_FUZZ_JSON
  constexpr bool json = true;
#else
  constexpr bool json = false;
#endif
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    rdmasim::config::Scenario s = rdmasim::parse_scenario(text, "fuzz", json);
    // Keep the fuzzer away from minute-long topologies: configuration only, no simulation.
    if (s.options.fabric.k > 16 || s.options.fabric.hosts > 4096 || s.options.fabric.leaves * s.options.fabric.hosts_per_leaf > 4096)
      return 0;
    rdmasim::config::scenario_config(s);
  } catch (const std::invalid_argument& e) {
    if (std::string_view(e.what()).empty()) __builtin_trap();  // every error says something
  }
  return 0;
}
