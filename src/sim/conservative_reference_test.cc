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
#include "schedlab/sim/kill_at_prediction.h"
#include "schedlab/sim/simulate.h"
#include "schedlab/swf/reader.h"
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

const std::vector<Variant> kVariants{
    {false, true, false}, {false, false, false}, {true, true, false}, {false, true, true}, {true, true, true},
};

void expect_same_starts(const Workload& w, const std::string& predictor, const std::string& what) {
  for (const Variant& v : kVariants) {
    const std::string name = what + ", " + predictor + ", " + describe(v);
    SimOptions so;
    so.check = true;  // the promises both report are kept, and the scheduler checks itself at every call
    const auto p = schedlab::testing::test_predictor(predictor);
    ConservativeScheduler::Options o;
    o.fixpoint = v.fixpoint;
    o.remember_failures = v.remember_failures;
    std::unique_ptr<Scheduler> real = std::make_unique<ConservativeScheduler>(o);
    std::unique_ptr<Scheduler> reference = schedlab::testing::keeping_conservative(v.fixpoint);
    if (v.kill) {
      real = std::make_unique<KillAtPrediction>("easy-kill", std::move(real));
      reference = std::make_unique<KillAtPrediction>("easy-kill", std::move(reference));
    }
    try {
      const SimResult got = simulate(w, *real, *p, so);
      const SimResult want = simulate(w, *reference, *p, so);
      testing::expect_same_outcomes(w, got, want, name);
    } catch (const std::exception& e) {
      ADD_FAILURE() << name << ": " << e.what();
    }
  }
}

// Random workloads on 16 processors: tied submit times, jobs of every size up to the machine, zero-length jobs,
// estimates below the runtime (overdue jobs, released reservations) and far above it (early ends, compression).
TEST(ConservativeReference, RandomWorkloadsSameStarts) {
  std::mt19937 rng(1303);
  for (int round = 0; round < 30; ++round) {
    const std::vector<schedlab::testing::J> jobs = testing::random_jobs(rng);
    WorkloadOptions wo;
    wo.procs = 16;
    const Workload w = build_workload(swf::Header{}, schedlab::testing::records(jobs), wo);
    expect_same_starts(w, "estimate", "round " + std::to_string(round));
    // Predictions that change at deadline misses (running jobs' holds grow) and, propagated, at terminations
    // (waiting jobs' holds shrink or grow in place, or are released); and at random, both ways, at every hook.
    expect_same_starts(w, "user-last2:propagate=1;correction=tsafrir", "round " + std::to_string(round));
    expect_same_starts(w, "shuffling:" + std::to_string(round), "round " + std::to_string(round));
  }
}

// Long queues: 200 jobs in two bursts on 64 processors, so that a pass meets many jobs that cannot move and the
// failures they leave cover the ones behind them.
TEST(ConservativeReference, BurstsSameStarts) {
  std::mt19937 rng(4242);
  std::vector<schedlab::testing::J> jobs;
  for (int32_t k = 1; k <= 200; ++k) {
    const int32_t submit = k <= 130 ? 0 : 3000;
    const auto run = static_cast<int32_t>(rng() % 8 == 0 ? 0 : 1 + rng() % 600);
    const auto procs = static_cast<int32_t>(rng() % 3 == 0 ? 1 + rng() % 64 : 1 + rng() % 8);
    const int32_t est = run + static_cast<int32_t>(rng() % 3) * 100 + (rng() % 5 == 0 ? -run / 2 : 0);
    jobs.push_back({k, submit, run, procs, est});
  }
  WorkloadOptions wo;
  wo.procs = 64;
  const Workload w = build_workload(swf::Header{}, schedlab::testing::records(jobs), wo);
  expect_same_starts(w, "estimate", "bursts");
  expect_same_starts(w, "user-last2:propagate=1;correction=tsafrir", "bursts");
  expect_same_starts(w, "shuffling:7", "bursts");
}

// The first 5,000 jobs of KTH on its 100 processors.
TEST(ConservativeReference, KthPrefixSameStarts) {
  swf::Log log = swf::read_log(schedlab::testing::bundled_kth());
  log.records.resize(5000);
  const Workload w = build_workload(log.header, log.records, WorkloadOptions{});
  expect_same_starts(w, "estimate", "KTH");
  expect_same_starts(w, "user-last2:propagate=1;correction=tsafrir", "KTH");
}

}  // namespace
}  // namespace schedlab::sim
