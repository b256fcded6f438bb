#include "verbs/responder.hpp"

#include <algorithm>
#include <cstring>

#include "verbs/device.hpp"

namespace rdmasim::verbs {
namespace {

unsigned remote_right(ibv_wr_opcode op) {
  switch (op) {
    case IBV_WR_RDMA_WRITE:
    case IBV_WR_RDMA_WRITE_WITH_IMM: return IBV_ACCESS_REMOTE_WRITE;
    case IBV_WR_RDMA_READ: return IBV_ACCESS_REMOTE_READ;
    case IBV_WR_ATOMIC_CMP_AND_SWP:
    case IBV_WR_ATOMIC_FETCH_AND_ADD: return IBV_ACCESS_REMOTE_ATOMIC;
    default: return 0;
  }
}

bool consumes_recv(ibv_wr_opcode op) {
  return op == IBV_WR_SEND || op == IBV_WR_SEND_WITH_IMM || op == IBV_WR_RDMA_WRITE_WITH_IMM;
}

}  // namespace

ResponderResult respond(QueuePair& resp, SendSlot& req, std::uint32_t src_qp) {
  ResponderResult r;
  Device& dev = resp.device();
  const unsigned right = remote_right(req.opcode);
  const bool atomic = req.opcode == IBV_WR_ATOMIC_CMP_AND_SWP || req.opcode == IBV_WR_ATOMIC_FETCH_AND_ADD;
  const std::uint64_t len = atomic ? 8 : req.length;
  std::uint8_t* remote = nullptr;
  if (right) {
    if ((resp.attr().qp_access_flags & right) != right) {
      r.nak = Nak::access;
      return r;
    }
    if (len > 0 && dev.mrs().check(req.rkey, resp.pd, req.remote_addr, len, right, &remote) != MrCheck::ok) {
      r.nak = Nak::access;
      return r;
    }
    if (atomic && (req.remote_addr % 8) != 0) {
      r.nak = Nak::invalid;
      return r;
    }
  }
  if (consumes_recv(req.opcode)) {
    RecvSlot* rs = resp.front_recv();
    if (!rs) {
      r.nak = Nak::rnr;
      return r;
    }
    r.has_recv = true;
    ibv_wc& wc = r.recv_wc;
    wc.wr_id = rs->wr_id;
    wc.qp_num = resp.qp_num;
    wc.src_qp = src_qp;
    wc.opcode = req.opcode == IBV_WR_RDMA_WRITE_WITH_IMM ? IBV_WC_RECV_RDMA_WITH_IMM : IBV_WC_RECV;
    wc.byte_len = static_cast<std::uint32_t>(req.length);
    if (req.opcode != IBV_WR_SEND) {
      wc.imm_data = req.imm;
      wc.wc_flags = IBV_WC_WITH_IMM;
    }
    if (req.opcode != IBV_WR_RDMA_WRITE_WITH_IMM) {
      // Scatter the message over the receive's SGEs.
      std::uint64_t capacity = 0;
      for (int i = 0; i < rs->num_sge; ++i) capacity += rs->sge[static_cast<std::size_t>(i)].length;
      if (capacity < req.length) {
        resp.pop_recv();
        wc.status = IBV_WC_LOC_LEN_ERR;
        r.nak = Nak::invalid;
        return r;
      }
      std::uint64_t off = 0;
      for (int i = 0; i < rs->num_sge && off < req.length; ++i) {
        const ibv_sge& g = rs->sge[static_cast<std::size_t>(i)];
        const std::uint64_t n = std::min<std::uint64_t>(g.length, req.length - off);
        std::uint8_t* dst = nullptr;
        if (dev.mrs().check(g.lkey, resp.pd, g.addr, n, IBV_ACCESS_LOCAL_WRITE, &dst) != MrCheck::ok) {
          resp.pop_recv();
          wc.status = IBV_WC_LOC_PROT_ERR;
          r.nak = Nak::op;
          return r;
        }
        if (n) std::memcpy(dst, req.data.data() + off, n);
        off += n;
      }
      r.wrote = req.length > 0;
    }
    resp.pop_recv();
  }
  switch (req.opcode) {
    case IBV_WR_RDMA_WRITE:
    case IBV_WR_RDMA_WRITE_WITH_IMM:
      if (len) std::memcpy(remote, req.data.data(), len);
      r.wrote = r.wrote || len > 0;
      break;
    case IBV_WR_RDMA_READ:
      req.data.resize(len);
      if (len) std::memcpy(req.data.data(), remote, len);
      break;
    case IBV_WR_ATOMIC_CMP_AND_SWP:
    case IBV_WR_ATOMIC_FETCH_AND_ADD: {
      std::uint64_t old;
      std::memcpy(&old, remote, 8);
      const std::uint64_t next = req.opcode == IBV_WR_ATOMIC_FETCH_AND_ADD ? old + req.compare_add
                                 : old == req.compare_add                 ? req.swap
                                                                          : old;
      std::memcpy(remote, &next, 8);
      req.data.resize(8);
      std::memcpy(req.data.data(), &old, 8);
      r.wrote = true;
      break;
    }
    default: break;
  }
  return r;
}

}  // namespace rdmasim::verbs
