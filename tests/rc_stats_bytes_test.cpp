// rc_stats_bytes: an RC QP's report crosses between ranks as bytes and comes back field for
// field; a side that is not the requester's sends its counts alone; the whole report is the
// requester's with the other ranks' counts added.
#include <gtest/gtest.h>

#include <vector>

#include "workload/rc_stats_bytes.hpp"

using namespace rdmasim;

namespace {

RcStats sample() {
  RcStats s;
  s.status = "RETRY_EXC_ERR";
  s.failed_at_us = 12.5;
  s.recovery = "selective repeat";
  s.sent = 1, s.retransmitted = 2, s.retransmitted_bytes = 3, s.timeouts = 4, s.naks = 5, s.out_of_sequence = 6;
  s.duplicates = 7, s.acks_lost = 8, s.cnps = 9, s.rnr_naks_sent = 10, s.rnr_naks = 11, s.not_ready = 12, s.max_unacked = 13;
  s.final_rate_bps = 25e9;
  return s;
}

RcStats round_trip(const RcStats& s, bool requester) {
  std::vector<std::byte> bytes;
  ByteWriter out(bytes);
  put_rc(out, s, requester);
  ByteReader in(bytes);
  const RcStats back = get_rc(in);
  EXPECT_TRUE(in.done());
  return back;
}

}  // namespace

TEST(RcStatsBytes, TheRequestersReportComesBackWhole) {
  const RcStats s = sample(), back = round_trip(s, true);
  EXPECT_EQ(back.status, "RETRY_EXC_ERR");
  EXPECT_EQ(back.recovery, "selective repeat");
  EXPECT_EQ(back.failed_at_us, 12.5);
  EXPECT_EQ(back.final_rate_bps, 25e9);
  EXPECT_EQ(back.sent, 1u);
  EXPECT_EQ(back.out_of_sequence, 6u);
  EXPECT_EQ(back.max_unacked, 13u);
}

TEST(RcStatsBytes, AnotherSideSendsItsCountsAloneAndTheJoinAddsThem) {
  const RcStats other = round_trip(sample(), false);
  EXPECT_EQ(other.status, "ok");
  EXPECT_EQ(other.failed_at_us, 0);
  EXPECT_EQ(other.final_rate_bps, 0);
  EXPECT_EQ(other.duplicates, 7u);
  RcStats responder;  // the responder's rank counted its discards only
  responder.out_of_sequence = 100, responder.duplicates = 50;
  const RcStats joined = join_rc({round_trip(responder, false), round_trip(sample(), true), RcStats{}}, 1);
  EXPECT_EQ(joined.status, "RETRY_EXC_ERR");
  EXPECT_EQ(joined.failed_at_us, 12.5);
  EXPECT_EQ(joined.final_rate_bps, 25e9);
  EXPECT_EQ(joined.sent, 1u);
  EXPECT_EQ(joined.out_of_sequence, 106u);
  EXPECT_EQ(joined.duplicates, 57u);
  EXPECT_EQ(joined.max_unacked, 13u);
}
