#include "core/atomic_file.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace rdmasim {
namespace {

bool special(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

[[noreturn]] void failed(std::string_view what, const std::string& path, int e) {
  throw OutputError(std::string(what) + ": writing " + path + " failed: " + std::strerror(e));
}

}  // namespace

std::string staging_path(const std::string& path) { return special(path) ? path : path + ".tmp"; }

void discard_staging(const std::string& tmp, const std::string& path) {
  if (tmp != path) std::remove(tmp.c_str());
}

void publish_file(std::FILE* f, const std::string& tmp, const std::string& path, std::string_view what) {
  errno = 0;
  const bool flushed = std::fflush(f) == 0 && !std::ferror(f);
  const int flush_errno = errno;
  errno = 0;
  const bool closed = std::fclose(f) == 0;
  const int close_errno = errno;
  if (!flushed || !closed) {
    discard_staging(tmp, path);
    const int e = !flushed ? flush_errno : close_errno;
    failed(what, path, e != 0 ? e : EIO);
  }
  if (tmp != path && std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    std::remove(tmp.c_str());
    throw OutputError(std::string(what) + ": cannot rename " + tmp + " to " + path + ": " + std::strerror(e));
  }
}

void check_writable(const std::string& path, std::string_view what) {
  const std::string probe = staging_path(path);
  std::FILE* f = std::fopen(probe.c_str(), probe == path ? "ab" : "wb");
  if (!f) throw std::invalid_argument(std::string(what) + " " + path + ": cannot write there");
  std::fclose(f);
  discard_staging(probe, path);
}

void write_text_file(const std::string& path, std::string_view text, std::string_view what) {
  const std::string tmp = staging_path(path);
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) failed(what, path, errno);
  if (!text.empty() && std::fwrite(text.data(), 1, text.size(), f) != text.size()) {
    const int e = errno;
    std::fclose(f);
    discard_staging(tmp, path);
    failed(what, path, e);
  }
  publish_file(f, tmp, path, what);
}

}  // namespace rdmasim
