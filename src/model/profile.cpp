#include "rdmasim/profile.hpp"

#include "core/registry.hpp"

namespace rdmasim {

std::string_view to_string(PcieTopology t) {
  switch (t) {
    case PcieTopology::pcie_switch: return "switch";
    case PcieTopology::root: return "root";
    case PcieTopology::cross_socket: return "cross-socket";
  }
  return "?";
}

namespace {

// ConnectX-6 200G on PCIe Gen4 x16 (perftest#241's machine class): host-host ib_write_bw
// ~23 GB/s, GPU-GPU GPUDirect with GPU and NIC on different sockets about half.
Profile cx6_200g() {
  Profile p;
  p.name = "cx6-200g";
  p.link.rate = Rate::gbps(200);
  p.nic.tx_window = Bytes(256 * 1024);
  p.nic.read_buffer = Bytes(32 * 1024);
  return p;
}

// A teaching toy's latency simulator: copy 0.8 us x4, kernel 1.5 us x2, irq 0.6 us, queue
// 0.4 us, NIC hardware 1.2 us, link 0.5 us, jitter uniform [0, 0.3] us; a copy cost of 0.25 ms
// per MB as the per-byte copy bandwidth. Everything the toy does not have costs zero.
Profile seed_demo() {
  Profile p;
  p.name = "seed-demo";
  p.link.rate = Rate::gbps(100);
  p.link.length_mm = 100'000;  // 100 m at 2e8 m/s = 0.5 us
  p.pcie.latency = Time::zero();
  p.mem.copy_fixed = Time::ns(800);
  p.mem.copy_bw = Rate::bytes_per_sec(4'000'000'000);  // 1 MB / 0.25 ms
  p.host.tx_copies = 2;
  p.host.rx_copies = 2;
  p.kernel = KernelParams{};
  p.kernel.syscall = Time::zero();
  p.kernel.wakeup = Time::zero();
  p.kernel.tx_stack = Time::ns(1'500);
  p.kernel.rx_stack = Time::ns(1'500);
  p.kernel.tx_per_packet = Time::zero();
  p.kernel.rx_per_packet = Time::zero();
  p.kernel.irq = Time::ns(600);
  p.kernel.backlog = Time::ns(400);
  p.kernel.busy_poll_detect = Time::zero();
  p.nic.tx_pipeline = Time::ns(600);
  p.nic.rx_pipeline = Time::ns(600);
  p.nic.tx_jitter = Time::ns(300);
  p.verbs.post = Time::zero();
  p.verbs.poll_detect = Time::zero();
  p.verbs.doorbell = Time::zero();
  return p;
}

Registry<ProfileSpec>& profile_registry() {
  static Registry<ProfileSpec> r = [] {
    Registry<ProfileSpec> x("profile");
    x.add({"default", "ConnectX-class 100G NIC, PCIe Gen4 x16, Linux kernel stack", "each parameter's own (`rdmasim list`)",
           [] { return Profile{}; }});
    x.add({"seed-demo", "a teaching toy's parameters: fixed costs per step, everything else zero", "estimate", seed_demo});
    x.add({"cx6-200g", "ConnectX-6 200G on PCIe Gen4 x16: 200 Gb/s link, 256 KiB NIC window",
           "perftest issue #241 (ib_write_bw ~23 GB/s host to host)", cx6_200g});
    return x;
  }();
  return r;
}

}  // namespace

std::vector<const ProfileSpec*> profiles() { return profile_registry().pointers(); }

void register_profile(ProfileSpec spec) { profile_registry().add(std::move(spec)); }

std::vector<std::string> profile_names() { return profile_registry().names(); }

Profile make_profile(std::string_view name) {
  Profile p = profile_registry().get(name).make();
  p.name = std::string(name);
  return p;
}


}  // namespace rdmasim
