// SEND/RECV echo: the client SENDs messages of growing size, the server receives each into a
// posted buffer and SENDs it straight back; the client checks every echoed byte.
#include <cstdio>
#include <vector>

#include "verbs_common.hpp"

using namespace rdmasim;
using namespace rdmasim::verbs;
using namespace rdmasim::verbs::example;

namespace {
constexpr std::uint32_t kMax = 8192;
constexpr int kMessages = 50;
bool g_ok = true;

std::uint32_t size_of(int i) { return static_cast<std::uint32_t>(1 + (i * 167) % kMax); }

Task server(Endpoint& e, std::vector<std::uint8_t>& buf, ibv_mr* mr) {
  for (int i = 0; i < kMessages; ++i) {
    ibv_wc wc;
    if (co_await poll(e.recv_cq, 1, &wc) != 1 || wc.status != IBV_WC_SUCCESS) die("server: receive failed");
    if (wc.byte_len != size_of(i)) g_ok = false;
    post1(e.qp, IBV_WR_SEND, buf.data(), wc.byte_len, mr->lkey);  // echo from the receive buffer
    if (co_await poll(e.send_cq, 1, &wc) != 1 || wc.status != IBV_WC_SUCCESS) die("server: send failed");
    recv1(e.qp, buf.data(), kMax, mr->lkey);
  }
}

Task client(Endpoint& e, std::uint8_t* out, std::uint8_t* in, ibv_mr* mr) {
  for (int i = 0; i < kMessages; ++i) {
    const std::uint32_t n = size_of(i);
    for (std::uint32_t k = 0; k < n; ++k) out[k] = static_cast<std::uint8_t>(k * 7 + i);
    recv1(e.qp, in, kMax, mr->lkey);
    post1(e.qp, IBV_WR_SEND, out, n, mr->lkey);
    ibv_wc wc;
    if (co_await poll(e.send_cq, 1, &wc) != 1 || wc.status != IBV_WC_SUCCESS) die("client: send failed");
    if (co_await poll(e.recv_cq, 1, &wc) != 1 || wc.status != IBV_WC_SUCCESS) die("client: receive failed");
    if (wc.byte_len != n) g_ok = false;
    for (std::uint32_t k = 0; k < n; ++k)
      if (in[k] != out[k]) g_ok = false;
  }
}
}  // namespace

int main() {
  Cluster cluster{ClusterConfig{}};
  Endpoint c = make_endpoint(cluster.open_device(0)), s = make_endpoint(cluster.open_device(1));
  connect_pair(c, s);
  // The client sends from `out` and receives the echo into `in`: one region covers both.
  std::vector<std::uint8_t> cbuf(2 * kMax), sbuf(kMax);
  ibv_mr* cmr = ibv_reg_mr(c.pd, cbuf.data(), cbuf.size(), IBV_ACCESS_LOCAL_WRITE);
  ibv_mr* smr = ibv_reg_mr(s.pd, sbuf.data(), sbuf.size(), IBV_ACCESS_LOCAL_WRITE);
  if (!cmr || !smr) die("reg_mr failed");
  recv1(s.qp, sbuf.data(), kMax, smr->lkey);
  cluster.spawn(0, client(c, cbuf.data(), cbuf.data() + kMax, cmr));
  cluster.spawn(1, server(s, sbuf, smr));
  if (!cluster.run()) die("a side did not finish");
  std::printf("echoed %d messages (1..%u B) in %.2f usec; server CPU %.2f usec\n", kMessages, kMax,
              cluster.now().to_us(), cluster.cpu(1).total().to_us());
  if (!g_ok) die("data mismatch");
  std::printf("data ok\n");
  return 0;
}
