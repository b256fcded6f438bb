#include "io/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace rdmasim {

void publish_file(std::FILE* f, const std::string& tmp, const std::string& path, std::string_view what) {
  const std::string w(what);
  const bool ok = std::fflush(f) == 0 && !std::ferror(f);
  if (std::fclose(f) != 0 || !ok) {
    std::remove(tmp.c_str());
    throw std::runtime_error(w + ": writing " + tmp + " failed");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    std::remove(tmp.c_str());
    throw std::runtime_error(w + ": cannot rename " + tmp + " to " + path + ": " + std::strerror(e));
  }
}

}  // namespace rdmasim
