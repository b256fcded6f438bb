// HostResources: a host's servers. The GPU copy engines and the inter-socket link exist once a
// path uses them, so the hosts of a fabric run that stages nothing carry none.
#include <gtest/gtest.h>

#include "core/scheduler.hpp"
#include "sim/path_runner.hpp"

using namespace rdmasim;

TEST(HostResources, StagingServersExistOnceUsedAndEachKindIsOne) {
  // Core 0, the PCIe directions, the wire, the adapter's engine and the moderator are built in;
  // the four staging servers are not.
  static_assert(sizeof(HostResources) < 6 * sizeof(FifoServer) + sizeof(InterruptModerator) + 128);
  Scheduler s;
  HostResources h(s, 1, 0);
  EXPECT_EQ(h.gpu_copy_busy(), Time::zero());
  FifoServer& d2h = h.staging(ResourceKind::gpu_copy);
  EXPECT_EQ(&h.staging(ResourceKind::gpu_copy), &d2h);
  EXPECT_NE(&h.staging(ResourceKind::gpu_copy_h2d), &d2h);
  EXPECT_NE(&h.staging(ResourceKind::socket_up), &h.staging(ResourceKind::socket_down));
  EXPECT_THROW(h.staging(ResourceKind::core), std::logic_error);
  EXPECT_THROW(h.staging(ResourceKind::nic_engine), std::logic_error);
  EXPECT_EQ(h.counters().gpu_copy_busy, Time::zero());
}
