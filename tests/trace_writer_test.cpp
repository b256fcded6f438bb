#include "sim/trace_writer.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include <nlohmann/json.hpp>

using namespace rdmasim;
namespace fs = std::filesystem;

namespace {

fs::path temp_file(const std::string& name) {
  return fs::path(::testing::TempDir()) / ("rdmasim_" + std::to_string(::getpid()) + "_" + name);
}

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string us(std::int64_t ps) {
  std::string s;
  append_trace_us(s, Time::ps(ps));
  return s;
}

std::string quoted(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}

}  // namespace

TEST(TraceFormat, MicrosecondsExactFromPicoseconds) {
  EXPECT_EQ(us(0), "0.000000");
  EXPECT_EQ(us(1), "0.000001");
  EXPECT_EQ(us(999'999), "0.999999");
  EXPECT_EQ(us(1'000'000), "1.000000");
  EXPECT_EQ(us(1'234'567), "1.234567");
  EXPECT_EQ(us(1'000'000'000'000'000), "1000000000.000000");
  EXPECT_EQ(us(INT64_MAX), "9223372036854.775807");
  EXPECT_THROW(us(-1), std::invalid_argument);
}

TEST(TraceFormat, JsonEscaping) {
  EXPECT_EQ(quoted("plain"), "\"plain\"");
  EXPECT_EQ(quoted("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(quoted("\n\t\r\b\f"), "\"\\n\\t\\r\\b\\f\"");
  EXPECT_EQ(quoted(std::string_view("\x01\x1f\0", 3)), "\"\\u0001\\u001f\\u0000\"");
  EXPECT_EQ(quoted("µs → ✓ 𝄞"), "\"µs → ✓ 𝄞\"");           // UTF-8 passes through
  EXPECT_EQ(quoted("a\xff" "b\xc3"), "\"a\\ufffdb\\ufffd\"");  // invalid bytes replaced
  EXPECT_EQ(quoted("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");  // a UTF-16 surrogate
  EXPECT_EQ(quoted("\xc0\xaf"), "\"\\ufffd\\ufffd\"");            // an overlong '/'
  // every result parses back to the (repaired) text
  EXPECT_EQ(nlohmann::json::parse(quoted("q\"\\\x02µ")).get<std::string>(), "q\"\\\x02µ");
}

TEST(TraceWriter, WritesPerfettoJson) {
  const fs::path path = temp_file("trace.json");
  fs::remove(path);
  {
    TraceWriter w(path.string());
    w.process_name(1, "host \"A\"");
    w.thread_name(1, 7, "nic\\tx");
    w.slice(1, 7, "WRITE", "nic", Time::ps(1'234'567), Time::ps(999'999),
            {{"bytes", 4096}, {"qp", "0x11"}, {"big", std::uint64_t{18'446'744'073'709'551'615ULL}}});
    w.slice(1, 7, "empty", "nic", Time::zero(), Time::ps(1));
    w.counter(1, "queue", Time::ps(1'000'000'000'000'000), {{"depth", 3}, {"gbps", 12.5}});
    w.flow_start(42, 1, 7, "pkt", "flow", Time::ps(1'500'000));
    w.flow_end(42, 2, 3, "pkt", "flow", Time::ps(2'500'000));
    w.instant(2, 3, "drop", "net", Time::ps(5), InstantScope::process, {{"why", "ecn\n"}});
    EXPECT_EQ(w.events_written(), 8u);
    EXPECT_TRUE(fs::exists(path.string() + ".tmp"));
    EXPECT_FALSE(fs::exists(path));
    EXPECT_THROW(w.slice(1, 7, "neg", "nic", Time::ps(-1), Time::zero()), std::invalid_argument);
    EXPECT_THROW(w.slice(1, 7, "neg", "nic", Time::zero(), Time::ps(-5)), std::invalid_argument);
    EXPECT_THROW(w.counter(1, "c", Time::zero(), {{"s", "text"}}), std::invalid_argument);
    w.close();
    w.close();  // idempotent
    EXPECT_THROW(w.process_name(1, "late"), std::logic_error);
  }
  EXPECT_FALSE(fs::exists(path.string() + ".tmp"));
  const std::string text = read_all(path);
  const auto j = nlohmann::json::parse(text);
  EXPECT_EQ(j.at("displayTimeUnit"), "ns");
  const auto& ev = j.at("traceEvents");
  ASSERT_EQ(ev.size(), 8u);

  EXPECT_EQ(ev[0].at("ph"), "M");
  EXPECT_EQ(ev[0].at("name"), "process_name");
  EXPECT_EQ(ev[0].at("args").at("name"), "host \"A\"");
  EXPECT_EQ(ev[1].at("name"), "thread_name");
  EXPECT_EQ(ev[1].at("tid"), 7);
  EXPECT_EQ(ev[1].at("args").at("name"), "nic\\tx");

  EXPECT_EQ(ev[2].at("ph"), "X");
  EXPECT_EQ(ev[2].at("cat"), "nic");
  EXPECT_EQ(ev[2].at("pid"), 1);
  EXPECT_EQ(ev[2].at("args").at("bytes"), 4096);
  EXPECT_EQ(ev[2].at("args").at("qp"), "0x11");
  EXPECT_EQ(ev[2].at("args").at("big").get<std::uint64_t>(), 18'446'744'073'709'551'615ULL);
  EXPECT_EQ(ev[3].count("args"), 0u);

  EXPECT_EQ(ev[4].at("ph"), "C");
  EXPECT_EQ(ev[4].at("args").at("depth"), 3);
  EXPECT_EQ(ev[4].at("args").at("gbps"), 12.5);

  EXPECT_EQ(ev[5].at("ph"), "s");
  EXPECT_EQ(ev[6].at("ph"), "f");
  for (int i : {5, 6}) {
    EXPECT_EQ(ev[i].at("id"), 42);
    EXPECT_EQ(ev[i].at("bp"), "e");
    EXPECT_EQ(ev[i].at("cat"), "flow");
  }
  EXPECT_EQ(ev[7].at("ph"), "i");
  EXPECT_EQ(ev[7].at("s"), "p");
  EXPECT_EQ(ev[7].at("args").at("why"), "ecn\n");

  // The exact decimal text of ts/dur, as written (not re-rendered through a double).
  EXPECT_NE(text.find("\"ts\":1.234567,\"dur\":0.999999"), std::string::npos);
  EXPECT_NE(text.find("\"ts\":0.000000,\"dur\":0.000001"), std::string::npos);
  EXPECT_NE(text.find("\"ts\":1000000000.000000"), std::string::npos);
  EXPECT_NE(text.find("\"ts\":1.500000"), std::string::npos);
  EXPECT_NE(text.find("\"ts\":0.000005"), std::string::npos);
  EXPECT_EQ(text.rfind("{\"traceEvents\":[", 0), 0u);
  fs::remove(path);
}

TEST(TraceWriter, EmptyTraceIsValid) {
  const fs::path path = temp_file("empty.json");
  TraceWriter w(path.string());
  w.close();
  const auto j = nlohmann::json::parse(read_all(path));
  EXPECT_TRUE(j.at("traceEvents").empty());
  fs::remove(path);
}

// A writer destroyed without close() publishes nothing and leaves no .tmp behind; an
// existing file at the path is left as it was.
TEST(TraceWriter, NotClosedPublishesNothing) {
  const fs::path path = temp_file("unclosed.json");
  fs::remove(path);
  {
    TraceWriter w(path.string());
    w.slice(1, 1, "half", "x", Time::zero(), Time::ps(10));
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(fs::exists(path.string() + ".tmp"));
  { std::ofstream(path) << "old"; }
  {
    TraceWriter w(path.string());
    w.slice(1, 1, "half", "x", Time::zero(), Time::ps(10));
  }
  EXPECT_EQ(read_all(path), "old");
  fs::remove(path);
}

TEST(TraceWriter, FailureNamesThePath) {
  try {
    TraceWriter w("/nonexistent-dir/t.json");
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/t.json"), std::string::npos);
  }
}
