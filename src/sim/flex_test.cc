// Hand-computed Flex schedules (src/sim/flex.h). Most use slack=estimate (slack = the job's estimate, at
// least 60 s) so that each deadline is known in advance; --check (testing::run) verifies that no job
// starts after its first promised start plus its slack.
#include "sim/flex.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "schedlab/predict/registry.h"
#include "schedlab/sim/engine.h"
#include "schedlab/sim/scheduler_registry.h"
#include "schedlab/swf/reader.h"
#include "sim/sim_test_helpers.h"
#include "test_util.h"

namespace schedlab::sim {
namespace {
using testing::J;
using V = std::vector<int64_t>;

TEST(FlexTest, InsertsANewJobAheadWithinTheSlack) {
  // 10 processors. J2 (6) is promised 100 (J1 ends), deadline 200. J3 (6, 50 s) placed last starts at 200
  // (cost 6 × 198 = 1188); inserted before J2 it starts at 100 and J2 moves to 150 (cost 6 × 98 + 6 × 50 =
  // 888): inserted.
  const auto w = testing::workload(10, {J{1, 0, 100, 10, 100}, J{2, 1, 100, 6, 100}, J{3, 2, 50, 6, 50}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "flex:slack=estimate")), (V{0, 150, 100}));
  // Without slack J2 may not move: J3 goes last.
  EXPECT_EQ(testing::starts(w, testing::run(w, "flex:slack=estimate;slack_factor=0")), (V{0, 100, 200}));
}

TEST(FlexTest, TheCostCriterionDecides) {
  // 10 processors. J2 (9 procs) promised 100. J3 (2 procs, 50 s): last at 200, or before J2 at 100 with J2
  // moved to 150. Work: 2 × 198 = 396 against 2 × 98 + 9 × 50 = 646: last. Wait: 198 against 98 + 50 =
  // 148: inserted.
  const auto w = testing::workload(10, {J{1, 0, 100, 10, 100}, J{2, 1, 100, 9, 100}, J{3, 2, 50, 2, 50}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "flex:slack=estimate;cost=work")), (V{0, 100, 200}));
  EXPECT_EQ(testing::starts(w, testing::run(w, "flex:slack=estimate;cost=wait")), (V{0, 150, 100}));
}

TEST(FlexTest, NoJobIsDelayedPastItsSlack) {
  // 10 processors, cost = wait. J2 (9 procs) promised 100, deadline 200. J3, J4, J5 (10 procs, 40 s, slack
  // 60) arrive at 2, 3, 4. J3 jumps ahead (J2 to 140); J4 goes between J3 and J2 (J2 to 180; the same cost
  // as before J3, and ties go to the later position); J5 cannot go anywhere before J2 without pushing it to
  // 220 > 200: it goes last, at 280.
  const auto w = testing::workload(10, {J{1, 0, 100, 10, 100}, J{2, 1, 100, 9, 100}, J{3, 2, 40, 10, 40},
                                        J{4, 3, 40, 10, 40}, J{5, 4, 40, 10, 40}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "flex:slack=estimate;cost=wait")), (V{0, 180, 100, 140, 280}));
}

TEST(FlexTest, AJobThatFitsNowStartsNow) {
  // 10 processors. J3 (4 procs, ends 92) fits before J2's reservation at 100 and starts at once. J4
  // (4 procs, 200 s) could start at 92 only by pushing J2 to 292, past its deadline 160: it waits for J2.
  // The schedule is conservative backfilling's.
  const auto w = testing::workload(10, {J{1, 0, 100, 6, 100}, J{2, 1, 50, 8, 50}, J{3, 2, 90, 4, 90},
                                        J{4, 3, 200, 4, 200}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "flex:slack=estimate")), (V{0, 100, 2, 150}));
  EXPECT_EQ(testing::starts(w, testing::run(w, "conservative")), (V{0, 100, 2, 150}));
}

// 4 processors. J3 (4 procs) is promised 100 and J4 (4 procs) 150. When J2 ends at 10, J3's prediction grows from
// 50 to 80: [100,180) overlaps J4's [150,200). Without slack (each deadline is the first promised start) J4 may not
// move, so J3 alone moves, to its earliest fit after J4 (200); the compression pass then moves J4 to 100, and J3,
// looked at before J4 moved, keeps 200. J3's promise ended when its own prediction grew. (Re-placing the jobs in
// priority order kept J3 at 100 and pushed J4 to 180, past its deadline 150.) With J4's slack of 60 s (its estimate,
// at least 60 s) J4 may move to 180, within its deadline 210: J3 keeps its place.
TEST(FlexTest, AWaitingJobThatNeedsLongerDisplacesOthersOnlyWithinTheirSlack) {
  const auto w = testing::workload(4, {J{1, 0, 100, 2, 100}, J{2, 0, 10, 2, 10}, J{3, 1, 80, 4, 50},
                                       J{4, 2, 50, 4, 50}});
  testing::ScriptedPredictor p;
  p.on_termination_of[1] = {{2, 80}};
  auto flex = make_scheduler("flex:slack=estimate;slack_factor=0");
  SimOptions checked;
  checked.check = true;
  const SimResult r = simulate(w, *flex, p, checked);
  EXPECT_EQ(testing::starts(w, r), (V{0, 0, 200, 100}));
  EXPECT_GT(r.reservations_checked, 0);
  auto slack = make_scheduler("flex:slack=estimate");
  EXPECT_EQ(testing::starts(w, simulate(w, *slack, p, checked)), (V{0, 0, 100, 180}));
}

TEST(FlexTest, AverageWaitSlackStartsAtZero) {
  // The default slack is the mean wait of the jobs started so far: J1 started without waiting, so J2's slack
  // is 0 and J3 cannot jump ahead (compare InsertsANewJobAheadWithinTheSlack).
  const auto w = testing::workload(10, {J{1, 0, 100, 10, 100}, J{2, 1, 100, 6, 100}, J{3, 2, 50, 6, 50}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "flex")), (V{0, 100, 200}));
  // Once jobs have waited, later ones get slack.
  const auto w2 = testing::workload(10, {J{1, 0, 100, 10, 100}, J{2, 1, 100, 10, 100}, J{3, 300, 100, 10, 100},
                                         J{4, 301, 100, 6, 100}, J{5, 302, 50, 6, 50}});
  // Waits when J4 arrives: J1 0, J2 99, J3 0 -> slack 33; J4 is promised 400 (deadline 433). J5 before J4
  // would start at 400 and push J4 to 450 > 433: last, at 500.
  EXPECT_EQ(testing::starts(w2, testing::run(w2, "flex")), (V{0, 100, 300, 400, 500}));
}

TEST(FlexTest, AZeroLengthJobGivesItsSecondBack) {
  // One processor. J1 runs 0 s (its one-second hold ends at once); J2 starts at 0 too, as under conservative.
  const auto w = testing::workload(1, {J{1, 0, 0, 1, -1}, J{2, 0, 10, 1, 10}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "flex")), (V{0, 0}));
  EXPECT_EQ(testing::starts(w, testing::run(w, "conservative")), (V{0, 0}));
}

// Runs flex with or without the compression's certificates (with them, the self-check verifies each against a full
// scan); returns the start times and the scheduler's counts.
std::pair<V, FlexScheduler::Stats> run_flex(const Workload& w, FlexScheduler::Options o, bool certificates) {
  o.certificates = certificates;
  o.self_check = certificates;
  Engine e(w, std::make_unique<FlexScheduler>(o), predict::make_predictor("estimate"), SimOptions{});
  while (e.step()) {
  }
  V starts;
  for (const auto& job : e.result().jobs) starts.push_back(job.start);
  EXPECT_EQ(starts.size(), w.jobs.size());
  return {starts, dynamic_cast<const FlexScheduler&>(e.scheduler()).stats()};
}

// The certificates dismiss most jobs of a compression pass without a scan, and search the others only where
// processors came back: the same schedule as a full scan of every job, on the bundled KTH log with each cost.
TEST(FlexCertificates, SameScheduleAsFullScansOnKth) {
  const swf::Log log = swf::read_log(schedlab::testing::bundled_kth());
  const Workload w = build_workload(log.header, log.records, WorkloadOptions{});
  for (const auto cost : {FlexScheduler::Options::Cost::kWork, FlexScheduler::Options::Cost::kBoundedSlowdown}) {
    FlexScheduler::Options o;
    o.cost = cost;
    const auto [with, with_stats] = run_flex(w, o, true);
    const auto [without, without_stats] = run_flex(w, o, false);
    EXPECT_EQ(with, without);
    EXPECT_EQ(with_stats.moved, without_stats.moved);
    EXPECT_GT(with_stats.dismissed, 10000) << "the certificates should spare scans";
    EXPECT_GT(with_stats.searched, 1000);
    EXPECT_EQ(without_stats.dismissed + without_stats.searched, 0);
  }
}

// The same on small random workloads that exercise every path: early ends (gains), jobs outrunning their estimate
// (overdue: rebuilds), insertions that move jobs later (their old places are gains), zero-length jobs.
TEST(FlexCertificates, SameScheduleAsFullScansOnRandomWorkloads) {
  std::mt19937 rng(20261126);
  int64_t dismissed = 0, searched = 0, moved = 0;
  for (int round = 0; round < 150; ++round) {
    std::vector<testing::J> jobs;
    int32_t submit = 0;
    for (int32_t n = 1; n <= 60; ++n) {
      submit += static_cast<int32_t>(rng() % 40);
      const auto estimate = static_cast<int32_t>(1 + rng() % 300);
      const auto kind = rng() % 10;  // mostly early ends; some exact, overrun and zero-length runs
      const int32_t run = kind < 6   ? static_cast<int32_t>(rng() % static_cast<uint64_t>(estimate))
                          : kind < 8 ? estimate
                          : kind < 9 ? estimate + static_cast<int32_t>(rng() % 50)
                                     : 0;
      jobs.push_back({n, submit, run, static_cast<int32_t>(1 + rng() % 16), estimate});
    }
    WorkloadOptions wo;
    wo.procs = 16;
    const Workload w = build_workload(swf::Header{}, testing::records(jobs), wo);
    FlexScheduler::Options o;
    o.slack = round % 2 == 0 ? FlexScheduler::Options::Slack::kEstimate : FlexScheduler::Options::Slack::kAverageWait;
    const auto [with, with_stats] = run_flex(w, o, true);
    const auto [without, without_stats] = run_flex(w, o, false);
    ASSERT_EQ(with, without) << "round " << round;
    dismissed += with_stats.dismissed;
    searched += with_stats.searched;
    moved += with_stats.moved;
  }
  EXPECT_GT(dismissed, 1000);
  EXPECT_GT(searched, 1000);
  EXPECT_GT(moved, 100);
}

}  // namespace
}  // namespace schedlab::sim
