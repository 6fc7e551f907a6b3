// Hand-computed EASY and EASY-SJBF schedules (docs/conventions.md, the exact EASY rule).
#include "schedlab/sim/easy.h"

#include <gtest/gtest.h>

#include "sim/sim_test_helpers.h"

namespace schedlab::sim {
namespace {
using testing::J;
using V = std::vector<int64_t>;

TEST(EasyTest, RefusesABackfillThatWouldDelayTheHead) {
  // 10 processors. J2 (8) waits for J1: shadow 100, extra 2. J3 (4 procs, ends 202) would delay J2: refused.
  // J4 (2 procs = extra) backfills although it runs long; J5 ends by the shadow time and backfills.
  const auto w = testing::workload(10, {J{1, 0, 100, 6, 100}, J{2, 1, 50, 8, 50}, J{3, 2, 200, 4, 200},
                                        J{4, 3, 500, 2, 500}, J{5, 4, 90, 2, 90}});
  const auto r = testing::run(w, "easy");
  EXPECT_EQ(testing::starts(w, r), (V{0, 100, 150, 3, 4}));
  // first-fit without a reservation starts J3 at once and delays J2
  const auto f = testing::run(w, "fcfs-fill");
  EXPECT_EQ(testing::start_of(w, f, 3), 2);
  EXPECT_GT(testing::start_of(w, f, 2), 100);
}

// SimResult::backfilled: jobs that started while one ahead of them in arrival order still waited.
TEST(EasyTest, BackfilledCountsTheJobsThatPassedAWaitingOne) {
  // RefusesABackfillThatWouldDelayTheHead's schedule: starts 0, 100, 150, 3, 4. J4 and J5 pass J2 (and J3).
  const auto w = testing::workload(10, {J{1, 0, 100, 6, 100}, J{2, 1, 50, 8, 50}, J{3, 2, 200, 4, 200},
                                        J{4, 3, 500, 2, 500}, J{5, 4, 90, 2, 90}});
  const auto r = testing::run(w, "easy");
  EXPECT_EQ(r.backfilled, 2);
  EXPECT_DOUBLE_EQ(r.backfilled_share(), 0.4);
  EXPECT_EQ(testing::run(w, "fcfs").backfilled, 0);  // in order by construction
  EXPECT_EQ(testing::run(w, "fcfs-fill").backfilled, 3);  // J3, J4, J5 pass J2 at once
  // Warm-up: the first job to end (J5 at 94) is left out of the averages, and of the count.
  SimOptions o;
  o.warmup_fraction = 0.2;
  const auto warm = simulate(w, "easy", "estimate", o);
  EXPECT_EQ(warm.metrics.jobs, 4);
  EXPECT_EQ(warm.backfilled, 1);
  EXPECT_DOUBLE_EQ(warm.backfilled_share(), 0.25);
  // All at t=0, starts 0, 100, 0, 100, 150: J3 passes J2; J4 starts with J2, at the same instant, and passes
  // nobody; J5 starts after all of them.
  const auto t = testing::workload(10, {J{1, 0, 100, 6, 100}, J{2, 0, 50, 8, 50}, J{3, 0, 100, 4, 100},
                                        J{4, 0, 300, 2, 300}, J{5, 0, 101, 4, 101}});
  EXPECT_EQ(testing::run(t, "easy").backfilled, 1);
}

TEST(EasyTest, OverdueJobCountsAsEndingNow) {
  // 12 processors. J1 (4) estimated 10 s, runs 100 s: overdue from t=10. At t=50 head J3 (6) would fit
  // "now" once J1 ends, so shadow = 50 and extra = 0: J4 (2 procs, ends 70) may not backfill.
  const auto w = testing::workload(12, {J{1, 0, 100, 4, 10}, J{2, 0, 1000, 6, 1000}, J{3, 50, 100, 6, 100},
                                        J{4, 50, 20, 2, 20}});
  const auto r = testing::run(w, "easy");
  EXPECT_EQ(testing::starts(w, r), (V{0, 0, 100, 200}));
  // Knowing J1 really ends at 100, J4 (ends 70) backfills.
  const auto p = testing::run(w, "easy", "perfect");
  EXPECT_EQ(testing::starts(w, p), (V{0, 0, 100, 50}));
}

TEST(EasyTest, ExtraProcessorsAreConsumed) {
  // 12 processors. J2 (10) waits for J1 (8): shadow 100, extra = 12 - 10 = 2. In one scheduler call J3
  // (2, long) takes the extra processors; J4 (2, long) then has free processors but no extra: it waits.
  const auto w = testing::workload(12, {J{1, 0, 100, 8, 100}, J{2, 1, 100, 10, 100}, J{3, 2, 1000, 2, 1000},
                                        J{4, 2, 1000, 2, 1000}});
  const auto r = testing::run(w, "easy");
  EXPECT_EQ(testing::starts(w, r), (V{0, 100, 2, 200}));
}

TEST(EasyTest, JobEndingExactlyAtShadowBackfillsWithoutUsingExtra) {
  // 10 processors, all at t=0. Head J2 (8): shadow 100 (J1 ends), extra 2. J3 (4 procs) ends exactly at
  // 100 -> starts now; then no processor is free for J4.
  const auto w = testing::workload(10, {J{1, 0, 100, 6, 100}, J{2, 0, 50, 8, 50}, J{3, 0, 100, 4, 100},
                                        J{4, 0, 300, 2, 300}, J{5, 0, 101, 4, 101}});
  const auto r = testing::run(w, "easy");
  // t=100: J1, J3 end, J2 starts (8), J4 (2) fits too. J5 (4) after J2 at 150.
  EXPECT_EQ(testing::starts(w, r), (V{0, 100, 0, 100, 150}));
}

TEST(EasyTest, TerminationsBeforeArrivalsAndTiesByJobId) {
  // At t=100 J1 ends and two 10-processor jobs arrive; the log lists job 3 before job 2: job 2 goes first.
  const auto w = testing::workload(10, {J{1, 0, 100, 10, 100}, J{3, 100, 10, 10, 10}, J{2, 100, 10, 10, 10}});
  const auto r = testing::run(w, "easy");
  EXPECT_EQ(testing::starts(w, r), (V{0, 100, 110}));
  EXPECT_EQ(r.jobs[1].end, 110);
}

TEST(EasyTest, ZeroRuntimeJobsEndAtTheirStartInstant) {
  // J1 (runtime 0, estimate 10) starts and ends at 0, so J2 starts at 0 too (second round at t=0).
  const auto w = testing::workload(10, {J{1, 0, 0, 10, 10}, J{2, 0, 5, 10, 10}, J{3, 0, 0, 10, 10}});
  const auto r = testing::run(w, "easy");
  EXPECT_EQ(testing::starts(w, r), (V{0, 0, 5}));
  EXPECT_EQ(r.jobs[2].end, 5);
}

TEST(EasyTest, KillAtEstimate) {
  // J1 runs 100 s but estimated 50: killed at 50 and J2 starts then; without killing it waits to 100.
  const auto killed = testing::workload(10, {J{1, 0, 100, 10, 50}, J{2, 1, 10, 10, 10}}, true);
  const auto r = testing::run(killed, "easy");
  EXPECT_EQ(testing::starts(killed, r), (V{0, 50}));
  EXPECT_TRUE(killed.jobs[0].killed);
  EXPECT_EQ(killed.killed, 1);
  const auto kept = testing::workload(10, {J{1, 0, 100, 10, 50}, J{2, 1, 10, 10, 10}});
  EXPECT_EQ(testing::starts(kept, testing::run(kept, "easy")), (V{0, 100}));
}

TEST(EasyTest, ShadowCountsJobsStartedAtTheSameInstant) {
  // 10 processors, all at t=0. J1 (6, 100 s) starts in the same call, so the head J2 (8) waits for it:
  // shadow 100, extra 2. J3 (4 procs, 150 s) ends after 100 and exceeds extra: refused. J4 (4, 100 s) ends
  // by 100: starts.
  const auto w = testing::workload(10, {J{1, 0, 100, 6, 100}, J{2, 0, 100, 8, 100}, J{3, 0, 150, 4, 150},
                                        J{4, 0, 100, 4, 100}});
  const auto r = testing::run(w, "easy");
  EXPECT_EQ(testing::starts(w, r), (V{0, 100, 200, 0}));
}

TEST(EasyTest, ExtraCountsEveryJobEndingAtTheShadowTime) {
  // 10 processors. J1 (3), J2 (2), J3 (2) run from 0, all expected to end at 100; at t=1 head J4 (6) finds
  // 3 free. Shadow 100; at 100 all three end, so 3 + 7 = 10 processors are free then and extra = 10 - 6 = 4
  // (a walk that stops at the job making J4 fit counts 6 - 6 = 0 with J1 first, 1 with J2 and J3 first).
  // J5 (3 procs, runs past 100) fits in the extra 4: starts at 1; J4 still starts at its shadow time.
  const auto w = testing::workload(10, {J{1, 0, 100, 3, 100}, J{2, 0, 100, 2, 100}, J{3, 0, 100, 2, 100},
                                        J{4, 1, 50, 6, 50}, J{5, 1, 1000, 3, 1000}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "easy")), (V{0, 0, 0, 100, 1}));
  EXPECT_EQ(testing::starts(w, testing::run(w, "easy-sjbf")), (V{0, 0, 0, 100, 1}));
}

TEST(EasyTest, ExtraCountsRunningAndJustStartedJobsEndingAtTheShadowTime) {
  // 10 processors. J1 (3) and J2 (2) run from 0 to 100. At t=1 J3 (2, 99 s) starts in the same call and
  // also ends at 100; head J4 (6) finds 3 free. At 100: 3 + 3 + 2 + 2 = 10 free, extra 4, so J5 (3 procs,
  // long) backfills at 1.
  const auto w = testing::workload(10, {J{1, 0, 100, 3, 100}, J{2, 0, 100, 2, 100}, J{3, 1, 99, 2, 99},
                                        J{4, 1, 50, 6, 50}, J{5, 1, 1000, 3, 1000}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "easy")), (V{0, 0, 1, 100, 1}));
}

TEST(SjbfTest, BackfillsShortestPredictionFirst) {
  // 10 processors. Head J2 (10) waits for J1 (8, to 100): extra 0. Two 2-processor candidates: J3 (90 s)
  // and J4 (10 s). EASY backfills J3 (queue order); SJBF backfills J4, and J3 (ends past 100) waits.
  const auto w = testing::workload(10, {J{1, 0, 100, 8, 100}, J{2, 1, 50, 10, 50}, J{3, 2, 90, 2, 90},
                                        J{4, 2, 10, 2, 10}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "easy")), (V{0, 100, 2, 150}));
  EXPECT_EQ(testing::starts(w, testing::run(w, "easy-sjbf")), (V{0, 100, 150, 2}));
}

TEST(SjbfTest, TiesKeepQueueOrder) {
  const auto w = testing::workload(10, {J{1, 0, 100, 8, 100}, J{2, 1, 50, 10, 50}, J{3, 2, 30, 2, 30},
                                        J{4, 2, 30, 2, 30}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "easy-sjbf")), (V{0, 100, 2, 32}));
}

TEST(SjbfTest, ReservationStaysWithTheOldestJob) {
  // J2 (8 procs, long) is the oldest waiting job; the short J3 (5) does not fit now and must not overtake
  // it at t=100.
  const auto w = testing::workload(10, {J{1, 0, 100, 6, 100}, J{2, 1, 1000, 8, 1000}, J{3, 2, 10, 5, 10}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "easy-sjbf")), (V{0, 100, 1100}));
}

TEST(SjbfTest, ShortestCandidateConsumesTheExtraProcessors) {
  // 12 processors; head J2 (10): shadow 100, extra 2. J3 (1000 s) and J4 (500 s) both need 2 and end past
  // the shadow time. SJBF gives the extra processors to J4, EASY to J3.
  const auto w = testing::workload(12, {J{1, 0, 100, 8, 100}, J{2, 1, 100, 10, 100}, J{3, 2, 1000, 2, 1000},
                                        J{4, 2, 500, 2, 500}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "easy")), (V{0, 100, 2, 200}));
  EXPECT_EQ(testing::starts(w, testing::run(w, "easy-sjbf")), (V{0, 100, 200, 2}));
}

TEST(SjbfTest, JobsStartedInQueueOrderAreNotBackfilledAgain) {
  // 10 processors, all at t=0. J1 (2) starts in queue order; head J2 (9) waits for it: shadow 10, extra 1. By
  // prediction the walk meets J3 (5 s, ends by the shadow time: starts), J1 (10 s: started already, passed over),
  // J4 (20 s, 1 processor: takes the extra one), J5 (30 s: no extra left, waits until J4 ends).
  // Behind them, 300 jobs as wide as the machine (each starts alone, after these): enough waiting jobs for the
  // scheduler to keep its index by prediction, where J1 is met again and must be passed over.
  std::vector<J> jobs{J{1, 0, 10, 2, 10}, J{2, 0, 50, 9, 50}, J{3, 0, 5, 1, 5}, J{4, 0, 20, 1, 20},
                      J{5, 0, 30, 1, 30}};
  for (int32_t id = 6; id < 6 + 300; ++id) jobs.push_back(J{id, 0, 100, 10, 100});
  WorkloadOptions o;
  o.procs = 10;
  const Workload w = build_workload(swf::Header{}, testing::records(jobs), o);
  const V starts = testing::starts(w, testing::run(w, "easy-sjbf"));
  EXPECT_EQ(V(starts.begin(), starts.begin() + 5), (V{0, 10, 0, 0, 20}));
  EXPECT_EQ(starts[5], 60);  // J6 after J2 (9 processors, to 60)
}

// With a suspended job waiting (its remaining time below its prediction) the jobs that end by the shadow time are
// not a prefix of the prediction order; the scheduler then sorts its candidates as without the index. No policy
// here suspends, so the state is made by hand. 10 processors, J5 (5) runs to 100; head J6 (8): shadow 100, extra
// 2. J7 (3 processors, prediction 1000, 995 s run: 5 s left) and J8 (2, 50 s) wait behind it. By prediction J8
// starts first (3 left), then J7 ends by the shadow time and fits: it starts too (taken as ending at its
// prediction, it would have needed the extra processors and waited).
TEST(SjbfTest, ASuspendedWaitingJobIsTakenByItsRemainingTime) {
  SimState state;
  state.machine = Machine(10);
  state.machine.allocate(5, 5);
  state.running.insert(RunningJob{5, 5, 0, 100});
  state.queue.push_back(WaitingJob{6, 8, 0, 100, 0});
  state.queue.push_back(WaitingJob{7, 3, 0, 1000, 995});
  state.queue.push_back(WaitingJob{8, 2, 0, 50, 0});
  // And enough jobs too wide to backfill (10 processors) for the scheduler to keep its index.
  for (JobId id = 9; id < 9 + 300; ++id) state.queue.push_back(WaitingJob{id, 10, 0, 10 + id, 0});
  EasyScheduler sjbf(EasyScheduler::Order::kShortestFirst);
  Decision d;
  sjbf.schedule(state, d);
  EXPECT_EQ(d.start, (std::vector<JobId>{8, 7}));
  ASSERT_EQ(d.reservations.size(), 1u);
  EXPECT_EQ(d.reservations[0].job, 6);
  EXPECT_EQ(d.reservations[0].time, 100);
}

TEST(SjbfTest, UsesPredictionsNotEstimates) {
  // With perfect predictions J3 (estimate 1000, runs 10) is the shortest and ends before the shadow time.
  const auto w = testing::workload(10, {J{1, 0, 100, 8, 100}, J{2, 1, 50, 10, 50}, J{3, 2, 10, 2, 1000},
                                        J{4, 2, 50, 2, 50}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "easy-sjbf", "estimate")), (V{0, 100, 150, 2}));
  EXPECT_EQ(testing::starts(w, testing::run(w, "easy-sjbf", "perfect")), (V{0, 100, 2, 12}));
}

}  // namespace
}  // namespace schedlab::sim
