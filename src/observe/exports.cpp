#include "rdmasim/exports.hpp"

#include <stdexcept>

#include "observe/pcap_writer.hpp"
#include "sim/trace_writer.hpp"

namespace rdmasim {

Exports::Exports(ExportOptions o) : opt_(std::move(o)) {
  if (opt_.trace_messages < 0) throw std::invalid_argument("--trace-messages must be at least 0");
  if (opt_.pcap_frames < 0) throw std::invalid_argument("--pcap-frames must be at least 0");
  if (opt_.pcap_snaplen < 0 || opt_.pcap_snaplen > 262144)
    throw std::invalid_argument("--pcap-snaplen must be 0..262144");
  if (!opt_.trace_path.empty() && opt_.trace_path == opt_.pcap_path)
    throw std::invalid_argument("--trace and --pcap name the same file " + opt_.trace_path);
  try {
    if (!opt_.trace_path.empty()) trace_ = std::make_unique<TraceWriter>(opt_.trace_path);
    else if (opt_.hop_ledger) trace_ = std::make_unique<TraceWriter>();  // traced, nothing written
  } catch (const std::runtime_error&) {
    throw std::invalid_argument("--trace " + opt_.trace_path + ": cannot write there");
  }
  try {
    if (!opt_.pcap_path.empty())
      pcap_ = std::make_unique<PcapWriter>(opt_.pcap_path, static_cast<std::uint32_t>(opt_.pcap_snaplen));
  } catch (const std::runtime_error&) {
    throw std::invalid_argument("--pcap " + opt_.pcap_path + ": cannot write there");
  }
}

Exports::~Exports() = default;

void Exports::publish() {
  if (trace_) trace_->close();
  if (pcap_) pcap_->close();
}

}  // namespace rdmasim
