// Publishing an output file: a regular file is written as PATH.tmp and renamed to PATH only
// when everything was written, so a failed run never leaves a half-written file behind; a
// device, FIFO or socket (/dev/stdout, /dev/null, a pipe to tshark) is written in place and
// never replaced or removed. Every write, flush and close is checked: a failure is an
// OutputError naming the file and the system's reason (the program exits 1).
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

namespace rdmasim {

/// An output file could not be written (disk full, permission, ...).
struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The file a writer of `path` opens: "<path>.tmp", or `path` itself when it is a special file.
std::string staging_path(const std::string& path);
/// Removes a staging file after a failure (nothing when it is the special file itself).
void discard_staging(const std::string& tmp, const std::string& path);
/// Flushes and closes `f` (writing `tmp`), then renames `tmp` to `path` (when they differ). On
/// any failure discards `tmp` and throws OutputError ("WHAT: writing PATH failed: REASON").
void publish_file(std::FILE* f, const std::string& tmp, const std::string& path, std::string_view what);
/// Writes `text` to `path` as above.
void write_text_file(const std::string& path, std::string_view text, std::string_view what);
/// Before anything runs: std::invalid_argument("WHAT PATH: cannot write there") unless the file
/// (or its staging file) can be created; nothing is left behind.
void check_writable(const std::string& path, std::string_view what);

}  // namespace rdmasim
