// Nic: the send pipeline of a WQE is its QP's engine (nic.wqe_process), the adapter's shared
// engines (nic.adapter_wqe) and the rest of nic.tx_pipeline, so that unloaded it costs exactly
// nic.tx_pipeline; an adapter without a shared limit (adapter_wqe 0) has no such stage.
#include "host/nic.hpp"

#include <gtest/gtest.h>

#include "host/pcie.hpp"
#include "rdmasim/profile.hpp"

using namespace rdmasim;

TEST(Nic, AWqePassesItsQpEngineThenTheAdaptersThenTheRestOfThePipeline) {
  Profile p;
  const PcieLink pcie(p.pcie);
  PathSpec path;
  Nic(p.nic, p.verbs, pcie).append_wqe_pipeline(path, 0);
  ASSERT_EQ(path.stages.size(), 3u);  // no tx_jitter by default
  EXPECT_EQ(path.stages[0].label, "A.nic.wqe_engine");
  EXPECT_EQ(path.stages[0].res, ResourceKind::qp_engine);
  EXPECT_EQ(path.stages[0].cost.fixed, Time::ns(130));
  EXPECT_EQ(path.stages[1].label, "A.nic.adapter_engine");
  EXPECT_EQ(path.stages[1].res, ResourceKind::nic_engine);
  EXPECT_EQ(path.stages[1].cost.fixed, Time::ps(4'651));  // 1 / 215 Mpps
  EXPECT_EQ(path.stages[2].kind, StageKind::delay);
  EXPECT_EQ(path.stages[2].cost.fixed, p.nic.tx_pipeline - Time::ns(130) - Time::ps(4'651));
  Time sum{};
  for (const StageSpec& s : path.stages) sum += s.cost.fixed;
  EXPECT_EQ(sum, p.nic.tx_pipeline);

  p.nic.adapter_wqe = Time::zero();
  PathSpec unlimited;
  Nic(p.nic, p.verbs, pcie).append_wqe_pipeline(unlimited, 1);
  ASSERT_EQ(unlimited.stages.size(), 2u);
  EXPECT_EQ(unlimited.stages[0].label, "B.nic.wqe_engine");
  EXPECT_EQ(unlimited.stages[1].cost.fixed, p.nic.tx_pipeline - Time::ns(130));
}
