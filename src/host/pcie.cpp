#include "host/pcie.hpp"

namespace rdmasim {

Rate PcieLink::raw_rate() const {
  // Transfer rate per lane in MT/s and the line code's efficiency.
  static constexpr std::int64_t mts[] = {0, 2'500, 5'000, 8'000, 16'000, 32'000};
  const bool old_code = p_.gen <= 2;  // 8b/10b
  const i128 bits = static_cast<i128>(mts[p_.gen]) * 1'000'000 * p_.lanes;
  const i128 rate = old_code ? bits * 8 / 10 : bits * 128 / 130;
  return Rate::bps(static_cast<std::int64_t>(rate));
}

Cost PcieLink::transfer_cost(Basis basis, Bytes extra) const {
  Cost c;
  c.rate = raw_rate();
  c.basis = basis;
  c.bytes = extra;
  c.tlp_payload = p_.max_payload;
  c.tlp_overhead = p_.tlp_overhead;
  return c;
}

Time PcieLink::transfer_time(Bytes b) const { return transfer_cost(Basis::none, b).eval({}, {}, {}); }

double PcieLink::effective_gbytes_per_sec() const {
  const double raw = static_cast<double>(raw_rate().bits_per_sec()) / 8e9;
  const double mps = static_cast<double>(p_.max_payload.count());
  return raw * mps / (mps + static_cast<double>(p_.tlp_overhead.count()));
}

void PcieLink::append_mmio_write(PathSpec& path, int side, const std::string& label, Basis basis, Bytes extra) const {
  path.serve(side, ResourceKind::pcie_down, Category::pcie_dma, label + ".tlp", transfer_cost(basis, extra));
  Cost lat;
  lat.fixed = p_.latency;
  path.delay(side, Category::pcie_dma, label + ".latency", lat);
}

void PcieLink::append_dma_read(PathSpec& path, int side, const std::string& label, Basis basis, Bytes extra) const {
  Cost lat;
  lat.fixed = p_.latency;
  path.delay(side, Category::pcie_dma, label + ".request", lat);
  path.serve(side, ResourceKind::pcie_down, Category::pcie_dma, label + ".completion", transfer_cost(basis, extra));
  path.delay(side, Category::pcie_dma, label + ".latency", lat);
}

void PcieLink::append_dma_write(PathSpec& path, int side, const std::string& label, Basis basis, Bytes extra) const {
  path.serve(side, ResourceKind::pcie_up, Category::pcie_dma, label + ".tlp", transfer_cost(basis, extra));
  Cost lat;
  lat.fixed = p_.latency;
  path.delay(side, Category::pcie_dma, label + ".latency", lat);
}

}  // namespace rdmasim
