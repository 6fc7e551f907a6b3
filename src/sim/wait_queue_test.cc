// WaitQueue: order, holes and compaction, and next_fit against the obvious scan over random pushes and erases.
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
    if (live.empty() || rng() % 3 != 0) {
      q.push_back({next, static_cast<int32_t>(1 + rng() % 64), step, 10, 0});
      live.push_back(next++);
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
    }
  }
  EXPECT_EQ(q.size(), live.size());
}

}  // namespace
}  // namespace schedlab::sim
