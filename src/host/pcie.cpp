#include "host/pcie.hpp"

#include <algorithm>

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

Cost PcieLink::socket_cost(Basis basis, Bytes extra) const {
  Cost c = transfer_cost(basis, extra);
  c.rate = p_.socket_bw;
  return c;
}

DmaTarget PcieLink::gpu_target(PcieTopology t) const {
  switch (t) {
    case PcieTopology::pcie_switch: return {p_.switch_latency, false};
    case PcieTopology::root: return {p_.latency * 2, false};
    case PcieTopology::cross_socket: return {p_.latency * 2 + p_.socket_latency, true};
  }
  return {p_.latency, false};
}

Bytes PcieLink::read_window(const PcieParams& p, Bytes read_buffer) {
  if (read_buffer.count() <= 0) return Bytes{};
  const std::int64_t m = p.max_read_request.count();
  return Bytes(std::max<std::int64_t>(m, read_buffer.count() / m * m));
}

void PcieLink::append_dma_read(PathSpec& path, int side, const std::string& label, Basis basis, Bytes extra,
                               const DmaTarget& t) const {
  Cost lat;
  lat.fixed = t.latency;
  path.delay(side, Category::pcie_dma, label + ".request", lat);
  if (t.cross_socket)
    path.serve(side, ResourceKind::socket_down, Category::pcie_dma, label + ".socket", socket_cost(basis, extra));
  path.serve(side, ResourceKind::pcie_down, Category::pcie_dma, label + ".completion", transfer_cost(basis, extra));
  path.delay(side, Category::pcie_dma, label + ".latency", lat);
}

void PcieLink::append_dma_write(PathSpec& path, int side, const std::string& label, Basis basis, Bytes extra,
                                const DmaTarget& t) const {
  path.serve(side, ResourceKind::pcie_up, Category::pcie_dma, label + ".tlp", transfer_cost(basis, extra));
  if (t.cross_socket)
    path.serve(side, ResourceKind::socket_up, Category::pcie_dma, label + ".socket", socket_cost(basis, extra));
  Cost lat;
  lat.fixed = t.latency;
  path.delay(side, Category::pcie_dma, label + ".latency", lat);
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
