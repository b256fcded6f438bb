// Test helper: a minimal pcapng reader (host byte order, one section) for checking captures —
// interfaces (link type, snaplen, if_name) and Enhanced Packet Blocks (interface, ns time,
// lengths, bytes) — plus big-endian field readers for the frames.
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace rdmasim::testing {

struct PcapngInterface {
  std::uint16_t linktype = 0;
  std::uint32_t snaplen = 0;
  std::string name;
};

struct PcapngPacket {
  std::uint32_t iface = 0;
  std::uint64_t ns = 0;
  std::uint32_t orig_len = 0;
  std::vector<std::uint8_t> data;  // the captured bytes
};

struct Pcapng {
  std::vector<std::uint32_t> block_types;
  std::vector<PcapngInterface> interfaces;
  std::vector<PcapngPacket> packets;
};

inline std::vector<std::uint8_t> read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Parses a whole capture; throws std::runtime_error on a malformed block structure.
inline Pcapng parse_pcapng(const std::vector<std::uint8_t>& b) {
  const auto get = [&](std::size_t at, void* v, std::size_t n) {
    if (at + n > b.size()) throw std::runtime_error("pcapng: read past the end");
    std::memcpy(v, b.data() + at, n);
  };
  const auto u16 = [&](std::size_t at) { std::uint16_t v; get(at, &v, 2); return v; };
  const auto u32 = [&](std::size_t at) { std::uint32_t v; get(at, &v, 4); return v; };
  Pcapng r;
  std::size_t at = 0;
  while (at < b.size()) {
    if (at + 12 > b.size()) throw std::runtime_error("pcapng: truncated block header");
    const std::uint32_t type = u32(at), len = u32(at + 4);
    if (len % 4 != 0 || len < 12 || at + len > b.size() || u32(at + len - 4) != len)
      throw std::runtime_error("pcapng: bad block length");
    r.block_types.push_back(type);
    if (type == 0x0A0D0D0A && u32(at + 8) != 0x1A2B3C4D) throw std::runtime_error("pcapng: byte order");
    if (type == 1) {
      PcapngInterface i;
      i.linktype = u16(at + 8);
      i.snaplen = u32(at + 12);
      for (std::size_t o = at + 16; o + 4 <= at + len - 4 && u16(o) != 0;) {
        const std::uint16_t code = u16(o), n = u16(o + 2);
        if (code == 2) i.name.assign(b.begin() + static_cast<std::ptrdiff_t>(o + 4), b.begin() + static_cast<std::ptrdiff_t>(o + 4 + n));
        o += 4 + (n + 3u) / 4 * 4;
      }
      r.interfaces.push_back(i);
    } else if (type == 6) {
      PcapngPacket p;
      p.iface = u32(at + 8);
      p.ns = static_cast<std::uint64_t>(u32(at + 12)) << 32 | u32(at + 16);
      const std::uint32_t cap = u32(at + 20);
      if (28 + cap > len) throw std::runtime_error("pcapng: captured length past the block");
      p.orig_len = u32(at + 24);
      p.data.assign(b.begin() + static_cast<std::ptrdiff_t>(at + 28), b.begin() + static_cast<std::ptrdiff_t>(at + 28 + cap));
      r.packets.push_back(std::move(p));
    }
    at += len;
  }
  return r;
}

inline std::uint32_t be16(const std::vector<std::uint8_t>& b, std::size_t at) { return b.at(at) << 8 | b.at(at + 1); }
inline std::uint32_t be24(const std::vector<std::uint8_t>& b, std::size_t at) { return b.at(at) << 16 | be16(b, at + 1); }
inline std::uint32_t be32(const std::vector<std::uint8_t>& b, std::size_t at) { return be16(b, at) << 16 | be16(b, at + 2); }

}  // namespace rdmasim::testing
