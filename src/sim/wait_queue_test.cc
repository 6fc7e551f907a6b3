// WaitQueue: order, holes and compaction, next_fit and next_backfill against the obvious scans over random
// pushes, erases and prediction changes.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "schedlab/sim/state.h"

namespace schedlab::sim {
namespace {

// The obvious next_fit: walk the live jobs from `from`.
WaitQueue::const_iterator scan(const WaitQueue& q, WaitQueue::const_iterator from, int64_t procs) {
  for (auto k = from; k != q.end(); ++k)
    if (k->procs <= procs) return k;
  return q.end();
}

// The obvious next_backfill.
WaitQueue::const_iterator scan_backfill(const WaitQueue& q, WaitQueue::const_iterator from, int64_t free,
                                        int64_t extra, int64_t limit) {
  for (auto k = from; k != q.end(); ++k)
    if (k->procs <= free && (k->procs <= extra || k->remaining() <= limit)) return k;
  return q.end();
}

TEST(WaitQueueTest, NextBackfillNeedsBothConditionsInOneJob) {
  WaitQueue q;
  q.push_back({1, 2, 0, 1000, 0});  // small but long
  q.push_back({2, 9, 0, 10, 0});    // short but large
  q.push_back({3, 2, 0, 10, 0});    // small and short
  // Free 4, extra 0, must end within 50 s: the first two pass the range test together, neither alone.
  auto k = q.next_backfill(q.begin(), 4, 0, 50);
  ASSERT_TRUE(k != q.end());
  EXPECT_EQ(k->id, 3);
  EXPECT_EQ(q.next_backfill(q.begin(), 4, 2, 50)->id, 1);  // fits the extra processors
  EXPECT_TRUE(q.next_backfill(q.begin(), 1, 1, 50) == q.end());
  ASSERT_TRUE(q.set_prediction(3, 500));  // no longer ends in time
  EXPECT_TRUE(q.next_backfill(q.begin(), 4, 0, 50) == q.end());
  EXPECT_FALSE(q.set_prediction(42, 1));
  WaitQueue suspended;  // remaining() = prediction - attained
  suspended.push_back({7, 1, 0, 100, 80});
  EXPECT_EQ(suspended.next_backfill(suspended.begin(), 1, 0, 20)->id, 7);
  EXPECT_TRUE(suspended.next_backfill(suspended.begin(), 1, 0, 19) == suspended.end());
}

// clear() empties the queue and its search trees; the same ids can wait again, and the searches see only them
// (no test called it before).
TEST(WaitQueueTest, ClearForgetsEveryJob) {
  WaitQueue q;
  for (JobId id = 1; id <= 40; ++id) q.push_back({id, 2, 0, 10, 0});
  ASSERT_TRUE(q.erase(5));
  q.clear();
  EXPECT_EQ(q.size(), 0u);
  EXPECT_TRUE(q.begin() == q.end());
  EXPECT_EQ(q.find(1), nullptr);
  EXPECT_FALSE(q.erase(2));
  EXPECT_TRUE(q.next_fit(q.begin(), 100) == q.end());
  q.push_back({3, 8, 0, 500, 0});
  q.push_back({1, 4, 0, 10, 0});
  EXPECT_EQ(q.size(), 2u);
  EXPECT_EQ(q.begin()->id, 3);
  EXPECT_EQ(q.next_fit(q.begin(), 4)->id, 1);
  EXPECT_EQ(q.next_backfill(q.begin(), 8, 0, 10)->id, 1);
  EXPECT_EQ(q, [] {
    WaitQueue fresh;
    fresh.push_back({3, 8, 0, 500, 0});
    fresh.push_back({1, 4, 0, 10, 0});
    return fresh;
  }());
}

TEST(WaitQueueTest, NextFitSkipsLargeJobsAndHoles) {
  WaitQueue q;
  q.push_back({1, 8, 0, 10, 0});
  q.push_back({2, 4, 0, 10, 0});
  q.push_back({3, 2, 0, 10, 0});
  q.push_back({4, 6, 0, 10, 0});
  q.push_back({5, 1, 0, 10, 0});
  EXPECT_EQ(q.next_fit(q.begin(), 4)->id, 2);
  EXPECT_EQ(q.next_fit(q.begin(), 100)->id, 1);
  EXPECT_TRUE(q.next_fit(q.begin(), 0) == q.end());
  ASSERT_TRUE(q.erase(3));  // a hole: never returned, even for a huge request
  auto k = q.next_fit(q.begin(), 2);
  EXPECT_EQ(k->id, 5);
  EXPECT_TRUE(q.next_fit(++k, 2) == q.end());
  ASSERT_TRUE(q.erase(2));
  EXPECT_EQ(q.next_fit(q.begin(), 6)->id, 4);
  EXPECT_EQ(q.next_fit(q.begin(), int64_t{1} << 40)->id, 1);  // above int32: every job fits, no hole
}

TEST(WaitQueueTest, NextFitEqualsTheScanThroughRandomChurn) {
  std::mt19937_64 rng(7);
  WaitQueue q;
  std::vector<JobId> live;
  JobId next = 0;
  for (int step = 0; step < 20000; ++step) {
    const uint64_t op = rng() % 6;
    if (live.empty() || op < 3) {
      const int64_t attained = rng() % 4 == 0 ? static_cast<int64_t>(rng() % 500) : 0;
      q.push_back({next, static_cast<int32_t>(1 + rng() % 64), step, static_cast<int64_t>(rng() % 2000), attained});
      live.push_back(next++);
    } else if (op == 3) {
      ASSERT_TRUE(q.set_prediction(live[rng() % live.size()], static_cast<int64_t>(rng() % 2000)));
    } else {
      const size_t i = rng() % live.size();
      ASSERT_TRUE(q.erase(live[i]));  // from anywhere: holes, then compactions
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
    }
    if (step % 97 == 0 && !q.empty()) {
      const int64_t free = static_cast<int64_t>(rng() % 70);
      auto a = q.next_fit(q.begin(), free), b = scan(q, q.begin(), free);
      while (true) {
        ASSERT_TRUE(a == b) << "step " << step;
        if (a == q.end()) break;
        a = q.next_fit(std::next(a), free);
        b = scan(q, std::next(b), free);
      }
      const int64_t extra = static_cast<int64_t>(rng() % 40), limit = static_cast<int64_t>(rng() % 1500);
      auto c = q.next_backfill(q.begin(), free, extra, limit), d = scan_backfill(q, q.begin(), free, extra, limit);
      while (true) {
        ASSERT_TRUE(c == d) << "step " << step;
        if (c == q.end()) break;
        c = q.next_backfill(std::next(c), free, extra, limit);
        d = scan_backfill(q, std::next(d), free, extra, limit);
      }
    }
  }
  EXPECT_EQ(q.size(), live.size());
}

}  // namespace
}  // namespace schedlab::sim
