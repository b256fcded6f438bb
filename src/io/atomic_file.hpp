// Publishing an output file atomically: it is written as PATH.tmp and renamed to PATH only
// when everything was written, so a failed run never leaves a half-written file behind.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace rdmasim {

/// Flushes and closes `f` (writing `tmp`), then renames `tmp` to `path`. On any failure removes
/// `tmp` and throws std::runtime_error naming the file, prefixed with `what` ("pcap", "trace").
void publish_file(std::FILE* f, const std::string& tmp, const std::string& path, std::string_view what);

}  // namespace rdmasim
