// HostMemory: CPU memory copies. One copy of a message costs copy_fixed + size / copy_bw and
// runs on the host's CPU core (a FIFO server, so copies queue behind other CPU work).
#pragma once

#include <string>

#include "path/path_spec.hpp"
#include "rdmasim/profile.hpp"

namespace rdmasim {

class HostMemory {
 public:
  explicit HostMemory(const MemoryParams& p) : p_(p) {}
  Time copy_time(Bytes size) const { return p_.copy_fixed + serialization_time(size, p_.copy_bw); }
  /// Appends `n` sequential copies of the whole message on `side`'s core.
  void append_copies(PathSpec& path, int side, int n, const std::string& label) const;

 private:
  MemoryParams p_;
};

}  // namespace rdmasim
