#include "verbs/verbs_paths.hpp"

#include "host/nic.hpp"
#include "host/pcie.hpp"

namespace rdmasim::verbs {
namespace {
std::string pre(int side) { return side == 0 ? "A." : "B."; }
}  // namespace

VerbsPaths::VerbsPaths(const Profile& p, LinkLayer layer, Bytes mtu, NetworkAppender network)
    : p_(p), layer_(layer), mtu_(mtu), network_(std::move(network)) {}

PathSpec VerbsPaths::post(bool inline_data) const {
  const PcieLink pcie(p_.pcie);
  const Nic nic(p_.nic, p_.verbs, pcie);
  PathSpec path;
  nic.append_post(path, 0, inline_data);
  return path;
}

PathSpec VerbsPaths::request(RequestKind k) const {
  const PcieLink pcie(p_.pcie);
  const Nic nic(p_.nic, p_.verbs, pcie);
  PathSpec path;
  nic.append_wqe_pipeline(path, 0);
  if (k == RequestKind::read) {
    path.split(0, SplitSpec{mtu_, FrameKind::roce_read_request, layer_, true}, "A.nic.read_request");
    network_(path, 0);
    path.mark_last_network(NetRole::rc_data);
    nic.append_rx_pipeline(path, 1);
    path.merge(1, "B.nic.request_done");
    return path;
  }
  const bool send = k == RequestKind::send || k == RequestKind::send_inline;
  const bool inl = k == RequestKind::write_inline || k == RequestKind::send_inline;
  path.split(0, SplitSpec{mtu_, send ? FrameKind::roce_send : FrameKind::roce_write, layer_, false, p_.nic.tx_window},
             "A.nic.segment");
  if (!inl) nic.append_payload_read(path, 0);
  network_(path, 0);
  nic.append_rx_pipeline(path, 1);
  nic.append_payload_write(path, 1);
  path.merge(1, "B.nic.reassemble");
  path.mark_last_network(NetRole::rc_data);
  append_ack(path);
  path.mark_last_network(NetRole::rc_ack);
  return path;
}

PathSpec VerbsPaths::response() const {
  const PcieLink pcie(p_.pcie);
  const Nic nic(p_.nic, p_.verbs, pcie);
  PathSpec path;
  nic.append_tx_pipeline(path, 1);
  path.split(1, SplitSpec{mtu_, FrameKind::roce_read_response, layer_, false, p_.nic.tx_window}, "B.nic.read_response");
  nic.append_payload_read(path, 1);
  network_(path, 1);
  nic.append_rx_pipeline(path, 0);
  nic.append_payload_write(path, 0);
  path.merge(0, "A.nic.reassemble");
  return path;
}

PathSpec VerbsPaths::ack() const {
  PathSpec path;
  append_ack(path);
  return path;
}

void VerbsPaths::append_ack(PathSpec& path) const {
  const PcieLink pcie(p_.pcie);
  const Nic nic(p_.nic, p_.verbs, pcie);
  Cost c;
  c.fixed = p_.nic.tx_pipeline;
  path.delay(1, Category::nic, "B.nic.tx_pipeline", c);
  path.split(1, SplitSpec{mtu_, FrameKind::roce_ack, layer_, true}, "B.nic.ack");
  network_(path, 1);
  nic.append_rx_pipeline(path, 0);
  path.merge(0, "A.nic.ack_done");
}

PathSpec VerbsPaths::cqe(int side) const {
  const PcieLink pcie(p_.pcie);
  const Nic nic(p_.nic, p_.verbs, pcie);
  PathSpec path;
  nic.append_cqe_write(path, side);
  return path;
}

PathSpec VerbsPaths::poll(const Profile& p) {
  const PcieLink pcie(p.pcie);
  const Nic nic(p.nic, p.verbs, pcie);
  PathSpec path;
  nic.append_poll(path, 0);
  return path;
}

PathSpec VerbsPaths::post_recv(const Profile& p) {
  PathSpec path;
  Cost c;
  c.fixed = p.verbs.post;
  path.serve(0, ResourceKind::core, Category::driver, pre(0) + "verbs.post_recv", c);
  return path;
}

}  // namespace rdmasim::verbs
