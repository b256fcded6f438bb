#include "observe/pcap_writer.hpp"

#include "core/atomic_file.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace rdmasim {
namespace {

using H = HeaderSizes;

// Table of a reflected (least significant bit first) CRC with polynomial `poly`.
template <typename T>
constexpr std::array<T, 256> reflected_table(std::uint32_t poly) {
  std::array<T, 256> t{};
  for (std::uint32_t n = 0; n < 256; ++n) {
    std::uint32_t c = n;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? poly ^ (c >> 1) : c >> 1;
    t[n] = static_cast<T>(c);
  }
  return t;
}
constexpr auto kCrc32 = reflected_table<std::uint32_t>(0xEDB88320u);  // CRC-32 (IEEE 802.3)
constexpr auto kVcrc = reflected_table<std::uint16_t>(0xD008u);       // IBA VCRC, 0x100B reflected

// Big-endian field writer over a pre-sized, zeroed buffer.
struct Cursor {
  std::uint8_t* p;
  void u8(std::uint32_t v) { *p++ = static_cast<std::uint8_t>(v); }
  void u16(std::uint32_t v) { u8(v >> 8); u8(v); }
  void u24(std::uint32_t v) { u8(v >> 16); u16(v & 0xFFFF); }
  void u32(std::uint32_t v) { u16(v >> 16); u16(v & 0xFFFF); }
  void u64(std::uint64_t v) { u32(static_cast<std::uint32_t>(v >> 32)); u32(static_cast<std::uint32_t>(v)); }
  void mac(std::uint32_t host) { u16(0x0200); u32(host); }
};

std::uint32_t ipv4_of(std::uint32_t host) { return (10u << 24) | ((host + 1) & 0xFFFFFF); }

// Internet checksum of n bytes, `sum` carrying a pseudo-header's 16-bit words; stored big-endian at `at`.
void store_checksum(std::uint8_t* at, const std::uint8_t* d, std::size_t n, std::uint32_t sum = 0) {
  for (std::size_t i = 0; i < n; i += 2) sum += static_cast<std::uint32_t>(d[i] << 8 | (i + 1 < n ? d[i + 1] : 0));
  while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
  at[0] = static_cast<std::uint8_t>(~sum >> 8);
  at[1] = static_cast<std::uint8_t>(~sum);
}

void write_ipv4(Cursor& c, std::uint8_t tos, std::size_t total, std::uint8_t proto, const CapturedFrame& f) {
  std::uint8_t* ip = c.p;
  c.u8(0x45); c.u8(tos); c.u16(static_cast<std::uint32_t>(total)); c.u16(0); c.u16(0x4000);  // DF
  c.u8(64); c.u8(proto); c.u16(0); c.u32(ipv4_of(f.src_host)); c.u32(ipv4_of(f.dst_host));
  store_checksum(ip + 10, ip, 20);
}

std::int64_t extension_bytes(FrameKind kind, FramePos pos) {
  const bool first = pos == FramePos::first || pos == FramePos::only;
  const bool last = pos == FramePos::last || pos == FramePos::only;
  switch (kind) {
    case FrameKind::roce_write: return first ? H::reth : 0;
    case FrameKind::roce_read_request: return H::reth;
    case FrameKind::roce_read_response: return (first || last) ? H::aeth : 0;
    case FrameKind::roce_ack: return H::aeth;
    case FrameKind::roce_cnp: return H::cnp;
    case FrameKind::roce_send: case FrameKind::tcp_segment: case FrameKind::pfc_pause: return 0;
  }
  return 0;
}

void write_payload(Cursor& c, const CapturedFrame& f, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) c.u8(f.psn + static_cast<std::uint32_t>(i));
}

std::size_t build_tcp(const CapturedFrame& f, std::vector<std::uint8_t>& out) {
  const std::int64_t p = f.payload.count();
  const std::int64_t ip_total = H::ipv4 + H::tcp + H::tcp_timestamps + p;
  if (ip_total > 0xFFFF) throw std::invalid_argument("build_frame: TCP segment too long for IPv4");
  const std::int64_t len = std::max<std::int64_t>(H::eth + ip_total, H::min_eth_frame - H::fcs);
  out.clear();
  out.resize(static_cast<std::size_t>(len));
  Cursor c{out.data()};
  c.mac(f.dst_host); c.mac(f.src_host); c.u16(0x0800);
  write_ipv4(c, f.ecn_ce ? 0x03 : 0x02, static_cast<std::size_t>(ip_total), 6, f);
  std::uint8_t* tcp = c.p;
  const auto ts_ms = static_cast<std::uint32_t>(f.at.count_ps() / 1'000'000'000);
  c.u16(f.udp_sport); c.u16(kTcpDestPort); c.u32(f.psn * f.tcp_mss); c.u32(f.msn);
  c.u8(8 << 4); c.u8(0x18); c.u16(0xFFFF); c.u16(0); c.u16(0);  // ACK|PSH, checksum later
  c.u8(1); c.u8(1); c.u8(8); c.u8(10); c.u32(ts_ms); c.u32(0);   // NOP NOP TS(val, ecr)
  write_payload(c, f, p);
  const auto tcp_len = static_cast<std::size_t>(H::tcp + H::tcp_timestamps + p);
  const std::uint8_t* a = out.data() + H::eth + 12;  // pseudo header: addresses, protocol, length
  std::uint32_t pseudo = 6 + static_cast<std::uint32_t>(tcp_len);
  for (int i = 0; i < 8; i += 2) pseudo += static_cast<std::uint32_t>(a[i] << 8 | a[i + 1]);
  store_checksum(tcp + 16, tcp, tcp_len, pseudo);
  return out.size();
}

std::size_t build_pfc(const CapturedFrame& f, std::vector<std::uint8_t>& out) {
  out.clear();
  out.resize(static_cast<std::size_t>(H::min_eth_frame - H::fcs));
  Cursor c{out.data()};
  c.u16(0x0180); c.u32(0xC2000001);  // the MAC control multicast address
  c.mac(f.src_host); c.u16(kEtherTypeMacControl); c.u16(kPfcOpcode); c.u16(f.pfc_classes);
  for (int i = 0; i < 8; ++i) c.u16(f.pfc_classes >> i & 1 ? f.pfc_quanta : 0);
  return out.size();
}

}  // namespace

std::uint32_t crc32_update(std::uint32_t crc, const std::uint8_t* data, std::size_t n) {
  std::uint32_t c = ~crc;
  for (std::size_t i = 0; i < n; ++i) c = kCrc32[(c ^ data[i]) & 0xFF] ^ (c >> 8);
  return ~c;
}

std::uint32_t rocev2_icrc(const std::uint8_t* ip, std::size_t n) {
  constexpr std::size_t masked = H::ipv4 + H::udp + H::bth;
  if (n < masked) throw std::invalid_argument("rocev2_icrc: packet shorter than IPv4+UDP+BTH");
  std::array<std::uint8_t, 8 + masked> m{};
  std::memset(m.data(), 0xFF, 8);  // stand-in for the LRH, all variant
  std::memcpy(m.data() + 8, ip, masked);
  std::uint8_t* h = m.data() + 8;
  h[1] = 0xFF; h[8] = 0xFF; h[10] = 0xFF; h[11] = 0xFF;  // IPv4 TOS, TTL, header checksum
  h[H::ipv4 + 6] = 0xFF; h[H::ipv4 + 7] = 0xFF;           // UDP checksum
  h[H::ipv4 + H::udp + 4] = 0xFF;                          // BTH FECN/BECN/reserved byte
  return crc32_update(crc32_update(0, m.data(), m.size()), ip + masked, n - masked);
}

std::uint32_t ib_icrc(const std::uint8_t* lrh, std::size_t n) {
  constexpr std::size_t masked = H::lrh + H::bth;
  if (n < masked) throw std::invalid_argument("ib_icrc: packet shorter than LRH+BTH");
  std::array<std::uint8_t, masked> m{};
  std::memcpy(m.data(), lrh, masked);
  m[0] |= 0xF0;          // LRH VL
  m[H::lrh + 4] = 0xFF;  // BTH FECN/BECN/reserved byte
  return crc32_update(crc32_update(0, m.data(), m.size()), lrh + masked, n - masked);
}

std::uint16_t ib_vcrc(const std::uint8_t* lrh, std::size_t n) {
  std::uint16_t c = 0xFFFF;
  for (std::size_t i = 0; i < n; ++i) c = static_cast<std::uint16_t>(kVcrc[(c ^ lrh[i]) & 0xFF] ^ (c >> 8));
  return static_cast<std::uint16_t>(c ^ 0xFFFF);
}

std::uint8_t bth_opcode(FrameKind kind, FramePos pos) {
  const int i = pos == FramePos::first ? 0 : pos == FramePos::middle ? 1 : pos == FramePos::last ? 2 : 3;
  static constexpr std::uint8_t write_ops[] = {0x06, 0x07, 0x08, 0x0A};
  static constexpr std::uint8_t send_ops[] = {0x00, 0x01, 0x02, 0x04};
  static constexpr std::uint8_t resp_ops[] = {0x0D, 0x0E, 0x0F, 0x10};
  switch (kind) {
    case FrameKind::roce_write: return write_ops[i];
    case FrameKind::roce_send: return send_ops[i];
    case FrameKind::roce_read_request: return 0x0C;
    case FrameKind::roce_read_response: return resp_ops[i];
    case FrameKind::roce_ack: return 0x11;
    case FrameKind::roce_cnp: return 0x81;
    case FrameKind::tcp_segment: case FrameKind::pfc_pause: break;
  }
  throw std::invalid_argument("bth_opcode: a TCP segment or PFC frame has no BTH");
}

std::uint16_t frame_linktype(const CapturedFrame& f) {
  const bool eth = f.kind == FrameKind::tcp_segment || f.kind == FrameKind::pfc_pause;
  return !eth && f.layer == LinkLayer::ib ? kLinktypeInfiniband : kLinktypeEthernet;
}

bool interface_accepts(std::uint16_t linktype, const CapturedFrame& f) {
  const std::uint16_t own = frame_linktype(f);
  return linktype == own || (own == kLinktypeInfiniband && linktype >= kLinktypeUser0 && linktype <= kLinktypeUser0 + 15);
}

std::size_t build_frame(const CapturedFrame& f, std::vector<std::uint8_t>& out) {
  const std::int64_t p = f.payload.count();
  if (p < 0) throw std::invalid_argument("build_frame: negative payload");
  if (f.kind == FrameKind::tcp_segment) return build_tcp(f, out);
  if (p > 0 && (f.kind == FrameKind::roce_read_request || f.kind == FrameKind::roce_ack || f.kind == FrameKind::roce_cnp ||
                f.kind == FrameKind::pfc_pause))
    throw std::invalid_argument("build_frame: READ requests, ACKs and PFC frames carry no payload");
  if (f.kind == FrameKind::pfc_pause) return build_pfc(f, out);
  const std::int64_t pad = (4 - p % 4) % 4;
  const std::int64_t ext = extension_bytes(f.kind, f.pos);
  const std::int64_t transport = H::bth + ext + p + pad + H::icrc;  // BTH .. ICRC
  const bool ib = f.layer == LinkLayer::ib;
  const std::int64_t head = ib ? H::lrh : H::eth + H::ipv4 + H::udp;
  if (ib ? (H::lrh + transport) / 4 > 0x7FF : H::ipv4 + H::udp + transport > 0xFFFF)
    throw std::invalid_argument("build_frame: frame too long");
  std::int64_t len = head + transport + (ib ? H::vcrc : 0);
  if (!ib && len < H::min_eth_frame - H::fcs) len = H::min_eth_frame - H::fcs;
  out.clear();
  out.resize(static_cast<std::size_t>(len));
  Cursor c{out.data()};
  if (ib) {
    c.u8(0x00); c.u8(0x02);  // VL 0, LVer 0 | SL 0, LNH = IBA local (BTH follows)
    c.u16((f.dst_host + 1) & 0xFFFF); c.u16(static_cast<std::uint32_t>((H::lrh + transport) / 4));
    c.u16((f.src_host + 1) & 0xFFFF);
  } else {
    c.mac(f.dst_host); c.mac(f.src_host); c.u16(0x0800);
    write_ipv4(c, static_cast<std::uint8_t>(26 << 2 | (f.ecn_ce ? 0x3 : 0x2)),
               static_cast<std::size_t>(H::ipv4 + H::udp + transport), 17, f);
    c.u16(f.udp_sport); c.u16(kRoceV2Port); c.u16(static_cast<std::uint32_t>(H::udp + transport)); c.u16(0);
  }
  c.u8(bth_opcode(f.kind, f.pos)); c.u8(static_cast<std::uint32_t>(pad) << 4); c.u16(0xFFFF);
  c.u8(ib && f.ecn_ce ? 0x80 : 0x00); c.u24(f.dest_qp & 0xFFFFFF);       // FECN | DestQP
  c.u8(f.ack_req ? 0x80 : 0x00); c.u24(f.psn & 0xFFFFFF);
  if (f.kind == FrameKind::roce_cnp) c.p += H::cnp;  // reserved, zero
  else if (ext == H::reth) { c.u64(f.remote_va); c.u32(f.rkey); c.u32(f.dma_len); }
  if (ext == H::aeth) { c.u8(f.syndrome); c.u24(f.msn & 0xFFFFFF); }  // ACK/NAK syndrome
  write_payload(c, f, p);
  c.p += pad;

  const std::uint8_t* start = out.data() + (ib ? 0 : H::eth);
  const std::uint32_t crc = ib ? ib_icrc(start, static_cast<std::size_t>(c.p - start))
                               : rocev2_icrc(start, static_cast<std::size_t>(c.p - start));
  for (int i = 0; i < 4; ++i) c.u8(crc >> (8 * i));  // least significant byte first
  if (ib) {
    const std::uint16_t v = ib_vcrc(out.data(), static_cast<std::size_t>(c.p - out.data()));
    c.u8(v); c.u8(v >> 8);
  }
  return out.size();
}

// ---------------------------------------------------------------------------------------------
// pcapng: every block in host byte order (the Section Header's byte-order magic says which).

namespace {
// resize + memcpy rather than insert(ptr, ptr + n): GCC 12 warns falsely on the latter.
void append_bytes(std::vector<std::uint8_t>& b, const void* data, std::size_t n) {
  const std::size_t at = b.size();
  b.resize(at + n);
  if (n > 0) std::memcpy(b.data() + at, data, n);
}
void append_u16(std::vector<std::uint8_t>& b, std::uint16_t v) { append_bytes(b, &v, 2); }
void append_u32(std::vector<std::uint8_t>& b, std::uint32_t v) { append_bytes(b, &v, 4); }
void append_option(std::vector<std::uint8_t>& b, std::uint16_t code, const void* data, std::size_t n) {
  append_u16(b, code);
  append_u16(b, static_cast<std::uint16_t>(n));
  append_bytes(b, data, n);
  b.resize(b.size() + (4 - n % 4) % 4, 0);
}
// Fills in the block's total length (offset 4) and appends the trailing copy.
void finish_block(std::vector<std::uint8_t>& b) {
  const auto total = static_cast<std::uint32_t>(b.size() + 4);
  std::memcpy(b.data() + 4, &total, 4);
  append_u32(b, total);
}
}  // namespace

PcapWriter::PcapWriter(std::string path, std::uint32_t snaplen)
    : path_(std::move(path)), tmp_path_(staging_path(path_)), snaplen_(snaplen) {
  file_ = std::fopen(tmp_path_.c_str(), "wb");
  if (!file_) throw OutputError("pcap: cannot create " + tmp_path_ + ": " + std::strerror(errno));
  block_.clear();
  append_u32(block_, 0x0A0D0D0A); append_u32(block_, 0);
  append_u32(block_, 0x1A2B3C4D); append_u16(block_, 1); append_u16(block_, 0);
  append_u32(block_, 0xFFFFFFFF); append_u32(block_, 0xFFFFFFFF);  // section length unknown
  append_option(block_, 4, "rdmasim", 7);                           // shb_userappl
  append_option(block_, 0, nullptr, 0);
  finish_block(block_);
  try {
    put(block_.data(), block_.size());
  } catch (...) {
    std::fclose(file_);
    discard_staging(tmp_path_, path_);
    throw;
  }
}

PcapWriter::~PcapWriter() {
  if (!file_) return;
  std::fclose(file_);                // never published: drop the partial capture
  discard_staging(tmp_path_, path_);
}

void PcapWriter::require_open() const {
  if (!file_) throw std::logic_error("pcap: " + path_ + " is already closed");
}

void PcapWriter::put(const void* data, std::size_t n) {
  if (n && std::fwrite(data, 1, n, file_) != n)
    throw OutputError("pcap: writing " + path_ + " failed: " + std::strerror(errno));
}

std::uint32_t PcapWriter::add_interface(std::string_view name, std::uint16_t linktype) {
  require_open();
  block_.clear();
  append_u32(block_, 1); append_u32(block_, 0);
  append_u16(block_, linktype); append_u16(block_, 0); append_u32(block_, snaplen_);
  append_option(block_, 2, name.data(), name.size());  // if_name
  const std::uint8_t tsresol = 9;                       // 10^-9 s
  append_option(block_, 9, &tsresol, 1);
  append_option(block_, 0, nullptr, 0);
  finish_block(block_);
  put(block_.data(), block_.size());
  linktypes_.push_back(linktype);
  return static_cast<std::uint32_t>(linktypes_.size() - 1);
}

void PcapWriter::write(std::uint32_t interface_id, const CapturedFrame& f) {
  require_open();
  if (interface_id >= linktypes_.size()) throw std::invalid_argument("pcap: unknown interface id");
  if (!interface_accepts(linktypes_[interface_id], f))
    throw std::invalid_argument("pcap: frame does not match the interface's link type");
  if (f.at < Time::zero()) throw std::invalid_argument("pcap: negative capture time");
  const std::size_t orig = build_frame(f, frame_);
  const std::size_t cap = snaplen_ && orig > snaplen_ ? snaplen_ : orig;
  const std::size_t pad = (4 - cap % 4) % 4;
  const auto ns = static_cast<std::uint64_t>(f.at.count_ps() / 1000);
  std::uint32_t head[7] = {6, static_cast<std::uint32_t>(32 + cap + pad), interface_id,
                           static_cast<std::uint32_t>(ns >> 32), static_cast<std::uint32_t>(ns),
                           static_cast<std::uint32_t>(cap), static_cast<std::uint32_t>(orig)};
  static constexpr std::uint8_t zeros[4] = {};
  put(head, sizeof head);
  put(frame_.data(), cap);
  put(zeros, pad);
  put(&head[1], 4);
  ++frames_;
}

void PcapWriter::close() {
  if (!file_) return;
  std::FILE* f = file_;
  file_ = nullptr;
  publish_file(f, tmp_path_, path_, "pcap");
}

}  // namespace rdmasim
