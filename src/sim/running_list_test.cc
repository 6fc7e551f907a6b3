#include "schedlab/sim/running_list.h"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "schedlab/sim/shadow.h"
#include "schedlab/sim/state.h"

namespace schedlab::sim {
namespace {

bool before(const RunningJob& a, const RunningJob& b) {
  return a.predicted_end() != b.predicted_end() ? a.predicted_end() < b.predicted_end() : a.id < b.id;
}

// The obvious implementation: a sorted vector, prefix sums by walking it.
struct ListReference {
  std::vector<RunningJob> jobs;
  void insert(const RunningJob& r) { jobs.insert(std::lower_bound(jobs.begin(), jobs.end(), r, before), r); }
  RunningJob erase(JobId id) {
    auto it = std::find_if(jobs.begin(), jobs.end(), [id](const RunningJob& r) { return r.id == id; });
    const RunningJob r = *it;
    jobs.erase(it);
    return r;
  }
  // Index of the first job at which the prefix reaches procs, or size().
  size_t reaching(int64_t procs) const {
    int64_t sum = 0;
    for (size_t k = 0; k < jobs.size(); ++k) {
      sum += jobs[k].procs;
      if (sum >= procs) return k;
    }
    return jobs.size();
  }
  int64_t procs_ending_by(int64_t t) const {
    int64_t sum = 0;
    for (const RunningJob& r : jobs)
      if (r.predicted_end() <= t) sum += r.procs;
    return sum;
  }
};

void expect_same_list(const RunningList& list, const ListReference& ref) {
  ASSERT_EQ(list.size(), ref.jobs.size());
  ASSERT_TRUE(std::equal(list.begin(), list.end(), ref.jobs.begin(), ref.jobs.end()));
  // Backwards too.
  ASSERT_TRUE(std::equal(std::make_reverse_iterator(list.end()), std::make_reverse_iterator(list.begin()),
                         ref.jobs.rbegin(), ref.jobs.rend()));
  int64_t total = 0;
  for (const RunningJob& r : ref.jobs) total += r.procs;
  ASSERT_EQ(list.procs(), total);
  ASSERT_LE(list.blocks(), 4 * list.size() / RunningList::kBlock + 1);
}

TEST(RunningListTest, EmptyList) {
  const RunningList list;
  EXPECT_TRUE(list.empty());
  EXPECT_TRUE(list.begin() == list.end());
  EXPECT_TRUE(list.reaching(1) == list.end());
  EXPECT_EQ(list.procs_ending_by(1'000'000), 0);
  EXPECT_EQ(list.find(10, 1), nullptr);
}

TEST(RunningListTest, HandComputedPrefixes) {
  RunningList list;
  // Inserted out of order: (end 50, id 3), (end 20, id 1), (end 20, id 0), (end 90, id 2).
  list.insert({.id = 3, .procs = 4, .start = 0, .prediction = 50});
  list.insert({.id = 1, .procs = 2, .start = 10, .prediction = 10});
  list.insert({.id = 0, .procs = 1, .start = 5, .prediction = 15});
  list.insert({.id = 2, .procs = 8, .start = 30, .prediction = 60});
  std::vector<JobId> ids;
  for (const RunningJob& r : list) ids.push_back(r.id);
  EXPECT_EQ(ids, (std::vector<JobId>{0, 1, 3, 2}));  // by end, ties by id
  EXPECT_EQ(list.procs(), 15);
  EXPECT_EQ(list.reaching(1)->id, 0);
  EXPECT_EQ(list.reaching(2)->id, 1);  // 1 + 2 = 3 >= 2
  EXPECT_EQ(list.reaching(3)->id, 1);
  EXPECT_EQ(list.reaching(4)->id, 3);
  EXPECT_EQ(list.reaching(15)->id, 2);
  EXPECT_TRUE(list.reaching(16) == list.end());
  EXPECT_EQ(list.procs_ending_by(19), 0);
  EXPECT_EQ(list.procs_ending_by(20), 3);
  EXPECT_EQ(list.procs_ending_by(89), 7);
  EXPECT_EQ(list.procs_ending_by(90), 15);
  list.set_prediction(20, 1, 100);  // id 1 now ends at 110
  ids.clear();
  for (const RunningJob& r : list) ids.push_back(r.id);
  EXPECT_EQ(ids, (std::vector<JobId>{0, 3, 2, 1}));
  EXPECT_EQ(list.find(110, 1)->prediction, 100);
  EXPECT_EQ(list.find(20, 1), nullptr);
  EXPECT_EQ(list.erase(50, 3).procs, 4);
  EXPECT_EQ(list.procs(), 11);
  EXPECT_THROW(list.erase(50, 3), std::logic_error);
  EXPECT_THROW(list.insert({.id = 0, .procs = 1, .start = 5, .prediction = 15}), std::logic_error);
}

// Thousands of jobs through random inserts, erases and prediction changes: many blocks split and merge.
TEST(RunningListTest, SameAsSortedVectorUnderRandomChanges) {
  std::mt19937_64 rng(42);
  RunningList list;
  ListReference ref;
  std::vector<JobId> live;
  JobId next_id = 0;
  for (int round = 0; round < 60'000; ++round) {
    const auto op = rng() % 10;
    // Grow to ~3,000 jobs, then shrink to a few, then grow again: every block size is visited.
    const bool growing = (round / 15'000) % 2 == 0;
    if (live.empty() || op < (growing ? 6u : 3u)) {
      const RunningJob r{.id = next_id++, .procs = static_cast<int32_t>(1 + rng() % 64),
                         .start = static_cast<int64_t>(rng() % 1000), .prediction = static_cast<int64_t>(rng() % 500)};
      list.insert(r);
      ref.insert(r);
      live.push_back(r.id);
    } else if (op < 9) {
      const size_t at = rng() % live.size();
      const JobId id = live[at];
      live[at] = live.back();
      live.pop_back();
      const RunningJob want = ref.erase(id);
      ASSERT_EQ(list.erase(want.predicted_end(), id), want);
    } else {
      const JobId id = live[rng() % live.size()];
      RunningJob r = ref.erase(id);
      const int64_t old_end = r.predicted_end();
      r.prediction = static_cast<int64_t>(rng() % 500);
      ref.insert(r);
      list.set_prediction(old_end, id, r.prediction);
    }
    if (round % 97 == 0 || list.size() < 40) {
      expect_same_list(list, ref);
      const int64_t total = list.procs();
      for (int64_t want : {int64_t{1}, total / 3, total / 2, total - 1, total, total + 1}) {
        if (want <= 0) continue;
        const size_t k = ref.reaching(want);
        const auto it = list.reaching(want);
        if (k == ref.jobs.size()) {
          ASSERT_TRUE(it == list.end());
        } else {
          ASSERT_TRUE(it != list.end());
          ASSERT_EQ(*it, ref.jobs[k]);
        }
      }
      for (int64_t t : {int64_t{-1}, int64_t{0}, int64_t{250}, int64_t{777}, int64_t{1499}, int64_t{2000}}) {
        ASSERT_EQ(list.procs_ending_by(t), ref.procs_ending_by(t)) << t;
      }
      for (size_t k = 0; k < ref.jobs.size(); k += 1 + ref.jobs.size() / 20) {
        const RunningJob& r = ref.jobs[k];
        ASSERT_NE(list.find(r.predicted_end(), r.id), nullptr);
        ASSERT_EQ(list.find(r.predicted_end() + 1, r.id), nullptr);
      }
    }
  }
  const RunningList copy = list;
  EXPECT_TRUE(copy == list);
  expect_same_list(copy, ref);
}

// Emptying nearly full blocks one after another, left to right: a small block that cannot join its (full) right
// neighbour must take jobs from it, or the list would end as about one block per job left.
TEST(RunningListTest, BlocksStayAQuarterFullWhenEmptiedInOrder) {
  RunningList list;
  ListReference ref;
  auto add = [&](JobId id, int64_t end) {
    const RunningJob r{.id = id, .procs = 1 + id % 7, .start = 0, .prediction = end};
    list.insert(r);
    ref.insert(r);
  };
  // Ends 0, 2, 4, ... fill blocks of 16 (a full block splits in halves); the odd ends between fill them up.
  for (JobId i = 0; i < 1600; ++i) add(i, 2 * i);
  for (JobId i = 0; i < 1600; ++i) add(10'000 + i, 2 * i + 1);
  ASSERT_LE(list.blocks(), 3200 / 30);  // nearly full
  // Keep 1 job in 30, erasing from the front of the list towards its end.
  const std::vector<RunningJob> in_order = ref.jobs;
  for (size_t k = 0; k < in_order.size(); ++k) {
    if (k % 30 == 0) continue;
    ASSERT_EQ(list.erase(in_order[k].predicted_end(), in_order[k].id), ref.erase(in_order[k].id));
    ASSERT_LE(list.blocks(), 4 * list.size() / RunningList::kBlock + 1) << "after erasing the job at " << k;
  }
  expect_same_list(list, ref);
  EXPECT_TRUE(*list.reaching(list.procs()) == ref.jobs.back());
}

// The shadow time by the definition (docs/simulator.md), walked over every job: compute_shadow's prefix
// searches must give the same time and extra processors.
Shadow shadow_by_walk(const SimState& state, int64_t free_now, std::vector<std::pair<int64_t, int64_t>> started,
                      int64_t procs) {
  if (free_now >= procs) return {state.now, free_now - procs};
  std::vector<std::pair<int64_t, int64_t>> ends = std::move(started);
  for (const RunningJob& r : state.running) ends.emplace_back(state.expected_end(r), r.procs);
  std::sort(ends.begin(), ends.end());
  int64_t avail = free_now;
  for (size_t k = 0; k < ends.size(); ++k) {
    avail += ends[k].second;
    if (avail < procs) continue;
    while (k + 1 < ends.size() && ends[k + 1].first == ends[k].first) avail += ends[++k].second;
    return {ends[k].first, avail - procs};
  }
  throw std::logic_error("no shadow");
}

TEST(ComputeShadowTest, SameAsTheWalkOverEveryJob) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 3'000; ++trial) {
    SimState state;
    state.now = 1000;
    const int64_t total = 64 + static_cast<int64_t>(rng() % 2000);
    state.machine = Machine(total);
    int64_t used = 0;
    const size_t n = rng() % (trial % 10 == 0 ? 400 : 40);
    for (size_t k = 0; k < n && used < total; ++k) {
      const int32_t p = static_cast<int32_t>(std::min<int64_t>(1 + static_cast<int64_t>(rng() % 40), total - used));
      // Some overdue (predicted end before now), many tied ends.
      const int64_t start = 400 + static_cast<int64_t>(rng() % 600);
      const int64_t prediction = static_cast<int64_t>(rng() % 5) * 150;
      state.running.insert({.id = static_cast<JobId>(k), .procs = p, .start = start, .prediction = prediction});
      used += p;
    }
    int64_t free_now = total - used;
    std::vector<std::pair<int64_t, int64_t>> started;
    const size_t k_started = rng() % 4;
    for (size_t k = 0; k < k_started && free_now > 0; ++k) {
      const int64_t p = std::min<int64_t>(1 + static_cast<int64_t>(rng() % 30), free_now);
      started.emplace_back(state.now + static_cast<int64_t>(rng() % 5) * 150, p);
      free_now -= p;
    }
    const int64_t procs = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(total));
    const Shadow want = shadow_by_walk(state, free_now, started, procs);
    auto copy = started;
    const Shadow got = compute_shadow(state, free_now, copy, procs);
    ASSERT_EQ(got.time, want.time) << "trial " << trial;
    ASSERT_EQ(got.extra, want.extra) << "trial " << trial;
  }
}

}  // namespace
}  // namespace schedlab::sim
