// The parameter table: every profile field as "group.field" with its type, range, help and
// source; apply_override and validate read only this table (plus the relations between
// parameters, which validate lists).
#include "rdmasim/profile.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/number_text.hpp"
#include "rdmasim/buffer_policy.hpp"
#include "rdmasim/queue_scheduler.hpp"

namespace rdmasim {
namespace {

std::int64_t parse_int(std::string_view v) {
  std::int64_t x = 0;
  bool any = false, neg = false;
  std::size_t i = 0;
  if (!v.empty() && v[0] == '-') neg = true, i = 1;
  for (; i < v.size(); ++i) {
    if (v[i] < '0' || v[i] > '9') throw std::invalid_argument("expected an integer, got \"" + std::string(v) + "\"");
    if (x > (INT64_MAX - 9) / 10) throw std::invalid_argument("integer out of range: \"" + std::string(v) + "\"");
    x = x * 10 + (v[i] - '0');
    any = true;
  }
  if (!any) throw std::invalid_argument("expected an integer, got \"" + std::string(v) + "\"");
  return neg ? -x : x;
}

double parse_number(std::string_view v) {
  double x = 0;
  if (!number_from_text(v, x))
    throw std::invalid_argument("expected a number, got \"" + std::string(v) + "\"");
  return x;
}

std::string format_number(double x) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

bool parse_bool(std::string_view v) {
  if (v == "on" || v == "true" || v == "1") return true;
  if (v == "off" || v == "false" || v == "0") return false;
  throw std::invalid_argument("expected on|off, got \"" + std::string(v) + "\"");
}

std::string format_bytes(Bytes b) { return std::to_string(b.count()) + "B"; }
std::string format_length(std::int64_t mm) {
  if (mm % 1000 == 0) return std::to_string(mm / 1000) + "m";
  return std::to_string(mm) + "mm";
}

// switch.ets_weights: eight integers, "50,0,0,50,0,0,0,0".
std::string format_weights(const std::array<int, 8>& w) {
  std::string s;
  for (std::size_t i = 0; i < w.size(); ++i) s += (i ? "," : "") + std::to_string(w[i]);
  return s;
}
std::array<int, 8> parse_weights(std::string_view v) {
  if (std::count(v.begin(), v.end(), ',') != 7)
    throw std::invalid_argument("expected 8 comma-separated weights (one per traffic class), got \"" + std::string(v) + "\"");
  std::array<int, 8> w{};
  std::size_t at = 0;
  for (int& x : w) {
    const std::size_t comma = std::min(v.find(',', at), v.size());
    const std::int64_t n = parse_int(v.substr(at, comma - at));
    if (n < 0 || n > 100) throw std::invalid_argument("each weight must be 0..100, got " + std::to_string(n));
    x = static_cast<int>(n);
    at = comma + 1;
  }
  return w;
}
bool weights_ok(const std::array<int, 8>& w) {
  int sum = 0;
  for (int x : w) {
    if (x < 0 || x > 100) return false;
    sum += x;
  }
  return sum == 0 || sum == 100;
}

// A length in millimetres, as a range endpoint.
struct Length {
  std::int64_t mm;
};

// Every range compares one number per value.
std::int64_t scalar(Time t) { return t.count_ps(); }
std::int64_t scalar(Rate r) { return r.bits_per_sec(); }
std::int64_t scalar(Bytes b) { return b.count(); }
std::int64_t scalar(Length l) { return l.mm; }
double scalar(double d) { return d; }
template <typename Int>
  requires std::is_integral_v<Int>
std::int64_t scalar(Int v) {
  return v;
}

// Range endpoints in the largest unit that divides them exactly (so they parse back).
std::string in_largest_unit(std::int64_t v, std::initializer_list<std::pair<std::int64_t, const char*>> units) {
  if (v == 0) return std::string("0") + units.begin()->second;
  for (auto [scale, suffix] : units)
    if (v % scale == 0) return std::to_string(v / scale) + suffix;
  return std::to_string(v) + std::data(units)[units.size() - 1].second;
}
std::string range_text(Time t) {
  return in_largest_unit(t.count_ps(),
                         {{1'000'000'000'000, "s"}, {1'000'000'000, "ms"}, {1'000'000, "us"}, {1'000, "ns"}, {1, "ps"}});
}
std::string range_text(Rate r) {
  return in_largest_unit(r.bits_per_sec(),
                         {{1'000'000'000'000, "Tbps"}, {1'000'000'000, "Gbps"}, {1'000'000, "Mbps"}, {1, "bps"}});
}
std::string range_text(Bytes b) {
  return in_largest_unit(b.count(), {{std::int64_t{1} << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}, {1, "B"}});
}
std::string range_text(Length l) { return in_largest_unit(l.mm, {{1'000'000, "km"}, {1'000, "m"}, {1, "mm"}}); }
std::string range_text(std::int64_t v) { return std::to_string(v); }

// The values a time, rate, size, length or integer parameter accepts: lo..hi, and 0 as well
// where 0 switches the feature off.
template <typename T>
struct Bounds {
  T lo, hi;
  bool zero_off = false;
  std::string text() const { return (zero_off ? "0 (off) or " : "") + range_text(lo) + ".." + range_text(hi); }
  bool contains(std::int64_t v) const { return (zero_off && v == 0) || (scalar(lo) <= v && v <= scalar(hi)); }
};
// A real parameter's interval: [lo, hi] or (lo, hi].
struct Interval {
  double lo, hi;
  bool lo_open = false;
  std::string text() const { return (lo_open ? "(" : "[") + format_number(lo) + ", " + format_number(hi) + "]"; }
  bool contains(double v) const { return (lo_open ? v > lo : v >= lo) && v <= hi; }
};
// An integer parameter that takes one of a few values.
struct OneOf {
  std::vector<std::int64_t> values;
  std::string text() const {
    std::string s;
    for (std::size_t i = 0; i < values.size(); ++i)
      s += (i == 0 ? "" : i + 1 == values.size() ? " or " : ", ") + std::to_string(values[i]);
    return s;
  }
  bool contains(std::int64_t v) const { return std::find(values.begin(), values.end(), v) != values.end(); }
};
// A switch or a name: whatever parses is in range.
struct Parsed {
  std::string what;
  std::string text() const { return what; }
  template <typename V>
  bool contains(V) const {
    return true;
  }
};

// Time and rate parameters mostly share one range: times up to 10 s and rates 1 Mb/s..100 Tb/s
// keep every simulated time comfortably inside int64 picoseconds.
constexpr Bounds<Time> kDuration{Time::zero(), Time::ms(10'000)};
constexpr Bounds<Time> kPositiveDuration{Time::ps(1), Time::ms(10'000)};
constexpr Bounds<Rate> kRate{Rate::bps(1'000'000), Rate::gbps(100'000)};
constexpr std::int64_t kGiB = std::int64_t{1} << 30;
constexpr Bounds<Bytes> kBufferBytes{Bytes(0), Bytes(16 * kGiB)};
constexpr Bounds<Time> kLongDuration{Time::zero(), Time::ms(100'000)};  // timers where 0 is off
constexpr Bounds<Length> kCableLength{Length{0}, Length{100'000'000}};
constexpr Bounds<std::int64_t> kPriority{0, 7};                        // 802.1p priority / traffic class
const Interval kGain{0, 1, true};                                       // EWMA gains and factors

template <typename Group, typename Field, typename Range, typename Format, typename Parse>
ParamDef make_param(std::string key, std::string type, Group Profile::*g, Field Group::*f, std::string help,
                    std::string src, Range range, Format format, Parse parse) {
  return {std::move(key),
          std::move(type),
          std::move(help),
          std::move(src),
          [=](const Profile& p) { return format(p.*g.*f); },
          [=](Profile& p, std::string_view v) { p.*g.*f = parse(v); },
          range.text(),
          [=](const Profile& p) { return range.contains(scalar(p.*g.*f)); }};
}

template <typename Group, typename Field>
ParamDef time_param(std::string key, Group Profile::*g, Field Group::*f, std::string help, std::string src,
                    Bounds<Time> range = kDuration) {
  return make_param(std::move(key), "time", g, f, std::move(help), std::move(src), range, format_time, parse_time);
}
template <typename Group>
ParamDef rate_param(std::string key, Rate Group::*f, Group Profile::*g, std::string help, std::string src,
                    Bounds<Rate> range = kRate) {
  return make_param(std::move(key), "rate", g, f, std::move(help), std::move(src), range, format_rate, parse_rate);
}
template <typename Group, typename Range>
ParamDef bytes_param(std::string key, Bytes Group::*f, Group Profile::*g, std::string help, std::string src,
                     Range range) {
  return make_param(std::move(key), "bytes", g, f, std::move(help), std::move(src), range, format_bytes, parse_bytes);
}
template <typename Group>
ParamDef length_param(std::string key, std::int64_t Group::*f, Group Profile::*g, std::string help, std::string src,
                      Bounds<Length> range) {
  return make_param(std::move(key), "length", g, f, std::move(help), std::move(src), range, format_length,
                    parse_length_mm);
}
template <typename Group, typename Int, typename Range>
ParamDef int_param(std::string key, Int Group::*f, Group Profile::*g, std::string help, std::string src, Range range) {
  return make_param(
      std::move(key), "int", g, f, std::move(help), std::move(src), range, [](Int x) { return std::to_string(x); },
      [](std::string_view v) {
        const std::int64_t x = parse_int(v);
        if (x < std::numeric_limits<Int>::min() || x > std::numeric_limits<Int>::max())
          throw std::invalid_argument("integer out of range: \"" + std::string(v) + "\"");
        return static_cast<Int>(x);
      });
}
template <typename Group>
ParamDef bool_param(std::string key, bool Group::*f, Group Profile::*g, std::string help, std::string src) {
  return make_param(
      std::move(key), "bool", g, f, std::move(help), std::move(src), Parsed{"on|off"},
      [](bool b) { return std::string(b ? "on" : "off"); }, parse_bool);
}
template <typename Group>
ParamDef number_param(std::string key, double Group::*f, Group Profile::*g, std::string help, std::string src,
                      Interval range) {
  return make_param(std::move(key), "number", g, f, std::move(help), std::move(src), range, format_number,
                    parse_number);
}

std::vector<ParamDef> build_params() {
  using P = Profile;
  std::vector<ParamDef> r;
  // link
  r.push_back(rate_param("link.rate", &LinkParams::rate, &P::link, "link signalling rate (data rate after line coding)",
                         "ConnectX-6 100G port"));
  r.push_back(length_param("link.length", &LinkParams::length_mm, &P::link, "cable/fibre length between the two ports",
                           "3 m DAC, typical in-rack", kCableLength));
  r.push_back(int_param("link.velocity", &LinkParams::velocity_mps, &P::link,
                        "signal velocity in the medium, m/s (propagation = length / velocity)", "~2/3 c, textbook", Bounds<std::int64_t>{1'000'000, 299'792'458}));
  // switch
  r.push_back(time_param("switch.pipeline", &P::sw, &SwitchParams::pipeline, "switch forwarding pipeline latency",
                         "Spectrum-2 '300ns' (Linley 2017)"));
  r.push_back(time_param("switch.ib_pipeline", &P::sw, &SwitchParams::ib_pipeline,
                         "InfiniBand switch forwarding pipeline latency (--link-layer ib; switch.pipeline is Ethernet's)",
                         "estimate: HDR InfiniBand switches are quoted at 130 ns port to port (NVIDIA Quantum "
                         "QM87xx), NDR at under 150 ns (router-switch.com, Quantum-2 QM9700)"));
  r.push_back(bool_param("switch.cut_through", &SwitchParams::cut_through, &P::sw,
                         "cut-through forwarding (off: store-and-forward)", "Ethernet/IB datacenter ASICs"));
  r.push_back(bytes_param("switch.cut_through_bytes", &SwitchParams::cut_through_bytes, &P::sw,
                          "bytes a cut-through switch receives before it starts forwarding", "L2-L4 + BTH headers", Bounds<Bytes>{Bytes(1), Bytes(256)}));
  r.push_back(length_param("switch.fabric_length", &SwitchParams::fabric_length_mm, &P::sw,
                           "cable length between switches", "10 m in-row fibre, estimate", kCableLength));
  r.push_back(bytes_param("switch.buffer", &SwitchParams::buffer, &P::sw, "shared packet buffer per switch",
                          "16 MiB: Spectrum/Trident3-class 100G ToR", Bounds<Bytes>{Bytes(64 * 1024), Bytes(16 * kGiB)}));
  r.push_back({"switch.buffer_policy", "choice",
               "which frames of a lossy class the shared buffer takes (`rdmasim list` shows the policies)",
               "dynamic thresholds: the default of datacenter switch ASICs' shared buffers",
               [](const P& p) { return p.sw.buffer_policy; },
               [](P& p, std::string_view v) { p.sw.buffer_policy = buffer_policy(v).name; },
               "a registered buffer policy", [](const P&) { return true; }});
  r.push_back(number_param("switch.dt_alpha", &SwitchParams::dt_alpha, &P::sw,
                           "dynamic threshold: a lossy egress queue may hold alpha x the free shared buffer",
                           "Choudhury & Hahne DT; alpha 1 is a common default", Interval{0, 64, true}));
  r.push_back({"switch.scheduler", "choice",
               "which traffic class a switch port transmits next (`rdmasim list` shows the schedulers)",
               "strict priority: 802.1Q's default transmission selection",
               [](const P& p) { return p.sw.scheduler; },
               [](P& p, std::string_view v) { p.sw.scheduler = queue_scheduler(v).name; },
               "a registered queue scheduler", [](const P&) { return true; }});
  r.push_back({"switch.ets_weights", "weights",
               "--set switch.scheduler=ets: per traffic class 0..7, 0 = strict priority (served first), else the "
               "class's share of the port in percent",
               "estimate: a common RoCE QoS setup, RDMA (3) and TCP (0) 50 % each, CNPs (6) strict",
               [](const P& p) { return format_weights(p.sw.ets_weights); },
               [](P& p, std::string_view v) { p.sw.ets_weights = parse_weights(v); },
               "8 weights, each 0 to 100; the non-zero ones sum to 100", [](const P& p) { return weights_ok(p.sw.ets_weights); }});
  r.push_back(bytes_param("switch.queue_limit", &SwitchParams::queue_limit, &P::sw,
                          "static threshold: the most a lossy egress queue may hold",
                          "estimate: a 16 MiB buffer over 32 ports", Bounds<Bytes>{Bytes(1), Bytes(16 * kGiB)}));
  r.push_back(int_param("switch.data_tc", &SwitchParams::data_tc, &P::sw,
                        "traffic class (802.1p priority, 0..7) of RDMA data and ACKs", "RoCE convention: priority 3", kPriority));
  r.push_back(bool_param("switch.lossless", &SwitchParams::lossless, &P::sw,
                         "RoCE: the data class is lossless with PFC (off: lossy, drops on overflow)",
                         "lossless RoCE deployments"));
  r.push_back(bytes_param("switch.pfc_xoff", &SwitchParams::pfc_xoff, &P::sw,
                          "PFC: XOFF when an ingress port/priority holds more than this", "estimate (mlnx_qos-style)", Bounds<Bytes>{Bytes(1), Bytes(16 * kGiB)}));
  r.push_back(bytes_param("switch.pfc_xon_delta", &SwitchParams::pfc_xon_delta, &P::sw,
                          "PFC: XON once the ingress port/priority is below xoff - delta", "estimate: 2 MTU frames", kBufferBytes));
  r.push_back(bytes_param("switch.pfc_headroom", &SwitchParams::pfc_headroom, &P::sw,
                          "PFC headroom per ingress port/priority; 0 = sized from the cable "
                          "((2 x propagation + switch pipeline) x rate + 3 max frames)",
                          "802.1Qbb headroom rule", kBufferBytes));
  r.push_back(bool_param("switch.ecn", &SwitchParams::ecn, &P::sw, "ECN marking (RED on egress queue depth)",
                         "DCQCN deployments"));
  r.push_back(bytes_param("switch.ecn_kmin", &SwitchParams::ecn_kmin, &P::sw, "ECN: no marking below this queue depth",
                          "DCQCN paper (SIGCOMM'15): 5 KB", kBufferBytes));
  r.push_back(bytes_param("switch.ecn_kmax", &SwitchParams::ecn_kmax, &P::sw, "ECN: every packet marked above this depth",
                          "DCQCN paper: 200 KB", kBufferBytes));
  r.push_back(number_param("switch.ecn_pmax", &SwitchParams::ecn_pmax, &P::sw,
                           "ECN: marking probability at kmax (linear from kmin)", "DCQCN paper: 1 %", Interval{0, 1}));
  r.push_back(bytes_param("switch.ib_vl_buffer", &SwitchParams::ib_vl_buffer, &P::sw,
                          "InfiniBand: input buffer per port and VL, advertised as credits", "estimate", Bounds<Bytes>{Bytes(1024), Bytes(16 * kGiB)}));
  r.push_back(time_param("switch.deadlock_detect", &P::sw, &SwitchParams::deadlock_detect,
                         "PFC deadlock: a cycle in the waits-for graph of paused queues that persists this long "
                         "is reported and stops the run (0: off)",
                         "estimate: far above transient incast pauses (tens of us)", kLongDuration));
  r.push_back(time_param("switch.pfc_watchdog", &P::sw, &SwitchParams::pfc_watchdog,
                         "PFC watchdog: a queue paused this long while holding frames drops them and every frame "
                         "for it until restore (0: off)",
                         "SONiC/Mellanox PFC watchdog (operators: 100-200 ms)", kLongDuration));
  r.push_back(time_param("switch.pfc_watchdog_restore", &P::sw, &SwitchParams::pfc_watchdog_restore,
                         "PFC watchdog: how long a queue stays in drop mode before it obeys pause again",
                         "SONiC default restoration time 200 ms", Bounds<Time>{Time::ps(1), Time::ms(100'000)}));
  r.push_back(time_param("switch.flowlet_timeout", &P::sw, &SwitchParams::flowlet_timeout,
                         "--routing flowlet: a packet this long after its flow's previous one starts a new flowlet",
                         "ConWeave's ns-3 LetflowRouting (Song et al., SIGCOMM 2023): 100 us", Bounds<Time>{Time::ps(1), Time::ms(1'000)}));
  r.push_back(int_param("switch.flowlet_table", &SwitchParams::flowlet_table, &P::sw,
                        "--routing flowlet: flowlet slots per switch (indexed by the flow's hash)",
                        "estimate: 4096 (LetFlow keeps a hash-indexed flowlet table per switch)", Bounds<std::int64_t>{1, 1 << 20}));
  r.push_back(time_param("switch.route_convergence", &P::sw, &SwitchParams::route_convergence,
                         "link down/up (--link-down): time until the switches' routing reflects the change; until "
                         "then frames routed to a down link are lost",
                         "estimate: fast BGP/BFD failover in a DC fabric, 10 ms", kLongDuration));
  // pcie
  r.push_back(int_param("pcie.gen", &PcieParams::gen, &P::pcie, "PCIe generation 1..5 (transfer rate and line code)",
                        "Gen4 server", Bounds<std::int64_t>{1, 5}));
  r.push_back(int_param("pcie.lanes", &PcieParams::lanes, &P::pcie, "PCIe link width", "x16 NIC slot", OneOf{{1, 2, 4, 8, 16}}));
  r.push_back(bytes_param("pcie.max_payload", &PcieParams::max_payload, &P::pcie,
                          "max TLP payload (MPS); transfers are cut into TLPs of this size", "256 B typical MPS", Bounds<Bytes>{Bytes(128), Bytes(4096)}));
  r.push_back(bytes_param("pcie.tlp_overhead", &PcieParams::tlp_overhead, &P::pcie,
                          "bytes added per TLP (header, sequence, LCRC, framing)", "PCIe spec; Neugebauer SIGCOMM'18", Bounds<Bytes>{Bytes(0), Bytes(4096)}));
  r.push_back(time_param("pcie.latency", &P::pcie, &PcieParams::latency,
                         "one traversal between device and root complex/memory", "estimate; DMA read RTT ~500 ns (Neugebauer SIGCOMM'18)"));
  r.push_back({"pcie.topology", "choice",
               "where a GPU sits relative to the NIC: switch (one PCIe switch), root (both under the root "
               "complex), cross-socket (through the inter-socket link)",
               "DGX-style: GPU and NIC under one PCIe switch",
               [](const P& p) { return std::string(to_string(p.pcie.topology)); },
               [](P& p, std::string_view v) {
                 if (v == "switch") p.pcie.topology = PcieTopology::pcie_switch;
                 else if (v == "root") p.pcie.topology = PcieTopology::root;
                 else if (v == "cross-socket") p.pcie.topology = PcieTopology::cross_socket;
                 else throw std::invalid_argument("expected switch, root or cross-socket, got \"" + std::string(v) + "\"");
               },
               "switch|root|cross-socket", [](const P&) { return true; }});
  r.push_back(time_param("pcie.switch_latency", &P::pcie, &PcieParams::switch_latency,
                         "topology switch: one peer-to-peer traversal NIC <-> PCIe switch <-> GPU",
                         "estimate: PCIe Gen4 switch port-to-port ~100-150 ns"));
  r.push_back(time_param("pcie.socket_latency", &P::pcie, &PcieParams::socket_latency,
                         "topology cross-socket: one crossing of the inter-socket link (UPI/xGMI) by a TLP",
                         "estimate: chosen so cross-socket GPUDirect halves (perftest#241)"));
  r.push_back(rate_param("pcie.socket_bw", &PcieParams::socket_bw, &P::pcie,
                         "topology cross-socket: inter-socket link bandwidth per direction",
                         "estimate: one UPI link ~20 GB/s"));
  r.push_back(bytes_param("pcie.max_read_request", &PcieParams::max_read_request, &P::pcie,
                          "MRRS: bytes one DMA read request asks for (nic.read_buffer holds whole requests)",
                          "512 B: common BIOS/driver default", OneOf{{128, 256, 512, 1024, 2048, 4096}}));
  // gpu
  r.push_back(time_param("gpu.copy_latency", &P::gpu, &GpuParams::copy_latency,
                         "device<->host copy: launch and completion latency of one cudaMemcpyAsync",
                         "estimate: a few us per launch+sync"));
  r.push_back(rate_param("gpu.copy_bw", &GpuParams::copy_bw, &P::gpu, "device<->host copy engine bandwidth",
                         "A100 Gen4 x16 nvbandwidth H2D 25.13 GB/s"));
  r.push_back(rate_param("gpu.nvlink_bw", &GpuParams::nvlink_bw, &P::gpu,
                         "NVLink bandwidth per GPU and direction, through the NVSwitch (0: no NVLink, GPUs of a server "
                         "copy through PCIe)",
                         "HGX A100 blog: 600 GB/s per GPU both ways; HGX H100 blog: 900 GB/s (server profiles)",
                         Bounds<Rate>{kRate.lo, kRate.hi, true}));
  r.push_back(time_param("gpu.nvlink_latency", &P::gpu, &GpuParams::nvlink_latency,
                         "one NVLink transfer between GPUs of a server: fixed time", "estimate"));
  r.push_back(number_param("gpu.nvlink_efficiency", &GpuParams::nvlink_efficiency, &P::gpu,
                           "share of gpu.nvlink_bw a collective's payload gets (protocol overhead)",
                           "nccl-tests#212: H100 line rate 450 GB/s, NCCL's effective 370 GB/s (0.82)", kGain));
  r.push_back(number_param("gpu.nvls_efficiency", &GpuParams::nvls_efficiency, &P::gpu,
                           "share of gpu.nvlink_bw NVLink SHARP's traffic gets: reductions inside the NVSwitch and its "
                           "multicast (--algo nvls; 0: no NVLS, as before NVSwitch gen 3)",
                           "nccl-tests#212: 8 x H100 NVLS peak busbw ~480 GB/s, algbw ~275 GB/s (dgx-h100)",
                           Interval{0, 1}));
  // conn
  r.push_back(time_param("conn.cm_process", &P::conn, &ConnParams::cm_process,
                         "CM processing of one REQ/REP/RTU/address MAD on the receiving host", "estimate"));
  r.push_back(bytes_param("conn.mad_size", &ConnParams::mad_size, &P::conn, "CM MAD size on the wire",
                          "IB spec: 256 B MADs", Bounds<Bytes>{Bytes(1), Bytes(4096)}));
  r.push_back(time_param("conn.qp_create", &P::conn, &ConnParams::qp_create, "ibv_create_qp", "estimate"));
  r.push_back(time_param("conn.qp_transition", &P::conn, &ConnParams::qp_transition,
                         "one ibv_modify_qp state transition (firmware command)", "estimate"));
  r.push_back(time_param("conn.reg_fixed", &P::conn, &ConnParams::reg_fixed, "ibv_reg_mr fixed cost", "estimate"));
  r.push_back(time_param("conn.pin_per_page", &P::conn, &ConnParams::pin_per_page,
                         "ibv_reg_mr: pin and map one page",
                         "~98 ms/GB sequential registration (Mooncake#855) = 0.38 us per 4 KiB page"));
  r.push_back(bytes_param("conn.page_size", &ConnParams::page_size, &P::conn, "page size registration pins",
                          "4 KiB pages", Bounds<Bytes>{Bytes(512), Bytes(kGiB)}));
  // memory
  r.push_back(time_param("mem.copy_fixed", &P::mem, &MemoryParams::copy_fixed, "fixed cost of one memcpy", "estimate"));
  r.push_back(rate_param("mem.copy_bw", &MemoryParams::copy_bw, &P::mem, "memcpy bandwidth",
                         "measured on a reference Linux host: 9.75 GB/s single-thread 256 MiB memcpy"));
  // host
  r.push_back(int_param("host.tx_copies", &HostParams::tx_copies, &P::host,
                        "CPU copies of the payload on the sender (TCP; RDMA without zero copy)", "Linux: user->kernel", Bounds<std::int64_t>{0, 16}));
  r.push_back(int_param("host.rx_copies", &HostParams::rx_copies, &P::host,
                        "CPU copies of the payload on the receiver", "Linux: kernel->user", Bounds<std::int64_t>{0, 16}));
  // kernel
  r.push_back(time_param("kernel.syscall", &P::kernel, &KernelParams::syscall, "one system call, entry + exit",
                         "measured on a reference Linux host: getppid 219 ns"));
  r.push_back(time_param("kernel.wakeup", &P::kernel, &KernelParams::wakeup, "wake a blocked thread (context switch)",
                         "measured on a reference Linux host: pipe ping-pong 2.74 us/switch incl. 2 syscalls"));
  r.push_back(time_param("kernel.tx_stack", &P::kernel, &KernelParams::tx_stack, "kernel transmit path per message",
                         "fitted: loopback-equivalent path sums to qperf tcp_lat 7.2 us (measured on a reference Linux host)"));
  r.push_back(time_param("kernel.rx_stack", &P::kernel, &KernelParams::rx_stack, "kernel receive path per message",
                         "fitted, as kernel.tx_stack"));
  r.push_back(time_param("kernel.tx_per_packet", &P::kernel, &KernelParams::tx_per_packet, "kernel work per sent segment",
                         "fitted, as kernel.tx_stack"));
  r.push_back(time_param("kernel.rx_per_packet", &P::kernel, &KernelParams::rx_per_packet,
                         "kernel work per received segment (NAPI/softirq)", "fitted, as kernel.tx_stack"));
  r.push_back(time_param("kernel.irq", &P::kernel, &KernelParams::irq, "hard interrupt entry/exit + NAPI schedule",
                         "estimate"));
  r.push_back(time_param("kernel.rx_per_frame", &P::kernel, &KernelParams::rx_per_frame,
                         "bulk TCP with GRO: driver work per received frame (descriptor, skb, GRO merge)",
                         "estimate: ~10 Mpps of GRO merging per core"));
  r.push_back(time_param("kernel.backlog", &P::kernel, &KernelParams::backlog,
                         "wait in the per-CPU backlog before softirq processing (charged to queue)", "0: unloaded host"));
  r.push_back(time_param("kernel.busy_poll_detect", &P::kernel, &KernelParams::busy_poll_detect,
                         "a busy-polling socket noticing new data", "estimate"));
  // nic
  r.push_back(time_param("nic.tx_pipeline", &P::nic, &NicParams::tx_pipeline, "NIC send pipeline (WQE to packet)",
                         "ConnectX-6 'sub-600ns' adapter latency split tx/rx"));
  r.push_back(time_param("nic.wqe_process", &P::nic, &NicParams::wqe_process,
                         "the part of nic.tx_pipeline during which the QP's send engine is busy with one WQE: "
                         "one QP sends at most 1 / wqe_process WQEs per second (QPs have engines of their own)",
                         "fitted: 7.50 Mpps, one QP with post list 128 (perftest#273); 1 KB ib_send_bw 63.6 Gb/s "
                         "= 7.8 Mpps (perftest PR #98)"));
  r.push_back(time_param("nic.rx_pipeline", &P::nic, &NicParams::rx_pipeline, "NIC receive pipeline (packet to DMA)",
                         "as nic.tx_pipeline"));
  r.push_back(time_param("nic.tx_jitter", &P::nic, &NicParams::tx_jitter,
                         "random send-arbitration delay per message, uniform [0, max] (charged to queue)", "0"));
  r.push_back(bool_param("nic.blueflame", &NicParams::blueflame, &P::nic,
                         "WQE written together with the doorbell (no WQE fetch over PCIe)", "mlx5 BlueFlame"));
  r.push_back(bytes_param("nic.wqe_size", &NicParams::wqe_size, &P::nic, "send WQE size", "mlx5: 64 B basic block", Bounds<Bytes>{Bytes(1), Bytes(64 * 1024)}));
  r.push_back(bytes_param("nic.cqe_size", &NicParams::cqe_size, &P::nic, "CQE size", "mlx5: 64 B", Bounds<Bytes>{Bytes(1), Bytes(64 * 1024)}));
  r.push_back(bytes_param("nic.doorbell_size", &NicParams::doorbell_size, &P::nic, "doorbell MMIO write size", "8 B", Bounds<Bytes>{Bytes(1), Bytes(64 * 1024)}));
  r.push_back(bytes_param("nic.max_inline", &NicParams::max_inline, &P::nic,
                          "max inline data; 0 = perftest default (220 B write, 236 B send)", "perftest -I", Bounds<Bytes>{Bytes(0), Bytes(1024)}));
  r.push_back(time_param("nic.rx_usecs", &P::nic, &NicParams::rx_usecs, "interrupt moderation timer (coalescing on)",
                         "mlx5 CQE-mode default 3 us"));
  r.push_back(int_param("nic.rx_frames", &NicParams::rx_frames, &P::nic, "interrupt moderation packet count",
                        "mlx5 default 32", Bounds<std::int64_t>{1, 1'000'000}));
  r.push_back(bool_param("nic.adaptive_rx", &NicParams::adaptive_rx, &P::nic,
                         "adaptive moderation (DIM-like): interrupt at once when the previous interrupt is at least "
                         "rx_usecs old, batch only under load",
                         "mlx5 rx_dim_enabled; off here so rx-usecs/rx-frames act alone"));
  // verbs
  r.push_back(bytes_param("nic.tx_window", &NicParams::tx_window, &P::nic,
                          "transmit window per QP: frame bytes the NIC fetches (DMA) ahead of the wire; 0 = the "
                          "whole message at once",
                          "estimate: on-NIC transmit buffering, ~5 us of 100G", Bounds<Bytes>{Bytes(16 * 1024), Bytes(kGiB), true}));
  r.push_back(bytes_param("nic.read_buffer", &NicParams::read_buffer, &P::nic,
                          "bytes of DMA reads the NIC keeps outstanding (whole max_read_request units); it bounds "
                          "read throughput to read_buffer / read round trip; 0 = only nic.tx_window",
                          "estimate (cx6-200g: 32 KiB)", Bounds<Bytes>{Bytes(128), Bytes(kGiB), true}));
  r.push_back(time_param("verbs.post", &P::verbs, &VerbsParams::post, "user-space post_send (WQE build + doorbell)",
                         "UCX ucx_info CX-6 'overhead: 40 nsec'"));
  r.push_back(time_param("verbs.poll_detect", &P::verbs, &VerbsParams::poll_detect,
                         "polling CPU sees DMA-written data or a CQE (cache-line miss)", "estimate"));
  r.push_back(time_param("verbs.doorbell", &P::verbs, &VerbsParams::doorbell,
                         "the part of verbs.post that rings the doorbell (MMIO write + write barriers); a post "
                         "list of N WQEs pays it once (bw --post-list)",
                         "estimate: half of verbs.post (Kalia et al., ATC'16: MMIOs dominate post cost)"));
  // rc
  r.push_back(int_param("rc.timeout", &RcParams::timeout, &P::rc,
                        "local ACK timeout exponent: a QP retransmits after 4.096 us x 2^timeout without progress",
                        "perftest default 14 (67 ms); IB spec C9-140", Bounds<std::int64_t>{1, 31}));
  r.push_back(int_param("rc.retry_cnt", &RcParams::retry_cnt, &P::rc,
                        "timeouts retried before the QP fails with RETRY_EXC_ERR", "perftest/ibv default 7", Bounds<std::int64_t>{0, 7}));
  r.push_back(bool_param("rc.ooo_placement", &RcParams::ooo_placement, &P::rc,
                         "the NIC places out-of-order packets of a message (off: a reordered packet is a sequence "
                         "error, answered with a NAK and go-back-N)",
                         "classic RC NICs: off; multipath (SRD-style) NICs: on"));
  r.push_back(bool_param("rc.selective_repeat", &RcParams::selective_repeat, &P::rc,
                         "selective repeat instead of go-back-N: the responder places out-of-order packets and "
                         "answers each with a NACK naming the first missing PSN and the one received; the "
                         "requester resends only the missing ones (a timeout resends the oldest unacknowledged one)",
                         "IRN: Mittal et al., Revisiting Network Support for RDMA, SIGCOMM 2018"));
  r.push_back(int_param("rc.min_rnr_timer", &RcParams::min_rnr_timer, &P::rc,
                        "RNR NAK wait, the 5-bit IBA code: the requester retries a SEND the responder had no "
                        "receive for after 0.01 ms (1) ... 491.52 ms (31); 0 = 655.36 ms",
                        "12 (0.64 ms) as in rdma-core's ibv_rc_pingpong and most examples; IBA table 45", Bounds<std::int64_t>{0, 31}));
  r.push_back(int_param("rc.rnr_retry", &RcParams::rnr_retry, &P::rc,
                        "RNR NAKs retried before the QP fails with RNR_RETRY_EXC_ERR (7: retry forever)",
                        "the usual 7 (retry forever)", Bounds<std::int64_t>{0, 7}));
  r.push_back(int_param("rc.max_inflight", &RcParams::max_inflight, &P::rc,
                        "at most this many packets of a QP unacknowledged at once; later ones wait (0: no cap, "
                        "the NIC's transmit window and the tx depth alone)",
                        "IRN (Mittal et al., SIGCOMM 2018) caps it at the bandwidth-delay product in MTUs; 0 = "
                        "classic RC", Bounds<std::int64_t>{0, 1 << 24}));
  // dcqcn
  r.push_back(number_param("dcqcn.g", &DcqcnParams::g, &P::dcqcn, "alpha gain g (alpha <- (1-g) alpha + g on a CNP)",
                           "DCQCN paper: 1/256", kGain));
  r.push_back(time_param("dcqcn.cnp_interval", &P::dcqcn, &DcqcnParams::cnp_interval,
                         "notification point: at most one CNP per QP in this interval", "DCQCN paper: N = 50 us", kPositiveDuration));
  r.push_back(time_param("dcqcn.alpha_timer", &P::dcqcn, &DcqcnParams::alpha_timer,
                         "reaction point: alpha decays by (1-g) every K without a CNP", "DCQCN paper: K = 55 us", kPositiveDuration));
  r.push_back(time_param("dcqcn.rate_timer", &P::dcqcn, &DcqcnParams::rate_timer,
                         "reaction point: rate increase timer T", "DCQCN paper: T = 55 us", kPositiveDuration));
  r.push_back(bytes_param("dcqcn.byte_counter", &DcqcnParams::byte_counter, &P::dcqcn,
                          "reaction point: a rate increase every B bytes sent", "DCQCN paper: B = 10 MB", Bounds<Bytes>{Bytes(1), Bytes(16 * kGiB)}));
  r.push_back(int_param("dcqcn.fast_recovery", &DcqcnParams::fast_recovery, &P::dcqcn,
                        "reaction point: F fast-recovery steps before additive increase", "DCQCN paper: F = 5", Bounds<std::int64_t>{0, 64}));
  r.push_back(rate_param("dcqcn.rate_ai", &DcqcnParams::rate_ai, &P::dcqcn, "additive increase step R_AI",
                         "DCQCN paper: 40 Mb/s"));
  r.push_back(rate_param("dcqcn.rate_hai", &DcqcnParams::rate_hai, &P::dcqcn, "hyper increase step R_HAI",
                         "estimate: 10 x R_AI"));
  r.push_back(rate_param("dcqcn.min_rate", &DcqcnParams::min_rate, &P::dcqcn, "floor of the current rate",
                         "ns-3 RdmaHw MinRate 100 Mb/s"));
  r.push_back(int_param("dcqcn.cnp_tc", &DcqcnParams::cnp_tc, &P::dcqcn,
                        "priority (0..7) CNPs travel in: a high, lossy class ahead of the data", "mlx5 cnp_802p_prio 6", kPriority));
  // ecn-fraction
  r.push_back(number_param("ecn_fraction.g", &EcnFractionParams::g, &P::ecn_fraction,
                           "alpha gain g (alpha <- (1-g) alpha + g F once per window)",
                           "HPCC simulator RdmaHw EwmaGain 1/16 (DCTCP paper: 1/16)", kGain));
  r.push_back(rate_param("ecn_fraction.rate_ai", &EcnFractionParams::rate_ai, &P::ecn_fraction,
                         "additive increase per window outside reduction", "HPCC simulator RdmaHw DctcpRateAI 1000 Mb/s"));
  r.push_back(rate_param("ecn_fraction.min_rate", &EcnFractionParams::min_rate, &P::ecn_fraction, "floor of the rate",
                         "HPCC simulator RdmaHw MinRate 100 Mb/s"));
  // timely
  r.push_back(number_param("timely.alpha", &TimelyParams::alpha, &P::timely,
                           "EWMA weight of the newest RTT difference in the gradient",
                           "HPCC simulator RdmaHw TimelyAlpha 0.875", kGain));
  r.push_back(number_param("timely.beta", &TimelyParams::beta, &P::timely, "multiplicative decrease factor",
                           "TIMELY paper (Mittal et al., SIGCOMM 2015) and HPCC simulator TimelyBeta: 0.8", kGain));
  r.push_back(time_param("timely.t_low", &P::timely, &TimelyParams::t_low,
                         "an RTT below this: additive increase, whatever the gradient",
                         "TIMELY paper and HPCC simulator TimelyTLow: 50 us"));
  r.push_back(time_param("timely.t_high", &P::timely, &TimelyParams::t_high,
                         "an RTT above this: decrease by beta (1 - t_high / rtt)",
                         "TIMELY paper and HPCC simulator TimelyTHigh: 500 us"));
  r.push_back(time_param("timely.min_rtt", &P::timely, &TimelyParams::min_rtt,
                         "the gradient is the smoothed RTT difference over this",
                         "TIMELY paper and HPCC simulator TimelyMinRtt: 20 us", kPositiveDuration));
  r.push_back(rate_param("timely.rate_ai", &TimelyParams::rate_ai, &P::timely, "additive increase step delta",
                         "TIMELY paper: delta = 10 Mb/s"));
  r.push_back(rate_param("timely.rate_hai", &TimelyParams::rate_hai, &P::timely,
                         "increase step after 5 increases in a row (hyper-active increase)",
                         "TIMELY paper: N = 5 x delta"));
  r.push_back(rate_param("timely.min_rate", &TimelyParams::min_rate, &P::timely, "floor of the rate",
                         "HPCC simulator RdmaHw MinRate 100 Mb/s"));
  // swift
  r.push_back(time_param("swift.target", &P::swift, &SwiftParams::target,
                         "base target delay (before hop and flow scaling): below the target the window grows, "
                         "above it the window is cut",
                         "Swift paper (Kumar et al., SIGCOMM 2020), section 3.5: base_target (value an estimate: "
                         "25 us)", kPositiveDuration));
  r.push_back(time_param("swift.hop_scale", &P::swift, &SwiftParams::hop_scale,
                         "target added per switch the ACK crossed (0: no hop scaling)",
                         "Swift paper, section 3.5: h per hop (value an estimate: 1 us)"));
  r.push_back(time_param("swift.fs_range", &P::swift, &SwiftParams::fs_range,
                         "flow scaling: the most target added for a small window, falling as 1/sqrt(cwnd) to 0 at "
                         "swift.fs_max_cwnd (0: no flow scaling)",
                         "Swift paper, section 3.5: fs_range (value an estimate: 25 us)"));
  r.push_back(number_param("swift.fs_min_cwnd", &SwiftParams::fs_min_cwnd, &P::swift,
                           "flow scaling: at or below this window (packets) the whole fs_range is added",
                           "Swift paper, section 3.5: fs_min_cwnd (value an estimate: 0.1)", Interval{0, 1000, true}));
  r.push_back(number_param("swift.fs_max_cwnd", &SwiftParams::fs_max_cwnd, &P::swift,
                           "flow scaling: at or above this window (packets) nothing is added (above fs_min_cwnd)",
                           "Swift paper, section 3.5: fs_max_cwnd (value an estimate: 100)", Interval{0, 1e6, true}));
  r.push_back(bool_param("swift.window_on", &SwiftParams::window_on, &P::swift,
                         "the window caps the bytes in flight (cwnd x the mean packet) besides pacing at cwnd / RTT",
                         "Swift paper: a congestion window, paced when below one packet"));
  r.push_back(number_param("swift.ai", &SwiftParams::ai, &P::swift, "additive increase, packets per round trip",
                           "Swift paper, Algorithm 1: ai (value an estimate: 1 packet)", Interval{0, 100, true}));
  r.push_back(number_param("swift.beta", &SwiftParams::beta, &P::swift,
                           "multiplicative decrease per unit of relative excess delay ((delay - target) / delay)",
                           "Swift paper, Algorithm 1: beta (value an estimate: 0.8)", kGain));
  r.push_back(number_param("swift.max_mdf", &SwiftParams::max_mdf, &P::swift, "largest cut in one decrease",
                           "Swift paper, Algorithm 1: max_mdf (value an estimate: 0.5)", kGain));
  r.push_back(number_param("swift.min_cwnd", &SwiftParams::min_cwnd, &P::swift,
                           "smallest window, packets (below 1 the QP is paced slower than a packet per RTT)",
                           "Swift paper: windows below one packet are paced (value an estimate: 0.01)",
                           Interval{0, 1, true}));
  r.push_back(rate_param("swift.min_rate", &SwiftParams::min_rate, &P::swift, "floor of the rate",
                         "as the other rate controls: 100 Mb/s (the HPCC simulator's MinRate)"));
  // hpcc
  r.push_back(number_param("hpcc.eta", &HpccParams::eta, &P::hpcc, "target utilisation of the most utilised link",
                           "HPCC paper (Li et al., SIGCOMM 2019) and HPCC simulator U_TARGET: 0.95", kGain));
  r.push_back(int_param("hpcc.max_stage", &HpccParams::max_stage, &P::hpcc,
                        "additive increases before the next multiplicative update",
                        "HPCC paper: maxStage 5 (the HPCC simulator's run.py sets MI_THRESH 0)", Bounds<std::int64_t>{0, 1000}));
  r.push_back(rate_param("hpcc.rate_ai", &HpccParams::rate_ai, &P::hpcc, "additive increase R_AI",
                         "HPCC simulator run.py: 10 x bandwidth / 25 Mb/s, 40 Mb/s at 100 Gb/s"));
  r.push_back(rate_param("hpcc.min_rate", &HpccParams::min_rate, &P::hpcc, "floor of the rate",
                         "HPCC simulator RdmaHw MinRate 100 Mb/s"));
  r.push_back(time_param("hpcc.base_rtt", &P::hpcc, &HpccParams::base_rtt,
                         "T, the base round trip the queue term and the smoothing use; 0: the smallest RTT the QP "
                         "sampled (inflated by the queues a flow meets when it starts in a loaded fabric: give the "
                         "fabric's base RTT there)",
                         "HPCC paper: the base RTT of the path (the HPCC simulator computes it per host pair)"));
  r.push_back(bytes_param("hpcc.window", &HpccParams::window, &P::hpcc,
                          "W_init, the window at line rate; 0: line rate x T (one bandwidth-delay product)",
                          "HPCC paper: W_init = B x T; the HPCC simulator's window is its largest BDP (HAS_WIN 1)",
                          Bounds<Bytes>{Bytes(64), Bytes(std::int64_t{1} << 30), true}));
  r.push_back(bool_param("hpcc.window_on", &HpccParams::window_on, &P::hpcc,
                         "cap the bytes in flight at W = W_init x R / line (off: the rate alone paces the QP)",
                         "HPCC paper: a window W = R x T limits the inflight bytes; HPCC simulator VAR_WIN 1"));
  // tcp
  r.push_back(bytes_param("tcp.mss", &TcpParams::mss, &P::tcp, "TCP maximum segment size", "1500 MTU with timestamps", Bounds<Bytes>{Bytes(64), Bytes(65'000)}));
  r.push_back(bytes_param("tcp.loopback_mss", &TcpParams::loopback_mss, &P::tcp,
                          "TCP segment size over the loopback device (topology loopback)", "lo MTU 65536", Bounds<Bytes>{Bytes(64), Bytes(65'483)}));
  r.push_back(bytes_param("tcp.gro", &TcpParams::gro, &P::tcp,
                          "bulk TCP: receive super-packet (GRO) the stack processes once; 0 = per segment",
                          "Linux GRO_MAX_SIZE 65536", Bounds<Bytes>{Bytes(64), Bytes(4 << 20), true}));
  r.push_back(bytes_param("tcp.tso", &TcpParams::tso, &P::tcp,
                          "bulk TCP: transmit super-packet (TSO) the stack hands the NIC; 0 = per segment",
                          "Linux GSO_MAX_SIZE 65536", Bounds<Bytes>{Bytes(64), Bytes(4 << 20), true}));
  r.push_back(int_param("tcp.initial_cwnd", &TcpParams::initial_cwnd, &P::tcp,
                        "packet-level TCP: initial congestion window, segments", "RFC 6928; Linux TCP_INIT_CWND 10", Bounds<std::int64_t>{1, 1000}));
  r.push_back(bytes_param("tcp.rwnd", &TcpParams::rwnd, &P::tcp, "packet-level TCP: the receiver's fixed window",
                          "Linux tcp_rmem max 6 MB", Bounds<Bytes>{Bytes(64), Bytes(kGiB)}));
  r.push_back(time_param("tcp.min_rto", &P::tcp, &TcpParams::min_rto,
                         "packet-level TCP: lower bound of the retransmission timeout", "Linux TCP_RTO_MIN 200 ms", Bounds<Time>{Time::ps(1), Time::ms(1'000'000)}));
  r.push_back(time_param("tcp.initial_rto", &P::tcp, &TcpParams::initial_rto,
                         "packet-level TCP: the retransmission timeout before the first RTT sample",
                         "RFC 6298 1 s; Linux TCP_TIMEOUT_INIT", Bounds<Time>{Time::ps(1), Time::ms(1'000'000)}));
  r.push_back(time_param("tcp.max_rto", &P::tcp, &TcpParams::max_rto,
                         "packet-level TCP: upper bound of the backed-off retransmission timeout", "Linux TCP_RTO_MAX 120 s", Bounds<Time>{Time::ps(1), Time::ms(1'000'000)}));
  r.push_back(int_param("tcp.delayed_ack", &TcpParams::delayed_ack, &P::tcp,
                        "packet-level TCP: the receiver acknowledges every N in-order segments", "RFC 1122/5681: 2", Bounds<std::int64_t>{1, 64}));
  r.push_back(time_param("tcp.delayed_ack_timeout", &P::tcp, &TcpParams::delayed_ack_timeout,
                         "packet-level TCP: a delayed ACK goes out at the latest this long after its first segment",
                         "Linux TCP_DELACK_MIN 40 ms", kPositiveDuration));
  r.push_back(int_param("tcp.dupack_threshold", &TcpParams::dupack_threshold, &P::tcp,
                        "packet-level TCP: duplicate ACKs that trigger fast retransmit", "RFC 5681: 3", Bounds<std::int64_t>{1, 100}));
  r.push_back(number_param("tcp.dctcp_g", &TcpParams::dctcp_g, &P::tcp,
                           "DCTCP: alpha gain g (alpha <- (1-g) alpha + g F once per window)",
                           "DCTCP paper / Linux dctcp_shift_g: 1/16", kGain));
  r.push_back(int_param("tcp.tc", &TcpParams::tc, &P::tcp,
                        "packet-level TCP: priority (0..7) of segments and ACKs (a lossy class unless switch.data_tc)",
                        "best effort: 0", kPriority));
  return r;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

const std::vector<ParamDef>& profile_params() {
  static const std::vector<ParamDef> params = build_params();
  return params;
}

void apply_override(Profile& p, std::string_view assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0)
    throw std::invalid_argument("--set expects key=value, got \"" + std::string(assignment) + "\"");
  const std::string_view key = assignment.substr(0, eq);
  const std::string_view value = assignment.substr(eq + 1);
  for (const ParamDef& d : profile_params()) {
    if (d.key != key) continue;
    try {
      d.set(p, value);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string(key) + ": " + e.what());
    }
    return;
  }
  std::vector<std::pair<std::size_t, std::string>> near;
  for (const ParamDef& d : profile_params()) near.emplace_back(edit_distance(key, d.key), d.key);
  std::sort(near.begin(), near.end());
  std::string hint;
  for (std::size_t i = 0; i < 3 && i < near.size(); ++i) hint += (i ? ", " : "") + near[i].second;
  throw std::invalid_argument("unknown parameter \"" + std::string(key) + "\" (nearest: " + hint +
                              "; `rdmasim list` shows all)");
}

void validate(const Profile& p) {
  for (const ParamDef& d : profile_params())
    if (!d.in_range(p)) throw std::invalid_argument(d.key + ": must be " + d.range);
  // Relations between parameters; each parameter's own range is in the table above.
  auto require = [](bool ok, const char* m) {
    if (!ok) throw std::invalid_argument(m);
  };
  const SwitchParams& w = p.sw;
  require(w.pfc_xoff <= w.buffer, "switch.pfc_xoff: must not exceed switch.buffer");
  require(w.pfc_xon_delta <= w.pfc_xoff, "switch.pfc_xon_delta: must not exceed switch.pfc_xoff");
  require(w.pfc_headroom <= w.buffer, "switch.pfc_headroom: must not exceed switch.buffer");
  require(w.ecn_kmin <= w.ecn_kmax && w.ecn_kmax <= w.buffer,
          "switch.ecn_kmin/ecn_kmax: need 0 <= kmin <= kmax <= switch.buffer");
  require(w.ib_vl_buffer <= w.buffer, "switch.ib_vl_buffer: must not exceed switch.buffer");
  require(p.verbs.doorbell <= p.verbs.post, "verbs.doorbell: must not exceed verbs.post (it is part of it)");
  require(p.nic.wqe_process <= p.nic.tx_pipeline, "nic.wqe_process: must not exceed nic.tx_pipeline (it is part of it)");
  require(p.nic.read_buffer.count() == 0 || p.nic.read_buffer >= p.pcie.max_read_request,
          "nic.read_buffer: must be 0 (not modelled) or at least pcie.max_read_request");
  require(p.timely.t_low < p.timely.t_high, "timely.t_low: must be below timely.t_high");
  require(p.swift.fs_min_cwnd < p.swift.fs_max_cwnd, "swift.fs_min_cwnd: must be below swift.fs_max_cwnd");
  require(p.tcp.gro.count() == 0 || p.tcp.gro >= p.tcp.mss, "tcp.gro: must be 0 (off) or at least tcp.mss");
  require(p.tcp.tso.count() == 0 || p.tcp.tso >= p.tcp.mss, "tcp.tso: must be 0 (off) or at least tcp.mss");
  require(p.tcp.rwnd >= p.tcp.mss, "tcp.rwnd: must hold at least one segment (tcp.mss)");
  require(p.tcp.initial_rto >= p.tcp.min_rto, "tcp.initial_rto: must be at least tcp.min_rto");
  require(p.tcp.max_rto >= p.tcp.initial_rto, "tcp.max_rto: must be at least tcp.initial_rto");
}

}  // namespace rdmasim
