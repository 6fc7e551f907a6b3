// A second opinion on lerwf and lerwf-fill: the obvious implementation (tests/preemptive_references.h) must give every
// job the same start, end, run time and suspensions as the scheduler.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "sim/lerwf.h"
#include "schedlab/sim/simulate.h"
#include "schedlab/swf/reader.h"
#include "schedlab/workload/workload.h"
#include "sim/sim_test_helpers.h"
#include "preemptive_references.h"
#include "shuffling_predictor.h"
#include "test_util.h"

namespace schedlab::sim {
namespace {

// Same outcome for every job, and the same totals; `what` names the case in a failure.
void expect_same_schedules(const Workload& w, const std::string& predictor, const std::string& what) {
  for (const bool fill : {false, true}) {
    for (const int64_t delay : {0, 30}) {
      SimOptions o;
      o.check = true;  // processors never run two jobs, resumptions on their own processors, runtimes exact
      const auto p = schedlab::testing::test_predictor(predictor);
      const SimResult want = simulate(w, *schedlab::testing::sorting_lerwf(fill, delay), *p, o);
      const SimResult got = simulate(w, LerwfScheduler(fill, delay), *p, o);
      const std::string name = what + (fill ? ", lerwf-fill" : ", lerwf") + ", resume_delay " + std::to_string(delay);
      sim::testing::expect_same_outcomes(w, got, want, name);
    }
  }
}

// Random workloads on 16 processors: bursts of arrivals, tied submit times and remaining times, zero-length jobs,
// estimates below and above the runtime (overdue jobs, remaining time 0, ordered by id).
TEST(LerwfReference, RandomWorkloadsSameSchedules) {
  std::mt19937 rng(4242);
  for (int round = 0; round < 60; ++round) {
    std::vector<schedlab::testing::J> jobs;
    int32_t t = 0;
    const int n = 40 + static_cast<int>(rng() % 120);
    for (int32_t k = 1; k <= n; ++k) {
      t += static_cast<int32_t>(rng() % 4 == 0 ? 0 : rng() % 40);
      const auto run = static_cast<int32_t>(rng() % 10 == 0 ? 0 : rng() % 300);
      const auto over = static_cast<int32_t>(rng() % 200) + 1;
      const int32_t est = rng() % 3 == 0 ? std::max(1, run / 2) : run + over;  // some jobs outlive their estimate
      jobs.push_back({k, t, run, static_cast<int32_t>(1 + rng() % (rng() % 4 == 0 ? 16 : 6)), (est / 10) * 10 + 10});
    }
    const Workload w = testing::workload(16, jobs);
    // estimate: predictions fixed; user-last2 with the correction: predictions that change at deadline misses,
    // for waiting jobs too.
    expect_same_schedules(w, "estimate", "round " + std::to_string(round));
    expect_same_schedules(w, "user-last2:correction=tsafrir", "round " + std::to_string(round) + ", user-last2");
    // Predictions changed at random at every hook, both ways (tests/shuffling_predictor.h).
    expect_same_schedules(w, "shuffling:" + std::to_string(round), "round " + std::to_string(round) + ", shuffling");
  }
}

// The first 3,000 jobs of KTH on its 100 processors: queues of hundreds of jobs, many suspensions.
TEST(LerwfReference, KthPrefixSameSchedules) {
  swf::Log log = swf::read_log(schedlab::testing::bundled_kth());
  log.records.resize(3000);
  WorkloadOptions wo;
  const Workload w = build_workload(log.header, log.records, wo);
  expect_same_schedules(w, "estimate", "KTH");
  expect_same_schedules(w, "user-last2:correction=tsafrir", "KTH, user-last2");
}

}  // namespace
}  // namespace schedlab::sim
