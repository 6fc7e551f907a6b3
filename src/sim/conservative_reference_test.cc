// A second opinion on conservative backfilling: the obvious implementation (tests/conservative_reference.h) must give
// every job the same start as the scheduler — with one compression pass and with passes to a fixpoint, with and
// without remembered failures, with predictions that change while jobs wait and run, and with kills (easy-kill).
// The scheduler's self-check compares its certificates with full scans of its own profile; this compares its whole
// schedule with a scheduler that shares none of its data structures.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "conservative_reference.h"
#include "schedlab/sim/simulate.h"
#include "schedlab/workload/workload.h"
#include "shuffling_predictor.h"
#include "sim/conservative.h"
#include "sim/sim_test_helpers.h"
#include "test_util.h"

namespace schedlab::sim {
namespace {

struct Variant {
  bool fixpoint;
  bool remember_failures;
  bool kill;
};

std::string describe(const Variant& v) {
  return std::string(v.fixpoint ? "fixpoint" : "one pass") + (v.remember_failures ? "" : ", no failures") +
         (v.kill ? ", easy-kill" : "");
}

// What the scheduler's rules did over a test's runs (ConservativeScheduler::Stats, summed): a test states which of
// them its workloads must reach, so that agreeing with the reference is not agreeing on schedules that never met them.
struct Met {
  int64_t moved_earlier = 0, released = 0, forced_later = 0, failure_skips = 0;
  void add(const ConservativeScheduler::Stats& s) {
    moved_earlier += s.moved_earlier;
    released += s.released;
    forced_later += s.forced_later;
    failure_skips += s.failure_skips;
  }
};

const std::vector<Variant> kVariants{
    {false, true, false}, {false, false, false}, {true, true, false}, {false, true, true}, {true, true, true},
};

void expect_same_starts(const Workload& w, const std::string& predictor, const std::string& what, Met& met) {
  for (const Variant& v : kVariants) {
    const std::string name = what + ", " + predictor + ", " + describe(v);
    const auto p = schedlab::testing::test_predictor(predictor);
    ConservativeScheduler::Options o;
    o.fixpoint = v.fixpoint;
    o.remember_failures = v.remember_failures;
    testing::expect_same_as_reference<ConservativeScheduler>(
        w, *p, std::make_unique<ConservativeScheduler>(o), schedlab::testing::keeping_conservative(v.fixpoint), v.kill,
        name, [&](const ConservativeScheduler& used) { met.add(used.stats()); });
  }
}

// Random workloads on 16 processors: tied submit times, jobs of every size up to the machine, zero-length jobs,
// estimates below the runtime (overdue jobs, released reservations) and far above it (early ends, compression).
TEST(ConservativeReference, RandomWorkloadsSameStarts) {
  std::mt19937 rng(1303);
  Met met;
  for (int round = 0; round < 30; ++round) {
    const std::vector<schedlab::testing::J> jobs = testing::random_jobs(rng);
    const Workload w = testing::workload(16, jobs);
    expect_same_starts(w, "estimate", "round " + std::to_string(round), met);
    // Predictions that change at deadline misses (running jobs' holds grow) and, propagated, at terminations
    // (waiting jobs' holds shrink or grow in place, or are released); and at random, both ways, at every hook.
    expect_same_starts(w, "user-last2:propagate=1;correction=tsafrir", "round " + std::to_string(round), met);
    expect_same_starts(w, "shuffling:" + std::to_string(round), "round " + std::to_string(round), met);
  }
  EXPECT_GT(met.moved_earlier, 10000);  // compressions after early ends and shorter predictions
  EXPECT_GT(met.released, 10000);       // lost capacity: overdue jobs, longer predictions, passed reservations
  EXPECT_GT(met.forced_later, 10000);   // reservations that lost capacity and were placed later
}

// Long queues: 200 jobs in two bursts on 64 processors, so that a pass meets many jobs that cannot move and the
// failures they leave cover the ones behind them.
TEST(ConservativeReference, BurstsSameStarts) {
  std::mt19937 rng(4242);
  const std::vector<schedlab::testing::J> jobs = testing::burst_jobs(rng, 200, 130, 3000, 64);
  const Workload w = testing::workload(64, jobs);
  Met met;
  expect_same_starts(w, "estimate", "bursts", met);
  expect_same_starts(w, "user-last2:propagate=1;correction=tsafrir", "bursts", met);
  expect_same_starts(w, "shuffling:7", "bursts", met);
  EXPECT_GT(met.failure_skips, 1000);  // failures spared searches (the variants that remember them)
  EXPECT_GT(met.moved_earlier, 10000);
}

// The first 5,000 jobs of KTH on its 100 processors.
TEST(ConservativeReference, KthPrefixSameStarts) {
  const Workload w = testing::kth_prefix(5000);
  Met met;
  expect_same_starts(w, "estimate", "KTH", met);
  expect_same_starts(w, "user-last2:propagate=1;correction=tsafrir", "KTH", met);
  EXPECT_GT(met.moved_earlier, 10000);
}

}  // namespace
}  // namespace schedlab::sim
