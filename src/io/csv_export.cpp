#include "io/csv_export.hpp"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "core/number_text.hpp"
#include "core/atomic_file.hpp"

namespace rdmasim {
namespace {

std::string num(double x) { return number_text(x); }
std::string num(std::int64_t x) { return std::to_string(x); }
std::string num(std::uint64_t x) { return std::to_string(x); }

}  // namespace

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string lat_messages_csv(const LatResult& r) {
  std::string out = "iteration,start_ps,rtt_ps,reported_ps";
  for (Category c : kAllCategories) out += "," + std::string(category_name(c)) + "_ps";
  out += "\n";
  std::int64_t i = 0;
  for (const LatResult::Iteration& it : r.iterations) {
    out += num(i++) + "," + num(it.start_ps) + "," + num(it.rtt_ps) + "," +
           num(static_cast<double>(it.rtt_ps) / r.rtt_factor);
    for (Category c : kAllCategories) out += "," + num(it.ledger[c].count_ps());
    out += "\n";
  }
  return out;
}

std::string bw_messages_csv(const BwResult& r) {
  std::string out = "message,posted_ps,completed_ps,latency_ps\n";
  for (std::size_t i = 0; i < r.completed_ps.size() && i < r.posted_ps.size(); ++i)
    out += num(static_cast<std::int64_t>(i)) + "," + num(r.posted_ps[i]) + "," + num(r.completed_ps[i]) + "," +
           num(r.completed_ps[i] - r.posted_ps[i]) + "\n";
  return out;
}

std::string flows_csv(const TrafficResult& r) {
  std::string out =
      "flow,src,dst,sport,goodput_bps,steady_goodput_bps,predicted_bps,completed,flushed,dropped,ce_marked,"
      "retransmitted,timeouts,naks,cnps,status,route\n";
  int i = 0;
  for (const FlowResult& f : r.flows)
    out += num(static_cast<std::int64_t>(i++)) + ",h" + num(static_cast<std::int64_t>(f.src)) + ",h" +
           num(static_cast<std::int64_t>(f.dst)) + "," + num(static_cast<std::int64_t>(f.sport)) + "," +
           num(f.goodput_bps) + "," + num(f.steady_goodput_bps) + "," + num(f.predicted_bps) + "," +
           num(f.completed) + "," + num(f.flushed) + "," + num(f.dropped) + "," + num(f.ce_marked) + "," +
           num(f.rc.retransmitted) + "," + num(f.rc.timeouts) + "," + num(f.rc.naks) + "," + num(f.rc.cnps) + "," +
           csv_field(f.rc.status) + "," + csv_field(f.route) + "\n";
  return out;
}

std::string open_loop_flows_csv(const FlowsResult& r) {
  std::string out = "flow,src,dst,tc,size_bytes,start_ps,completed,fct_ps,ideal_fct_ps,slowdown,retransmitted\n";
  std::int64_t i = 0;
  for (const FlowRecord& f : r.flows)
    out += num(i++) + ",h" + num(static_cast<std::int64_t>(f.flow.src)) + ",h" + num(static_cast<std::int64_t>(f.flow.dst)) +
           "," + num(static_cast<std::int64_t>(f.flow.tc)) + "," + num(f.flow.size.count()) + "," +
           num(f.flow.start.count_ps()) + "," + num(static_cast<std::int64_t>(f.completed)) + "," + num(f.fct.count_ps()) +
           "," + num(f.ideal.count_ps()) + "," + num(f.slowdown) + "," + num(f.retransmitted) + "\n";
  return out;
}

std::string slowdown_csv(const std::vector<SlowdownRow>& buckets) {
  std::string out = "bucket,min_bytes,max_bytes,flows,p50,p95,p99,mean\n";
  for (const SlowdownRow& b : buckets)
    out += csv_field(b.bucket) + "," + num(b.min_bytes) + "," + num(b.max_bytes) + "," + num(b.flows) + "," + num(b.p50) +
           "," + num(b.p95) + "," + num(b.p99) + "," + num(b.mean) + "\n";
  return out;
}

std::string timeseries_csv(const std::vector<Sample>& samples, const std::vector<std::string>& ports,
                           const std::vector<std::string>& watch) {
  std::string out = "t_us,dt_us,messages,total_messages,gbps,p50_us,p99_us,max_us,events";
  const bool fabric = !ports.empty();
  if (fabric) out += ",pause_frames,paused_us,max_mean_queue_bytes,max_queue_port";
  for (const std::string& w : watch) out += "," + csv_field("queue_bytes " + w) + "," + csv_field("pause_frames " + w);
  out += "\n";
  for (const Sample& s : samples) {
    out += num(s.t_us) + "," + num(s.dt_us) + "," + num(s.messages) + "," + num(s.total_messages) + "," + num(s.gbps) +
           "," + num(s.p50_us) + "," + num(s.p99_us) + "," + num(s.max_us) + "," + num(s.events);
    if (fabric)
      out += "," + num(s.pause_frames) + "," + num(s.paused_us) + "," + num(s.queue_bytes) + "," +
             (s.queue_port >= 0 ? csv_field(ports[static_cast<std::size_t>(s.queue_port)]) : std::string());
    for (std::size_t i = 0; i < watch.size(); ++i) {
      const bool seen = i < s.watch_queue.size();
      out += "," + num(seen ? s.watch_queue[i] : 0.0) + "," + num(seen ? s.watch_pauses[i] : std::uint64_t{0});
    }
    out += "\n";
  }
  return out;
}

std::string ports_csv(const FabricStats& f) {
  std::string out =
      "port,rate_bps,tx_packets,tx_bytes,rx_packets,rx_bytes,drops,rx_errors,ecn_marked,pause_tx,pause_rx,"
      "paused_us,max_queue_bytes,mean_queue_bytes,utilisation\n";
  for (const PortStats& p : f.ports)
    out += csv_field(p.port) + "," + num(p.rate_bps) + "," + num(p.tx_packets) + "," + num(p.tx_bytes) + "," +
           num(p.rx_packets) + "," + num(p.rx_bytes) + "," + num(p.drops) + "," + num(p.rx_errors) + "," +
           num(p.ecn_marked) + "," + num(p.pause_tx) + "," + num(p.pause_rx) + "," + num(p.paused_us) + "," +
           num(p.max_queue_bytes) + "," + num(p.mean_queue_bytes) + "," + num(p.utilisation) + "\n";
  return out;
}

CsvDir::CsvDir(std::string dir) : dir_(std::move(dir)) {
  if (dir_.empty()) throw std::invalid_argument("--csv: give a directory");
  struct stat st {};
  if (::stat(dir_.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) throw std::invalid_argument("--csv " + dir_ + ": not a directory");
    if (::access(dir_.c_str(), W_OK) != 0) throw std::invalid_argument("--csv " + dir_ + ": cannot write there");
    return;
  }
  // Created only when the run has succeeded (a failed run leaves no empty directory behind).
  std::string parent = std::filesystem::path(dir_).parent_path().string();
  if (parent.empty()) parent = ".";
  if (::stat(parent.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || ::access(parent.c_str(), W_OK) != 0)
    throw std::invalid_argument("--csv " + dir_ + ": cannot create the directory (" + parent + " is not a writable directory)");
  create_ = true;
}

void CsvDir::publish() const {
  if (create_ && ::mkdir(dir_.c_str(), 0777) != 0 && errno != EEXIST)
    throw OutputError("csv: cannot create " + dir_ + ": " + std::strerror(errno));
  for (const auto& [name, content] : files_) write_text_file(dir_ + "/" + name, content, "csv");
}

}  // namespace rdmasim
