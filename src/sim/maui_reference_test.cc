// A second opinion on maui's rules other than EASY's: the obvious implementation (tests/maui_reference.h) must give
// every job the same start as the scheduler, for every combination of depth, priority, backfill order, reservation
// kind and arrival rule.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "maui_reference.h"
#include "schedlab/sim/simulate.h"
#include "schedlab/workload/workload.h"
#include "sim/maui.h"
#include "sim/sim_test_helpers.h"
#include "shuffling_predictor.h"
#include "test_util.h"

namespace schedlab::sim {
namespace {

using Options = MauiScheduler::Options;

std::vector<Options> every_combination(const std::vector<int>& depths) {
  std::vector<Options> all;
  for (const int depth : depths)
    for (const auto priority : {Options::Priority::kFcfs, Options::Priority::kXfactor})
      for (const auto backfill :
           {Options::Backfill::kFirstFit, Options::Backfill::kBestFit, Options::Backfill::kShortest})
        for (const bool fixed : {false, true})
          for (const bool only_new : {false, true}) all.push_back({depth, priority, backfill, fixed, only_new});
  // The defaults run EASY's own call (MauiTest.DefaultEqualsEasyJobForJobOnKth), not the profile.
  std::erase_if(all, [](const Options& o) {
    return o.depth == 1 && o.priority == Options::Priority::kFcfs && o.backfill == Options::Backfill::kFirstFit &&
           !o.fixed_reservations && !o.backfill_new_only_at_arrival;
  });
  return all;
}

std::string describe(const Options& o) {
  return "depth " + std::to_string(o.depth) + (o.priority == Options::Priority::kXfactor ? ", xfactor" : ", fcfs") +
         (o.backfill == Options::Backfill::kBestFit    ? ", bestfit"
          : o.backfill == Options::Backfill::kShortest ? ", shortest"
                                                       : ", firstfit") +
         (o.fixed_reservations ? ", fixed" : ", dynamic") + (o.backfill_new_only_at_arrival ? ", new" : ", all");
}

void expect_same_starts(const Workload& w, const std::string& predictor, const std::vector<Options>& options,
                        const std::string& what) {
  for (const Options& o : options) {
    const std::string name = what + ", " + predictor + ", " + describe(o);
    SimOptions so;
    so.check = true;  // and the promises the scheduler reports are kept
    const auto p = schedlab::testing::test_predictor(predictor);
    try {
      const SimResult got = simulate(w, MauiScheduler(o), *p, so);
      const SimResult want = simulate(w, *schedlab::testing::sorting_maui(o), *p, so);
      testing::expect_same_outcomes(w, got, want, name);
    } catch (const std::exception& e) {
      ADD_FAILURE() << name << ": " << e.what();
    }
  }
}

// Random workloads on 16 processors: bursts and tied submit times, jobs of every size up to the machine, zero-length
// jobs, estimates below the runtime (overdue jobs) and above it (early ends, which fixed reservations keep apart).
TEST(MauiReference, RandomWorkloadsSameStarts) {
  std::mt19937 rng(515);
  const auto options = every_combination({1, 2, 4});
  for (int round = 0; round < 25; ++round) {
    const std::vector<schedlab::testing::J> jobs = testing::random_jobs(rng);
    const Workload w = testing::workload(16, jobs);
    expect_same_starts(w, "estimate", options, "round " + std::to_string(round));
    // Predictions that change at deadline misses, for waiting jobs too (their remaining time and x-factor move).
    expect_same_starts(w, "user-last2:correction=tsafrir", options, "round " + std::to_string(round));
    // Predictions changed at random at every hook, both ways (tests/shuffling_predictor.h).
    expect_same_starts(w, "shuffling:" + std::to_string(round), options, "round " + std::to_string(round));
  }
}

// Long queues: 600 jobs in three bursts on 64 processors, many too wide for the free processors, so the walks that
// skip them and the sorts of the few that could start are exercised against the full sorts.
TEST(MauiReference, BurstsSameStarts) {
  std::mt19937 rng(77);
  const std::vector<schedlab::testing::J> jobs = testing::burst_jobs(rng, 600, 200, 5000, 64);
  const Workload w = testing::workload(64, jobs);
  expect_same_starts(w, "estimate", every_combination({1, 3}), "bursts");
}

// backfill=shortest walks an index by prediction from 256 waiting jobs (src/sim/shortest_first_index.h): 1,200 jobs
// in two bursts on 128 processors, ties of prediction, zero-length jobs, estimates below the runtime, and with
// user-last2's corrections predictions that change while jobs wait.
TEST(MauiReference, LongQueuesSameStartsThroughTheIndex) {
  std::mt19937 rng(2024);
  std::vector<schedlab::testing::J> jobs;
  for (int32_t k = 1; k <= 1200; ++k) {
    const int32_t submit = k <= 700 ? 0 : 20000;
    const auto run = static_cast<int32_t>(rng() % 10 == 0 ? 0 : 1 + rng() % 2000);
    const auto procs = static_cast<int32_t>(rng() % 4 == 0 ? 1 + rng() % 128 : 1 + rng() % 6);
    const int32_t est = rng() % 5 == 0 ? std::max(1, run / 2) : (run / 100 + 1 + static_cast<int32_t>(rng() % 3)) * 100;
    jobs.push_back({k, submit, run, procs, est});
  }
  const Workload w = testing::workload(128, jobs);
  const std::vector<Options> options{
      {1, Options::Priority::kFcfs, Options::Backfill::kShortest, false, false},
      {3, Options::Priority::kFcfs, Options::Backfill::kShortest, false, false},
      {2, Options::Priority::kFcfs, Options::Backfill::kShortest, true, false},
      {2, Options::Priority::kFcfs, Options::Backfill::kShortest, false, true},
  };
  expect_same_starts(w, "estimate", options, "long queues");
  expect_same_starts(w, "user-last2:correction=tsafrir", options, "long queues");
}

// The first 5,000 jobs of KTH on its 100 processors, each option alone, and all of them.
TEST(MauiReference, KthPrefixSameStarts) {
  const Workload w = testing::kth_prefix(5000);
  const std::vector<Options> options{
      {2, Options::Priority::kFcfs, Options::Backfill::kFirstFit, false, false},
      {1, Options::Priority::kXfactor, Options::Backfill::kFirstFit, false, false},
      {1, Options::Priority::kFcfs, Options::Backfill::kBestFit, false, false},
      {1, Options::Priority::kFcfs, Options::Backfill::kShortest, false, false},
      {1, Options::Priority::kFcfs, Options::Backfill::kFirstFit, true, false},
      {1, Options::Priority::kFcfs, Options::Backfill::kFirstFit, false, true},
      {4, Options::Priority::kXfactor, Options::Backfill::kShortest, true, true},
  };
  expect_same_starts(w, "estimate", options, "KTH");
}

}  // namespace
}  // namespace schedlab::sim
