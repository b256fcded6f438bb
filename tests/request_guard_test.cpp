// RequestGuard: the Host, Origin and Content-Type rules, decided from the headers alone.
#include "web/request_guard.hpp"

#include <gtest/gtest.h>

namespace rdmasim::web {
namespace {

const GuardConfig kLocal{"127.0.0.1", 8080, {}};

int status(const GuardConfig& c, std::string_view method, std::string_view host, const char* origin = nullptr,
           std::string_view type = "application/json") {
  return check_request(c, method, host, origin != nullptr, origin ? origin : "", type).status;
}

TEST(RequestGuard, HostNameStripsThePortAndLowersTheCase) {
  std::string port;
  EXPECT_EQ(host_name("LocalHost:8080", &port), "localhost");
  EXPECT_EQ(port, "8080");
  EXPECT_EQ(host_name("[::1]:9", &port), "::1");
  EXPECT_EQ(port, "9");
  EXPECT_EQ(host_name("127.0.0.1"), "127.0.0.1");
  EXPECT_EQ(host_name("[::1"), "");
  EXPECT_EQ(host_name("::1"), "");  // unbracketed v6 is not a Host header
}

TEST(RequestGuard, LoopbackNamesOnly) {
  for (const char* h : {"localhost", "127.0.0.1", "127.1.2.3", "127.255.255.255", "::1"}) EXPECT_TRUE(is_loopback_name(h)) << h;
  for (const char* h : {"", "127.0.0", "127.0.0.1.5", "127.0.0.256", "127.0..1", "128.0.0.1", "localhost.evil.example",
                        "evil.example", "0.0.0.0", "127.0.0.1x"})
    EXPECT_FALSE(is_loopback_name(h)) << h;
  EXPECT_TRUE(binds_loopback_only("127.0.0.1"));
  EXPECT_TRUE(binds_loopback_only("::1"));
  EXPECT_FALSE(binds_loopback_only("0.0.0.0"));
}

TEST(RequestGuard, RebindingHostIsRefused) {
  EXPECT_EQ(status(kLocal, "GET", "127.0.0.1:8080"), 0);
  EXPECT_EQ(status(kLocal, "GET", "localhost:8080"), 0);
  EXPECT_EQ(status(kLocal, "GET", "[::1]:8080"), 0);
  EXPECT_EQ(status(kLocal, "GET", "evil.example:8080"), 403);
  EXPECT_EQ(status(kLocal, "GET", ""), 403);
  const GuardVerdict v = check_request(kLocal, "GET", "evil.example", false, "", "");
  EXPECT_EQ(v.key, "host");
  EXPECT_EQ(v.error, "host: \"evil.example\" is not this server (loopback names, 127.0.0.1, or `rdmasim serve --allow-host NAME`)");
  GuardConfig named = kLocal;
  named.allowed_hosts = {"Sim.Lab"};
  EXPECT_EQ(status(named, "GET", "sim.lab:8080"), 0);
  EXPECT_EQ(status(GuardConfig{"10.1.2.3", 80, {}}, "GET", "10.1.2.3"), 0);  // the --bind address
}

TEST(RequestGuard, OnlyTheServersOwnOrigin) {
  EXPECT_EQ(status(kLocal, "POST", "127.0.0.1:8080", "http://127.0.0.1:8080"), 0);
  EXPECT_EQ(status(kLocal, "POST", "127.0.0.1:8080", "http://localhost:8080"), 0);
  EXPECT_EQ(status(kLocal, "POST", "127.0.0.1:8080", "http://127.0.0.1:8081"), 403);  // another local port
  EXPECT_EQ(status(kLocal, "POST", "127.0.0.1:8080", "http://127.0.0.1"), 403);
  EXPECT_EQ(status(kLocal, "POST", "127.0.0.1:8080", "https://127.0.0.1:8080"), 403);
  EXPECT_EQ(status(kLocal, "POST", "127.0.0.1:8080", "http://evil.example:8080"), 403);
  EXPECT_EQ(status(kLocal, "POST", "127.0.0.1:8080", "null"), 403);
  EXPECT_EQ(status(kLocal, "GET", "127.0.0.1:8080", "http://evil.example"), 403);
  EXPECT_EQ(check_request(kLocal, "GET", "127.0.0.1", true, "null", "").key, "origin");
}

TEST(RequestGuard, WritesMustBeJson) {
  EXPECT_EQ(status(kLocal, "POST", "127.0.0.1", nullptr, "application/json"), 0);
  EXPECT_EQ(status(kLocal, "POST", "127.0.0.1", nullptr, "Application/JSON; charset=utf-8"), 0);
  EXPECT_EQ(status(kLocal, "DELETE", "127.0.0.1", nullptr, "application/json"), 0);
  for (const char* t : {"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "",
                        "application/jsonx", "application/json-seq"}) {
    EXPECT_EQ(status(kLocal, "POST", "127.0.0.1", nullptr, t), 415) << t;
    EXPECT_EQ(status(kLocal, "DELETE", "127.0.0.1", nullptr, t), 415) << t;
  }
  EXPECT_EQ(status(kLocal, "GET", "127.0.0.1", nullptr, "text/plain"), 0);
  EXPECT_EQ(check_request(kLocal, "POST", "127.0.0.1", false, "", "text/plain").error,
            "content-type: POST needs \"Content-Type: application/json\", got \"text/plain\"");
}

}  // namespace
}  // namespace rdmasim::web
