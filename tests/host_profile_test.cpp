#include "config/host_profile.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

using namespace rdmasim;

namespace {
std::string temp_path(const char* name) { return ::testing::TempDir() + "/" + name + std::to_string(::getpid()); }
void write_file(const std::string& path, const std::string& text) { std::ofstream(path) << text; }
std::string error_of(const std::string& path) {
  Profile p = make_profile("default");
  try {
    apply_host_profile(p, path);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(HostProfile, WriteThenApplyRoundTrips) {
  const std::string path = temp_path("host.toml");
  HostProfileDoc doc;
  doc.machine = "test machine";
  doc.generated_by = "test";
  doc.parameters = {{"kernel.syscall", "300ns"}, {"mem.copy_bw", "80Gbps"}, {"kernel.wakeup", "1.25us"}};
  doc.measurements = {{"null_syscall_ns", 300.5}};
  write_host_profile(path, doc);
  Profile p = make_profile("default");
  apply_host_profile(p, path);
  EXPECT_EQ(p.kernel.syscall, Time::ns(300));
  EXPECT_EQ(p.mem.copy_bw, Rate::gbps(80));
  EXPECT_EQ(p.kernel.wakeup, Time::ns(1250));
  EXPECT_EQ(p.kernel.irq, make_profile("default").kernel.irq);  // untouched
  std::remove(path.c_str());
}

TEST(HostProfile, ErrorsNameFileLineColumnAndKey) {
  const std::string path = temp_path("bad.toml");
  write_file(path, "[parameters.kernel]\nsyscall = \"fast\"\n");
  const std::string e = error_of(path);
  EXPECT_NE(e.find(path + ":2:11: parameters.kernel.syscall: expected a time"), std::string::npos) << e;

  write_file(path, "[parameters.kernel]\nsyscal = \"1ns\"\n");
  EXPECT_NE(error_of(path).find("unknown parameter \"kernel.syscal\""), std::string::npos) << error_of(path);

  write_file(path, "[parameters\n");
  EXPECT_NE(error_of(path).find(path + ":1:"), std::string::npos) << error_of(path);

  write_file(path, "[machine]\n");
  EXPECT_NE(error_of(path).find("missing [parameters]"), std::string::npos);

  EXPECT_FALSE(error_of(temp_path("does-not-exist")).empty());
  std::remove(path.c_str());
}

TEST(HostProfile, NothingAppliedOnError) {
  const std::string path = temp_path("partial.toml");
  write_file(path, "[parameters.kernel]\nsyscall = \"5ns\"\nwakeup = \"nope\"\n");
  Profile p = make_profile("default");
  EXPECT_THROW(apply_host_profile(p, path), std::invalid_argument);
  EXPECT_EQ(p.kernel.syscall, make_profile("default").kernel.syscall);
  std::remove(path.c_str());
}
