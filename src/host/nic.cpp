#include "host/nic.hpp"

namespace rdmasim {
namespace {
std::string pre(int side) { return side == 0 ? "A." : "B."; }
constexpr Bytes kEthDescriptor{16};
}  // namespace

void Nic::append_post(PathSpec& path, int side, bool inline_data) const {
  Cost post;
  post.fixed = v_.post;
  path.serve(side, ResourceKind::core, Category::driver, pre(side) + "verbs.post_send", post);
  const Basis data = inline_data ? Basis::message : Basis::none;
  if (p_.blueflame) {
    // The WQE, with any inline payload, is written through the BlueFlame register.
    pcie_.append_mmio_write(path, side, pre(side) + "pcie.blueflame", data, p_.wqe_size);
    return;
  }
  pcie_.append_mmio_write(path, side, pre(side) + "pcie.doorbell", Basis::none, p_.doorbell_size);
  pcie_.append_dma_read(path, side, pre(side) + "pcie.wqe_fetch", data, p_.wqe_size);
}

void Nic::append_post_list(PathSpec& path, int side, int n, bool inline_data) const {
  if (n <= 1) return append_post(path, side, inline_data);
  Cost post;
  post.fixed = (v_.post - v_.doorbell) * n + v_.doorbell;
  path.serve(side, ResourceKind::core, Category::driver, pre(side) + "verbs.post_send_list", post);
  pcie_.append_mmio_write(path, side, pre(side) + "pcie.doorbell", Basis::none, p_.doorbell_size);
  pcie_.append_dma_read(path, side, pre(side) + "pcie.wqe_list_fetch", inline_data ? Basis::message : Basis::none,
                        p_.wqe_size * n);
}

void Nic::append_tx_jitter(PathSpec& path, int side) const {
  if (p_.tx_jitter <= Time::zero()) return;
  Cost j;
  j.jitter = p_.tx_jitter;
  path.delay(side, Category::queue, pre(side) + "nic.tx_jitter", j);
}

void Nic::append_tx_pipeline(PathSpec& path, int side) const {
  append_tx_jitter(path, side);
  Cost c;
  c.fixed = p_.tx_pipeline;
  path.delay(side, Category::nic, pre(side) + "nic.tx_pipeline", c);
}

void Nic::append_wqe_pipeline(PathSpec& path, int side) const {
  append_tx_jitter(path, side);
  Cost engine;
  engine.fixed = p_.wqe_process;
  path.serve(side, ResourceKind::qp_engine, Category::nic, pre(side) + "nic.wqe_engine", engine);
  if (p_.adapter_wqe > Time::zero()) {
    Cost adapter;
    adapter.fixed = p_.adapter_wqe;
    path.serve(side, ResourceKind::nic_engine, Category::nic, pre(side) + "nic.adapter_engine", adapter);
  }
  Cost rest;
  rest.fixed = p_.tx_pipeline - p_.wqe_process - p_.adapter_wqe;
  path.delay(side, Category::nic, pre(side) + "nic.tx_pipeline", rest);
}

void Nic::append_payload_read(PathSpec& path, int side) const {
  pcie_.append_dma_read(path, side, pre(side) + "pcie.payload_read", Basis::payload, Bytes{});
}

void Nic::append_payload_read(PathSpec& path, int side, const DmaTarget& target) const {
  pcie_.append_dma_read(path, side, pre(side) + "pcie.payload_read", Basis::payload, Bytes{}, target);
}

void Nic::append_payload_write(PathSpec& path, int side, const DmaTarget& target) const {
  pcie_.append_dma_write(path, side, pre(side) + "pcie.payload_write", Basis::payload, Bytes{}, target);
}

void Nic::append_rx_pipeline(PathSpec& path, int side) const {
  Cost c;
  c.fixed = p_.rx_pipeline;
  path.delay(side, Category::nic, pre(side) + "nic.rx_pipeline", c);
}

void Nic::append_payload_write(PathSpec& path, int side) const {
  pcie_.append_dma_write(path, side, pre(side) + "pcie.payload_write", Basis::payload, Bytes{});
}

void Nic::append_cqe_write(PathSpec& path, int side) const {
  pcie_.append_dma_write(path, side, pre(side) + "pcie.cqe_write", Basis::none, p_.cqe_size);
}

void Nic::append_poll(PathSpec& path, int side) const {
  Cost c;
  c.fixed = v_.poll_detect;
  path.serve(side, ResourceKind::core, Category::driver, pre(side) + "verbs.poll", c);
}

void Nic::append_eth_tx_packet(PathSpec& path, int side) const {
  // Doorbell (posted MMIO write), descriptor fetch (a read round trip), then the payload read.
  // The 8 B doorbell and the 16 B descriptor completion are counted in latency only, and the
  // descriptor's bytes ride with the payload completion, so each packet uses the PCIe
  // downstream server once (the budget's tandem formula needs distinct servers per packet).
  Cost lat;
  lat.fixed = pcie_.latency();
  path.delay(side, Category::pcie_dma, pre(side) + "pcie.doorbell", lat);
  Cost rt;
  rt.fixed = pcie_.latency() * 2;
  path.delay(side, Category::pcie_dma, pre(side) + "pcie.descriptor_fetch", rt);
  pcie_.append_dma_read(path, side, pre(side) + "pcie.payload_read", Basis::payload, kEthDescriptor);
  Cost c;
  c.fixed = p_.tx_pipeline;
  path.delay(side, Category::nic, pre(side) + "nic.tx_pipeline", c);
}

}  // namespace rdmasim
