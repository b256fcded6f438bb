#include "model/lat_config.hpp"

#include <stdexcept>
#include <string>

#include "rdmasim/latency.hpp"
#include "rdmasim/load_balancer.hpp"
#include "rdmasim/rate_control.hpp"

namespace rdmasim {

std::string_view to_string(TestKind t) {
  switch (t) {
    case TestKind::write: return "write";
    case TestKind::read: return "read";
    case TestKind::send: return "send";
  }
  return "?";
}
std::string_view to_string(Transport t) { return t == Transport::rdma ? "rdma" : "tcp"; }
std::string_view to_string(LinkLayer l) { return l == LinkLayer::roce ? "roce" : "ib"; }
std::string_view to_string(LatTopology t) {
  switch (t) {
    case LatTopology::back_to_back: return "back-to-back";
    case LatTopology::loopback: return "loopback";
    case LatTopology::fabric: return "fabric";
  }
  return "?";
}

const char* frame_loss_option(const FabricConfig& f) {
  if (f.loss > 0) return "--loss";
  for (const LinkFault& x : f.faults) {
    if (x.loss > 0) return "--link-loss";
    if (!x.drop_frames.empty()) return "--drop-frames";
    if (!x.drop_windows.empty()) return "--drop-burst";
  }
  return f.outages.empty() ? nullptr : "--link-down";
}

std::string_view to_string(MemKind m) { return m == MemKind::host ? "host" : "gpu"; }

void validate(const LatConfig& c) {
  auto fail = [](const std::string& m) { throw std::invalid_argument(m); };
  if (c.size.count() <= 0) fail("size must be at least 1 byte, got " + std::to_string(c.size.count()));
  if (c.size.count() > (1LL << 30)) fail("size must be at most 1GiB, got " + std::to_string(c.size.count()));
  rate_control(c.fabric.cc);      // an unknown name lists the registered ones
  load_balancer(c.fabric.routing);
  if (c.iters < 5) fail("iterations must be at least 5 (perftest's minimum), got " + std::to_string(c.iters));
  if (c.iters > 100'000'000) fail("iterations must be at most 100000000, got " + std::to_string(c.iters));
  const auto m = c.mtu.count();
  if (m != 256 && m != 512 && m != 1024 && m != 2048 && m != 4096)
    fail("MTU must be one of 256, 512, 1024, 2048, 4096, got " + std::to_string(m));
  if (c.transport == Transport::tcp) {
    if (c.test != TestKind::send)
      fail("TCP has no one-sided " + std::string(to_string(c.test)) + "; use --test send with --transport tcp");
    if (!c.toggles.kernel_bypass || !c.toggles.zero_copy || c.toggles.inline_data.value_or(false))
      fail("kernel-bypass, zero-copy and inline are RDMA switches; TCP always goes through the kernel and copies");
  }
  if (c.topology == LatTopology::loopback && c.transport != Transport::tcp)
    fail("the loopback topology models kernel TCP over lo; use --transport tcp (RDMA loopback is not modelled)");
  if (c.topology == LatTopology::fabric) {
    if (c.transport == Transport::rdma && c.test == TestKind::read) {
      // The READ path's request and responses cross the fabric unbound to the RC transport: a
      // lost frame would lose its READ, and no rate control paces the responder.
      const auto refuse = [&](const std::string& what) {
        fail("--test read over a switched topology runs on a lossless fabric without congestion control (the "
             "request and responses are not retransmitted or rate-controlled; the verbs API's READs are): drop " +
             what);
      };
      if (const char* what = frame_loss_option(c.fabric)) refuse(what);
      if (c.link_layer == LinkLayer::roce && !c.profile.sw.lossless) refuse("switch.lossless=off");
      if (c.fabric.cc != "none") refuse("--cc " + c.fabric.cc);
      if (c.profile.sw.pfc_watchdog > Time::zero()) refuse("switch.pfc_watchdog (it drops frames)");
    }
    if (c.fabric.from == c.fabric.to) fail("--from and --to name the same host");
  }
  if (c.gpu.any_gpu()) {
    if (c.transport == Transport::tcp && c.gpu.gpudirect.value_or(false))
      fail("--gpudirect on with --transport tcp: GPUDirect RDMA needs an RDMA NIC; kernel TCP can only stage GPU "
           "memory through host buffers (use --gpudirect off)");
    if (c.test == TestKind::read && !resolve(c).gpudirect)
      fail("--gpudirect off with --test read: staged READ is not modelled (GPU buffers with read need GPUDirect)");
    if (c.toggles.inline_data.value_or(false) && c.gpu.mem[0] == MemKind::gpu && resolve(c).gpudirect)
      fail("--inline on with a GPU buffer on the client: the CPU cannot put GPU memory into a WQE");
  } else if (c.gpu.gpudirect.has_value() || c.gpu.staging_chunk.has_value()) {
    fail("--gpudirect and --staging-chunk apply to GPU buffers: add --mem gpu (or --use-cuda)");
  }
  if (c.gpu.staging_chunk) {
    const std::int64_t k = c.gpu.staging_chunk->count();
    if (k <= 0)
      fail("--staging-chunk: chunk size 0 is not a pipeline; give a chunk size in bytes (a multiple of the MTU), or "
           "omit --staging-chunk for non-pipelined staging");
    if (c.transport != Transport::rdma) fail("--staging-chunk: pipelined staging is modelled for rdma");
    if (resolve(c).gpudirect) fail("--staging-chunk applies to the staged path: add --gpudirect off");
    const Bytes seg = c.transport == Transport::rdma ? c.mtu : c.profile.tcp.mss;
    if (k % seg.count() != 0)
      fail("--staging-chunk: " + std::to_string(k) + " is not a multiple of the packet size " +
           std::to_string(seg.count()) + " B (MTU or tcp.mss)");
  }
  if (c.conn.reuse < 0) fail("--conn-reuse: must be at least 1, got " + std::to_string(c.conn.reuse));
  if (c.conn.reuse > 0 && (c.transport != Transport::rdma || c.topology == LatTopology::loopback))
    fail("--connect-per-msg / --conn-reuse model RC connections (rdma, back-to-back or a switched --topology)");
  if (c.test == TestKind::read && c.toggles.inline_data.value_or(false))
    fail("inline data applies to write and send, not read");
  validate(c.profile);
  const Bytes segment = c.transport == Transport::rdma           ? c.mtu
                        : c.topology == LatTopology::loopback ? c.profile.tcp.loopback_mss
                                                              : c.profile.tcp.mss;
  const std::int64_t packets = (c.size.count() + segment.count() - 1) / segment.count();
  if (packets > (1 << 20))
    fail("a " + std::to_string(c.size.count()) + " B message needs " + std::to_string(packets) + " packets of " +
         std::to_string(segment.count()) + " B (limit 1048576): use a larger MTU or a smaller size");
  if (c.toggles.inline_data.value_or(false) && c.size > resolve(c).max_inline)
    throw std::invalid_argument("--inline on: size " + std::to_string(c.size.count()) + " exceeds max inline " +
                                std::to_string(resolve(c).max_inline.count()) + " B (nic.max_inline)");
}

ResolvedToggles resolve(const LatConfig& c) {
  ResolvedToggles t{};
  t.kernel_bypass = c.transport == Transport::rdma && c.toggles.kernel_bypass;
  t.zero_copy = c.transport == Transport::rdma && c.toggles.zero_copy;
  t.interrupt_coalescing = c.toggles.interrupt_coalescing;
  t.busy_poll = c.toggles.busy_poll.value_or(c.transport == Transport::rdma);
  // perftest's default max inline: 220 B for WRITE, 236 B for SEND (RC); READ never inline.
  Bytes max_inline = c.profile.nic.max_inline;
  if (max_inline.count() == 0) max_inline = Bytes(c.test == TestKind::send ? 236 : 220);
  if (c.transport == Transport::tcp || c.test == TestKind::read) max_inline = Bytes{0};
  t.max_inline = max_inline;
  const bool fits = c.size <= max_inline;
  t.inline_data = c.toggles.inline_data.value_or(fits) && c.transport == Transport::rdma && c.test != TestKind::read;
  t.gpudirect = c.gpu.any_gpu() && c.gpu.gpudirect.value_or(c.transport == Transport::rdma);
  // The CPU cannot put GPU memory into a WQE (a staged buffer is host memory: it can).
  if (c.gpu.mem[0] == MemKind::gpu && t.gpudirect) t.inline_data = false;
  return t;
}

}  // namespace rdmasim
