// libFuzzer target for the scenario parser (TOML, or JSON when built with
// -DRDMASIM_FUZZ_JSON): any input must either parse into a validated configuration or throw
// std::invalid_argument with a message, and a scenario that parses is written back by to_toml
// into a document that parses to the same scenario; anything else (a crash, another exception,
// a sanitizer report) is a bug. Run: `make fuzz-smoke` (seconds, part of `make test`) or, for
// longer, ./build/fuzz/scenario_toml_fuzz -max_total_time=600 fuzz/corpus/toml.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
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
    const rdmasim::Scenario s = rdmasim::parse_scenario(text, "fuzz", json);
    // to_toml writes what parses back to the same document (a parameter set twice keeps its last value).
    const std::string again = rdmasim::to_toml(s);
    if (rdmasim::to_toml(rdmasim::parse_scenario(again, "again")) != again) __builtin_trap();
    // Keep the fuzzer away from minute-long topologies: configuration only, no simulation.
    if (s.options.fabric.k > 16 || s.options.fabric.hosts > 4096 || s.options.fabric.leaves * s.options.fabric.hosts_per_leaf > 4096)
      return 0;
    rdmasim::config::scenario_config(s);
  } catch (const std::invalid_argument& e) {
    if (std::string_view(e.what()).empty()) __builtin_trap();  // every error says something
  }
  return 0;
}
