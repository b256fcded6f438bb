#include "host/os_noise.hpp"

#include <cmath>

namespace rdmasim {

bool OsNoise::on() const {
  return p_.poll_noise > Time::zero() || (p_.noise_prob > 0 && p_.noise_max > Time::zero());
}

void OsNoise::append(PathSpec& path, int side, const std::string& label) const {
  if (!on()) return;
  Cost c;
  c.noise_mean = p_.poll_noise;
  c.spike = p_.noise_max;
  c.spike_ppm = static_cast<std::int32_t>(std::lround(p_.noise_prob * 1e6));
  path.delay(side, Category::kernel, label, c);
}

}  // namespace rdmasim
