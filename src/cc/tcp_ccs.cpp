// The registry of TCP congestion controls (rdmasim/tcp_cc.hpp): one registration line per
// built-in component, in the order `rdmasim list` shows them.
#include "cc/dctcp.hpp"
#include "core/registry.hpp"
#include "rdmasim/tcp_cc.hpp"

namespace rdmasim {
namespace {

TcpCcSpec reno() {
  return {"reno", "NewReno: slow start, +1 MSS per RTT, fast retransmit and recovery, RTO; ECN not negotiated", "",
          "RFC 5681, RFC 6582, RFC 6298", false, nullptr};
}

Registry<TcpCcSpec>& registry() {
  static Registry<TcpCcSpec> r = [] {
    Registry<TcpCcSpec> x("TCP congestion control");
    x.add(reno());
    x.add(dctcp_tcp_cc());
    return x;
  }();
  return r;
}

}  // namespace

std::vector<const TcpCcSpec*> tcp_congestion_controls() { return registry().pointers(); }

const TcpCcSpec& tcp_congestion_control(std::string_view name) { return registry().get(name); }

void register_tcp_congestion_control(TcpCcSpec spec) { registry().add(std::move(spec)); }

}  // namespace rdmasim
