// Hand-computed Maui schedules (src/sim/maui.h) and, on a real log, the default configuration equal to EASY.
#include "sim/maui.h"

#include <gtest/gtest.h>

#include "schedlab/sim/simulate.h"
#include "schedlab/swf/reader.h"
#include "sim/sim_test_helpers.h"

namespace schedlab::sim {
namespace {
using testing::J;
using V = std::vector<int64_t>;

TEST(MauiTest, DefaultIsEasyOnAHandScenario) {
  // EasyTest.RefusesABackfillThatWouldDelayTheHead: J3 would delay the head, J4 fits the extra
  // processors, J5 ends by the shadow time.
  const auto w = testing::workload(10, {J{1, 0, 100, 6, 100}, J{2, 1, 50, 8, 50}, J{3, 2, 200, 4, 200},
                                        J{4, 3, 500, 2, 500}, J{5, 4, 90, 2, 90}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "maui")), (V{0, 100, 150, 3, 4}));
}

TEST(MauiTest, DepthTwoProtectsTheSecondJob) {
  // 10 processors. J2 (8) waits for J1 (ends 100); J3 (10) waits too. J4 (2 procs, 1000 s) fits the
  // extra processors at the head's shadow time: EASY (depth 1) starts it at 3 and J3 waits until 1003.
  // With depth 2, J3 holds [150, 250) and J4 would collide: it waits until J3 ends.
  const auto w = testing::workload(10, {J{1, 0, 100, 6, 100}, J{2, 1, 50, 8, 50}, J{3, 2, 100, 10, 100},
                                        J{4, 3, 1000, 2, 1000}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "maui")), (V{0, 100, 1003, 3}));
  EXPECT_EQ(testing::starts(w, testing::run(w, "maui:depth=2")), (V{0, 100, 150, 250}));
}

TEST(MauiTest, ExpansionFactorPriorityPutsTheShortJobFirst) {
  // 10 processors, every job needs all of them. At t=100 J2 (1000 s, waited 99) has expansion factor
  // 1.099, J3 (10 s, waited 98) 10.8: J3 goes first under xfactor, second under fcfs.
  const auto w = testing::workload(10, {J{1, 0, 100, 10, 100}, J{2, 1, 1000, 10, 1000}, J{3, 2, 10, 10, 10}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "maui")), (V{0, 100, 1100}));
  EXPECT_EQ(testing::starts(w, testing::run(w, "maui:priority=xfactor")), (V{0, 110, 100}));
}

TEST(MauiTest, ShortestBackfillOrder) {
  // 10 processors. Head J2 (8): shadow 100, extra 2. J3 (4, 90 s) and J4 (4, 50 s) arrive together with 4
  // processors free: first fit takes J3 (queue order), shortest first takes J4. The other ends after the
  // shadow time with more than the extra processors: it waits for J2 (100..150).
  const auto w = testing::workload(10, {J{1, 0, 100, 6, 100}, J{2, 1, 50, 8, 50}, J{3, 2, 90, 4, 90},
                                        J{4, 2, 50, 4, 50}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "maui")), (V{0, 100, 2, 150}));
  EXPECT_EQ(testing::starts(w, testing::run(w, "maui:backfill=shortest")), (V{0, 100, 150, 2}));
}

TEST(MauiTest, BestFitBackfillsTheWidestFirst) {
  // 10 processors. Head J2 (8) waits for J1 (6 procs, ends 100): shadow 100, extra 2. J3 (2 procs) and J4 (4),
  // both 90 s, arrive together with 4 processors free; both would end before the shadow time. First fit takes J3
  // (queue order) and J4 no longer fits: at 92 it would end after the shadow time on more than the extra
  // processors, so it waits for J2 (100..150). Best fit takes the wider J4; J3 then fits the extra processors at 92.
  const auto w = testing::workload(10, {J{1, 0, 100, 6, 100}, J{2, 1, 50, 8, 50}, J{3, 2, 90, 2, 90},
                                        J{4, 2, 90, 4, 90}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "maui")), (V{0, 100, 2, 150}));
  EXPECT_EQ(testing::starts(w, testing::run(w, "maui:backfill=bestfit")), (V{0, 100, 92, 2}));
}

TEST(MauiTest, FixedReservationWidensTheBackfillWindow) {
  // 10 processors. J1a (3, estimate 150, ends at 20) and J1b (3, ends 100) run; head J2 (8) is reserved at
  // 150. J1a ends early at 20: dynamic reservations move J2 to 100 and J3 (4 procs, 120 s, arriving at 30)
  // cannot backfill; a fixed reservation stays at 150 and J3 (ends 150) backfills at 30 — J2 then starts
  // at 150, as promised.
  const auto w = testing::workload(10, {J{1, 0, 20, 3, 150}, J{2, 0, 100, 3, 100}, J{3, 1, 50, 8, 50},
                                        J{4, 30, 120, 4, 120}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "maui")), (V{0, 0, 100, 150}));
  EXPECT_EQ(testing::starts(w, testing::run(w, "maui:reservation=fixed")), (V{0, 0, 150, 30}));
}

TEST(MauiTest, BackfillingOnlyNewArrivalsChangesNothingWithoutOverruns) {
  // The thesis contrasts Maui (every waiting job tried at an arrival) with classic EASY (only the new one):
  // between two events nothing frees processors, so a job refused before is refused again.
  const auto w = testing::workload(10, {J{1, 0, 100, 6, 100}, J{2, 1, 50, 8, 50}, J{3, 2, 200, 4, 200},
                                        J{4, 3, 500, 2, 500}, J{5, 4, 90, 2, 90}, J{6, 50, 40, 2, 40}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "maui:arrivals=new")), testing::starts(w, testing::run(w, "maui")));
}

TEST(MauiTest, DefaultEqualsEasyJobForJobOnKth) {
  const std::string file = "KTH-SP2-1996-2.swf.gz";
  SCHEDLAB_NEED_TRACE(file);
  const swf::Log log = swf::read_log(schedlab::testing::trace_path(file));
  const Workload w = build_workload(log.header, log.records);
  SimOptions o;
  o.check = true;
  const SimResult easy = simulate(w, "easy", "estimate", o);
  // "maui" runs EASY's own call; arrivals=new takes the availability-profile path with EASY's rules — an
  // independent implementation of the same rule.
  for (const char* spec : {"maui", "maui:arrivals=new"}) {
    const SimResult maui = simulate(w, spec, "estimate", o);
    size_t differ = 0;
    for (size_t i = 0; i < w.jobs.size(); ++i) differ += maui.jobs[i].start != easy.jobs[i].start;
    EXPECT_EQ(differ, 0u) << spec;
  }
  // The other rules do change the schedule (so the comparison above could fail).
  const SimResult shortest = simulate(w, "maui:backfill=shortest", "estimate", o);
  EXPECT_NE(shortest.metrics.wait.mean, easy.metrics.wait.mean);
}

}  // namespace
}  // namespace schedlab::sim
