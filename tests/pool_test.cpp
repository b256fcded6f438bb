// Pool<T> (core/pool.hpp): stable objects from chunks, recycled last-released-first through
// an intrusive free list, value-reset on acquire; trim() frees the storage only when nothing
// is live.
#include "core/pool.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

using namespace rdmasim;

namespace {
struct Obj {
  std::uint64_t a = 7;
  std::uint32_t b = 3;
};
}  // namespace

TEST(Pool, RecyclesLastReleasedFirstAndResetsValues) {
  Pool<Obj, 4> pool;
  Obj* x = pool.acquire();
  Obj* y = pool.acquire();
  EXPECT_EQ(y, x + 1);  // a chunk hands out its objects in address order
  x->a = 99;
  y->a = 98;
  pool.release(x);
  pool.release(y);
  EXPECT_EQ(pool.live(), 0);
  Obj* again = pool.acquire();
  EXPECT_EQ(again, y);  // the last released comes back first
  EXPECT_EQ(again->a, 7u);  // value-reset over the free list's link
  EXPECT_EQ(again->b, 3u);
  EXPECT_EQ(pool.acquire(), x);
}

TEST(Pool, GrowsByChunksWithDistinctObjects) {
  Pool<Obj, 4> pool;
  std::set<Obj*> seen;
  std::vector<Obj*> held;
  for (int i = 0; i < 10; ++i) held.push_back(pool.acquire());
  for (Obj* o : held) EXPECT_TRUE(seen.insert(o).second);
  EXPECT_EQ(pool.capacity(), 12u);
  EXPECT_EQ(pool.live(), 10);
  for (Obj* o : held) pool.release(o);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(seen.count(pool.acquire()), 1u);  // no new storage
  EXPECT_EQ(pool.capacity(), 12u);
}

TEST(Pool, TrimFreesTheStorageOnlyWhenNothingIsLive) {
  Pool<Obj, 4> pool;
  Obj* x = pool.acquire();
  pool.acquire();
  EXPECT_FALSE(pool.trim());
  EXPECT_EQ(pool.capacity(), 4u);
  pool.release(x);
  EXPECT_FALSE(pool.trim());  // one still live
  Pool<Obj, 4> empty;
  empty.release(empty.acquire());
  EXPECT_TRUE(empty.trim());
  EXPECT_EQ(empty.capacity(), 0u);
  Obj* fresh = empty.acquire();  // grows again
  EXPECT_EQ(fresh->a, 7u);
  EXPECT_EQ(empty.capacity(), 4u);
  EXPECT_EQ(empty.live(), 1);
}

// Two pools of one partitioned run: what one hands out the other may take back; they are
// trimmed together, once nothing is live in either.
TEST(Pool, PoolsOfOneRunTakeEachOthersObjectsBackAndTrimTogether) {
  Pool<Obj, 4> a, b;
  Obj* x = a.acquire();
  Obj* y = a.acquire();
  b.release(x);
  EXPECT_EQ(a.live(), 2);
  EXPECT_EQ(b.live(), -1);
  EXPECT_EQ(b.acquire(), x);  // b hands out what it took back
  using P = Pool<Obj, 4>;
  P* both[] = {&a, &b};
  EXPECT_FALSE(P::trim_all(both));  // x and y live
  b.release(x);
  b.release(y);
  EXPECT_EQ(a.live() + b.live(), 0);
  EXPECT_TRUE(P::trim_all(both));
  EXPECT_EQ(a.capacity() + b.capacity(), 0u);
  EXPECT_EQ(a.live(), 0);
  EXPECT_EQ(b.live(), 0);
}

// A pool that keeps handing objects out to another (a sender's LP releasing into a receiver's)
// takes free ones back from it when balanced, instead of growing.
TEST(Pool, BalancingFeedsAPoolThatGivesItsObjectsAway) {
  using P = Pool<Obj, 4>;
  P sender, receiver;
  P* both[] = {&sender, &receiver};
  for (int round = 0; round < 100; ++round) {
    for (int i = 0; i < 4; ++i) receiver.release(sender.acquire());
    P::balance(both);
  }
  EXPECT_LE(sender.capacity(), 16u);  // without balance: 400 (100 chunks)
  EXPECT_EQ(sender.free_count() + receiver.free_count(), sender.capacity() + receiver.capacity());
  EXPECT_EQ(sender.live() + receiver.live(), 0);
}
