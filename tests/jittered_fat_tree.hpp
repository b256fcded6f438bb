// A k-ary fat-tree as a topology file (rdmasim-topology 1) whose every cable is 1-999 mm longer
// than its nominal length, drawn from a fixed LCG: no two causes in different pods coincide to
// the picosecond, so a partitioned run over it is one scheduler's run (docs/parallel.md). Shared
// by the partition tests of fabric runs, open-loop flows and collectives.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>

#include "net/topology.hpp"
#include "net/topology_file.hpp"

namespace rdmasim::testing {

inline std::string jittered_fat_tree(int k) {
  TopologyParams tp;
  tp.name = "fat-tree";
  tp.k = k;
  std::istringstream in(write_topology_file(build_topology(tp)));
  std::string text, line;
  std::uint64_t lcg = 5;
  while (std::getline(in, line)) {
    if (const auto l = line.find(" length="); line.rfind("link ", 0) == 0 && l != std::string::npos) {
      const auto end = line.find('m', l);
      lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
      const long mm = std::stol(line.substr(l + 8, end - l - 8)) * 1000 + 1 + static_cast<long>((lcg >> 33) % 999);
      line.replace(l, end - l + 1, " length=" + std::to_string(mm) + "mm");
    }
    text += line + "\n";
  }
  return text;
}

}  // namespace rdmasim::testing
