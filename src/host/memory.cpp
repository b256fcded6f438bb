#include "host/memory.hpp"

namespace rdmasim {

void HostMemory::append_copies(PathSpec& path, int side, int n, const std::string& label) const {
  Cost c;
  c.fixed = p_.copy_fixed;
  c.rate = p_.copy_bw;
  c.basis = Basis::message;
  for (int i = 0; i < n; ++i) path.serve(side, ResourceKind::core, Category::copy, label + "." + std::to_string(i + 1), c);
}

}  // namespace rdmasim
