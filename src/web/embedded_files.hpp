// The files compiled into the binary at build time (cmake/embed_files.cmake): the dashboard's
// assets under their URL paths ("/index.html", "/vendor/echarts.min.js") and the scenario
// presets ("preset:incast-pfc.toml"). Immutable for the life of the program.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace rdmasim::web {

struct EmbeddedFile {
  const char* name;
  const unsigned char* data;
  std::size_t size;
  std::string_view text() const { return {reinterpret_cast<const char*>(data), size}; }
};

const std::vector<EmbeddedFile>& embedded_files();

}  // namespace rdmasim::web
