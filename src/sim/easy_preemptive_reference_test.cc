// A second opinion on easy-preemptive: the obvious implementation of its rule (tests/preemptive_references.h) must
// give every job the same start, end, run time and suspensions as the scheduler.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "schedlab/predict/registry.h"
#include "schedlab/sim/easy_preemptive.h"
#include "schedlab/sim/simulate.h"
#include "schedlab/workload/workload.h"
#include "sim/sim_test_helpers.h"
#include "preemptive_references.h"
#include "shuffling_predictor.h"
#include "test_util.h"

namespace schedlab::sim {
namespace {

// Same outcome for every job, and the same totals; `what` names the case in a failure.
void expect_same_as_the_walk(const Workload& w, const std::string& predictor, const std::string& what) {
  for (const int64_t delay : {0, 30}) {
    SimOptions o;
    o.check = true;  // processors never run two jobs, resumptions on their own processors, runtimes exact
    const auto p = schedlab::testing::test_predictor(predictor);
    const SimResult want = simulate(w, *schedlab::testing::walking_easy_preemptive(delay), *p, o);
    const SimResult got = simulate(w, EasyPreemptiveScheduler(delay), *p, o);
    const std::string name = what + ", resume_delay " + std::to_string(delay);
    sim::testing::expect_same_outcomes(w, got, want, name);
  }
}

// Random workloads on 24 processors: bursts of arrivals, sizes on and between the size classes (5, 7, 11, ...),
// every run time from 0 to 600 s, estimates below the runtime (suspensions, suspended jobs queued behind others
// with their processors taken) and above it.
TEST(EasyPreemptiveReference, RandomWorkloadsSameSchedules) {
  std::mt19937 rng(2027);
  size_t suspended = 0;
  for (int round = 0; round < 60; ++round) {
    std::vector<schedlab::testing::J> jobs;
    int32_t t = 0;
    const int n = 40 + static_cast<int>(rng() % 160);
    for (int32_t k = 1; k <= n; ++k) {
      t += static_cast<int32_t>(rng() % 4 == 0 ? 0 : rng() % 50);
      const auto run = static_cast<int32_t>(rng() % 10 == 0 ? 0 : rng() % 600);
      const auto over = static_cast<int32_t>(rng() % 300) + 1;
      const int32_t est = rng() % 3 == 0 ? std::max(1, run / 2) : run + over;
      jobs.push_back({k, t, run, static_cast<int32_t>(1 + rng() % (rng() % 4 == 0 ? 24 : 7)), est});
    }
    const Workload w = testing::workload(24, jobs);
    expect_same_as_the_walk(w, "estimate", "round " + std::to_string(round));
    expect_same_as_the_walk(w, "user-last2:correction=tsafrir", "round " + std::to_string(round) + ", user-last2");
    // Predictions changed at random at every hook, both ways (tests/shuffling_predictor.h).
    expect_same_as_the_walk(w, "shuffling:" + std::to_string(round), "round " + std::to_string(round) + ", shuffling");
    const auto p = predict::make_predictor("estimate");
    suspended += simulate(w, EasyPreemptiveScheduler(0), *p, SimOptions{}).suspensions;
  }
  EXPECT_GT(suspended, 500u);  // the walks met many suspended jobs holding processors
}

// The first 3,000 jobs of KTH on its 100 processors: queues of hundreds of jobs, many suspensions.
TEST(EasyPreemptiveReference, KthPrefixSameSchedules) {
  const Workload w = testing::kth_prefix(3000);
  expect_same_as_the_walk(w, "estimate", "KTH");
  expect_same_as_the_walk(w, "user-last2:correction=tsafrir", "KTH, user-last2");
}

}  // namespace
}  // namespace schedlab::sim
