#include "sim/trace_writer.hpp"

#include "core/atomic_file.hpp"

#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace rdmasim {
namespace {

template <typename T>
void append_int(std::string& out, T v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

// Length of the valid UTF-8 sequence starting at s[i] (RFC 3629: no overlongs, no surrogates,
// nothing above U+10FFFF), or 0 if it is not one.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const auto cont = [&](std::size_t k) { return i + k < s.size() && (b(k) & 0xC0) == 0x80; };
  const unsigned char c = b(0);
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    if ((c == 0xE0 && b(1) < 0xA0) || (c == 0xED && b(1) > 0x9F)) return 0;
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    if ((c == 0xF0 && b(1) < 0x90) || (c == 0xF4 && b(1) > 0x8F)) return 0;
    return 4;
  }
  return 0;
}

}  // namespace

void append_trace_us(std::string& out, Time t) {
  const std::int64_t ps = t.count_ps();
  if (ps < 0) throw std::invalid_argument("trace: negative time " + std::to_string(ps) + " ps");
  append_int(out, ps / 1'000'000);
  char frac[7] = {'.', '0', '0', '0', '0', '0', '0'};
  std::int64_t f = ps % 1'000'000;
  for (int k = 6; k >= 1; --k, f /= 10) frac[k] = static_cast<char>('0' + f % 10);
  out.append(frac, sizeof frac);
}

void append_json_string(std::string& out, std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  out.push_back('"');
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const std::size_t n = utf8_length(s, i);
      if (n == 0) { out.append("\\ufffd"); ++i; continue; }
      out.append(s.substr(i, n));
      i += n;
      continue;
    }
    switch (c) {
      case '"': out.append("\\\""); break;
      case '\\': out.append("\\\\"); break;
      case '\b': out.append("\\b"); break;
      case '\f': out.append("\\f"); break;
      case '\n': out.append("\\n"); break;
      case '\r': out.append("\\r"); break;
      case '\t': out.append("\\t"); break;
      default:
        if (c < 0x20) {
          out.append("\\u00");
          out.push_back(hex[c >> 4]);
          out.push_back(hex[c & 0xF]);
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  out.push_back('"');
}

TraceWriter::TraceWriter(std::string path) : path_(std::move(path)), tmp_path_(staging_path(path_)) {
  file_ = std::fopen(tmp_path_.c_str(), "wb");
  if (!file_) throw OutputError("trace: cannot create " + tmp_path_ + ": " + std::strerror(errno));
  try {
    put("{\"traceEvents\":[");
  } catch (...) {
    std::fclose(file_);
    discard_staging(tmp_path_, path_);
    throw;
  }
}

TraceWriter::~TraceWriter() {
  if (!file_) return;
  std::fclose(file_);  // never closed: discard, so no half-written trace is published
  discard_staging(tmp_path_, path_);
}

void TraceWriter::put(std::string_view s) {
  if (!file_) return;  // discarding (or closed)
  if (!s.empty() && std::fwrite(s.data(), 1, s.size(), file_) != s.size())
    throw OutputError("trace: writing " + path_ + " failed: " + std::strerror(errno));
}

void TraceWriter::begin(std::string_view ph, std::string_view name, std::string_view cat, std::int64_t pid,
                        std::int64_t tid) {
  if (!file_ && !discard_) throw std::logic_error("trace: " + path_ + " is already closed");
  line_.clear();
  line_.append(events_ == 0 ? "\n{\"name\":" : ",\n{\"name\":");
  append_json_string(line_, name);
  if (!cat.empty()) {
    line_.append(",\"cat\":");
    append_json_string(line_, cat);
  }
  line_.append(",\"ph\":\"").append(ph).append("\",\"pid\":");
  append_int(line_, pid);
  line_.append(",\"tid\":");
  append_int(line_, tid);
}

void TraceWriter::args_object(std::string_view key, TraceArgs args, bool numbers_only) {
  line_.append(",\"").append(key).append("\":{");
  for (std::size_t i = 0; i < args.size(); ++i) {
    const TraceArg& a = args[i];
    if (i) line_.push_back(',');
    append_json_string(line_, a.key());
    line_.push_back(':');
    switch (a.kind()) {
      case TraceArg::Kind::string:
        if (numbers_only) throw std::invalid_argument("trace: counter series must be numbers");
        append_json_string(line_, a.str());
        break;
      case TraceArg::Kind::int64: append_int(line_, a.i64()); break;
      case TraceArg::Kind::uint64: append_int(line_, a.u64()); break;
      case TraceArg::Kind::number: {
        if (!std::isfinite(a.number())) throw std::invalid_argument("trace: non-finite number in args");
        char buf[32];
        const auto r = std::to_chars(buf, buf + sizeof buf, a.number());
        line_.append(buf, r.ptr);
        break;
      }
    }
  }
  line_.push_back('}');
}

void TraceWriter::end() {
  line_.push_back('}');
  put(line_);
  ++events_;
}

void TraceWriter::process_name(std::int64_t pid, std::string_view name) {
  begin("M", "process_name", {}, pid, 0);
  line_.append(",\"ts\":0.000000");
  const TraceArg a{"name", name};
  args_object("args", TraceArgs(&a, 1), false);
  end();
}

void TraceWriter::thread_name(std::int64_t pid, std::int64_t tid, std::string_view name) {
  begin("M", "thread_name", {}, pid, tid);
  line_.append(",\"ts\":0.000000");
  const TraceArg a{"name", name};
  args_object("args", TraceArgs(&a, 1), false);
  end();
}

void TraceWriter::slice(std::int64_t pid, std::int64_t tid, std::string_view name, std::string_view cat,
                        Time start, Time dur, TraceArgs args) {
  if (start < Time::zero() || dur < Time::zero()) throw std::invalid_argument("trace: negative slice time");
  begin("X", name, cat, pid, tid);
  line_.append(",\"ts\":");
  append_trace_us(line_, start);
  line_.append(",\"dur\":");
  append_trace_us(line_, dur);
  if (!args.empty()) args_object("args", args, false);
  end();
}

void TraceWriter::counter(std::int64_t pid, std::string_view name, Time at, TraceArgs series) {
  if (at < Time::zero()) throw std::invalid_argument("trace: negative counter time");
  begin("C", name, {}, pid, 0);
  line_.append(",\"ts\":");
  append_trace_us(line_, at);
  args_object("args", series, true);
  end();
}

void TraceWriter::flow(const char* ph, std::uint64_t id, std::int64_t pid, std::int64_t tid, std::string_view name,
                       std::string_view cat, Time at) {
  if (at < Time::zero()) throw std::invalid_argument("trace: negative flow time");
  begin(ph, name, cat, pid, tid);
  line_.append(",\"ts\":");
  append_trace_us(line_, at);
  line_.append(",\"id\":");
  append_int(line_, id);
  line_.append(",\"bp\":\"e\"");
  end();
}

void TraceWriter::flow_start(std::uint64_t id, std::int64_t pid, std::int64_t tid, std::string_view name,
                             std::string_view cat, Time at) {
  flow("s", id, pid, tid, name, cat, at);
}

void TraceWriter::flow_end(std::uint64_t id, std::int64_t pid, std::int64_t tid, std::string_view name,
                           std::string_view cat, Time at) {
  flow("f", id, pid, tid, name, cat, at);
}

void TraceWriter::instant(std::int64_t pid, std::int64_t tid, std::string_view name, std::string_view cat,
                          Time at, InstantScope scope, TraceArgs args) {
  if (at < Time::zero()) throw std::invalid_argument("trace: negative instant time");
  begin("i", name, cat, pid, tid);
  line_.append(",\"ts\":");
  append_trace_us(line_, at);
  line_.append(scope == InstantScope::thread ? ",\"s\":\"t\"" : scope == InstantScope::process ? ",\"s\":\"p\"" : ",\"s\":\"g\"");
  if (!args.empty()) args_object("args", args, false);
  end();
}

void TraceWriter::close() {
  if (!file_) return;
  put("\n],\"displayTimeUnit\":\"ns\"}\n");
  std::FILE* f = file_;
  file_ = nullptr;
  publish_file(f, tmp_path_, path_, "trace");
}

}  // namespace rdmasim
