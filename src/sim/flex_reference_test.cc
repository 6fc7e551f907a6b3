// A second opinion on Flex: the obvious implementation (tests/flex_reference.h), which rebuilds its schedule at every
// call and tries every insertion position in full, must give every job the same start as the scheduler — with each
// slack rule and cost, with predictions that change while jobs wait and run, and with kills (the easy-kill wrapper).
// The scheduler's self-check compares its certificates with full scans of its own profile; this compares its whole
// schedule, and so its incremental profile and the search that stops when a position cannot win, with a scheduler
// that shares none of its data structures.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "flex_reference.h"
#include "schedlab/sim/simulate.h"
#include "schedlab/workload/workload.h"
#include "shuffling_predictor.h"
#include "sim/flex.h"
#include "sim/sim_test_helpers.h"
#include "test_util.h"

namespace schedlab::sim {
namespace {

using FlexOptions = FlexScheduler::Options;

struct FlexVariant {
  std::string name;
  FlexOptions options;
  bool kill = false;
};

std::vector<FlexVariant> flex_variants() {
  std::vector<FlexVariant> v;
  v.push_back({"flex", FlexOptions{}});
  FlexOptions o;
  o.slack = FlexOptions::Slack::kEstimate;
  o.cost = FlexOptions::Cost::kBoundedSlowdown;
  o.slack_factor = 0;
  v.push_back({"flex:slack=estimate;cost=bsld;slack_factor=0", o});
  o = FlexOptions{};
  o.cost = FlexOptions::Cost::kWait;
  o.slack_factor = 3;
  v.push_back({"flex:cost=wait;slack_factor=3", o});
  o = FlexOptions{};
  o.slack = FlexOptions::Slack::kEstimate;
  o.slack_factor = 2;
  v.push_back({"flex:slack=estimate;slack_factor=2", o});
  o = FlexOptions{};
  o.cost = FlexOptions::Cost::kBoundedSlowdown;
  v.push_back({"flex:cost=bsld, easy-kill", o, true});
  return v;
}

// What the scheduler's rules did over a test's runs (FlexScheduler::Stats, summed): a test states which of them its
// workloads must reach, so that agreeing with the reference is not agreeing on schedules that never met them.
struct FlexMet {
  int64_t moved = 0, inserted = 0, dropped = 0, grown_last = 0;
  void add(const FlexScheduler::Stats& s) {
    moved += s.moved;
    inserted += s.inserted;
    dropped += s.dropped;
    grown_last += s.grown_last;
  }
};

void expect_same_flex_starts(const Workload& w, const std::string& predictor, const std::string& what, FlexMet& met) {
  for (const FlexVariant& v : flex_variants()) {
    const std::string name = what + ", " + predictor + ", " + v.name;
    const auto p = schedlab::testing::test_predictor(predictor);
    testing::expect_same_as_reference<FlexScheduler>(
        w, *p, std::make_unique<FlexScheduler>(v.options), schedlab::testing::trying_flex(v.options), v.kill, name,
        [&](const FlexScheduler& used) { met.add(used.stats()); });
  }
}

// The random workloads of the reference tests on 16 processors (sim_test_helpers.h): tied submit times, jobs of every
// size up to the machine, zero-length jobs, overdue jobs and early ends.
TEST(FlexReference, RandomWorkloadsSameStarts) {
  std::mt19937 rng(2718);
  FlexMet met;
  for (int round = 0; round < 20; ++round) {
    const std::vector<schedlab::testing::J> jobs = testing::random_jobs(rng);
    const Workload w = testing::workload(16, jobs);
    const std::string what = "round " + std::to_string(round);
    expect_same_flex_starts(w, "estimate", what, met);
    // Predictions that change at deadline misses and, propagated, at terminations; and at random, both ways.
    expect_same_flex_starts(w, "user-last2:propagate=1;correction=tsafrir", what, met);
    expect_same_flex_starts(w, "shuffling:" + std::to_string(round), what, met);
  }
  EXPECT_GT(met.inserted, 3000);     // arrivals placed ahead of waiting jobs
  EXPECT_GT(met.dropped, 50000);     // candidates that would have pushed a job past its deadline
  EXPECT_GT(met.moved, 100000);      // compressions after early ends, insertions and changed predictions
  EXPECT_GT(met.grown_last, 1000);   // grown jobs placed after the others to keep the others' deadlines
}

// Long queues: 150 jobs in bursts on 64 processors, so that an arrival has many positions to try.
TEST(FlexReference, BurstsSameStarts) {
  std::mt19937 rng(5151);
  const std::vector<schedlab::testing::J> jobs = testing::burst_jobs(rng, 150, 50, 1500, 64);
  const Workload w = testing::workload(64, jobs);
  FlexMet met;
  expect_same_flex_starts(w, "estimate", "bursts", met);
  expect_same_flex_starts(w, "shuffling:11", "bursts", met);
  EXPECT_GT(met.inserted, 100);
  EXPECT_GT(met.dropped, 1000);
  EXPECT_GT(met.grown_last, 100);
}

// The first 2,000 jobs of KTH on its 100 processors.
TEST(FlexReference, KthPrefixSameStarts) {
  const Workload w = testing::kth_prefix(2000);
  FlexMet met;
  expect_same_flex_starts(w, "estimate", "KTH", met);
  expect_same_flex_starts(w, "user-last2:propagate=1;correction=tsafrir", "KTH", met);
  EXPECT_GT(met.inserted, 500);
  EXPECT_GT(met.moved, 10000);
  EXPECT_GT(met.grown_last, 10);
}

}  // namespace
}  // namespace schedlab::sim
