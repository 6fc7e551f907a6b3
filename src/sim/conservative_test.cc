#include "sim/conservative.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "schedlab/predict/basic_predictors.h"
#include "schedlab/predict/registry.h"
#include "schedlab/sim/engine.h"
#include "schedlab/sim/scheduler_registry.h"
#include "schedlab/sim/simulate.h"
#include "schedlab/workload/workload.h"
#include "schedlab/swf/reader.h"
#include "sim/sim_test_helpers.h"
#include "test_util.h"

namespace schedlab::sim {
namespace {

struct Spec {
  int64_t submit;
  int32_t procs;
  int64_t estimate;
  int64_t runtime;
};

Workload make_workload(int64_t procs, const std::vector<Spec>& specs) {
  Workload w;
  w.procs = procs;
  for (size_t i = 0; i < specs.size(); ++i) {
    Job j;
    j.id = static_cast<JobId>(i);
    j.job_number = static_cast<int32_t>(i + 1);
    j.submit = specs[i].submit;
    j.procs = specs[i].procs;
    j.estimate = specs[i].estimate;
    j.has_estimate = true;
    j.runtime = specs[i].runtime;
    w.jobs.push_back(j);
  }
  return w;
}

SimOptions conservative_checked() {
  SimOptions o;
  o.check = true;  // engine checks + the scheduler's self-check (wants_reservations)
  return o;
}

std::vector<int64_t> starts(const SimResult& r) {
  std::vector<int64_t> out;
  for (const auto& j : r.jobs) out.push_back(j.start);
  return out;
}

using Starts = std::vector<int64_t>;

using testing::ScriptedPredictor;

SimResult run_conservative(const Workload& w, const predict::Predictor& p) {
  ConservativeScheduler s(ConservativeScheduler::Options{true});
  return simulate(w, s, p, conservative_checked());
}

SimResult run_conservative(const Workload& w) { return run_conservative(w, predict::EstimatePredictor()); }

// ---------------------------------------------------------------------------------------------------
// Hand-computed scenarios. Machine of 10 processors unless said otherwise; (submit, procs, est, run).

// EASY protects only the head: J3 may use the head's "extra" processors and run past the shadow time,
// delaying the SECOND waiting job J2. Conservative must not; the short J4 still backfills.
TEST(Conservative, NoBackfillThatDelaysTheSecondWaitingJob) {
  const Workload w = make_workload(10, {
                                           {0, 6, 100, 100},  // J0 runs [0,100), 4 free
                                           {1, 8, 100, 100},  // J1 head: reserved [100,200), 2 free then
                                           {2, 10, 100, 100}, // J2: reserved [200,300)
                                           {3, 2, 500, 500},  // J3: [3,503) would hit J2 -> [300,800)
                                           {4, 2, 90, 90},    // J4: [4,94) in the hole: starts now
                                       });
  EXPECT_EQ(starts(run_conservative(w)), (Starts{0, 100, 200, 300, 4}));
  // EASY (for contrast) starts J3 at once and delays J2 to 503.
  const SimResult easy = simulate(w, "easy", "estimate", conservative_checked());
  EXPECT_EQ(easy.jobs[3].start, 3);
  EXPECT_EQ(easy.jobs[2].start, 503);
}

// A job must not jump a reservation: J2 fits now but would overlap J1's reservation; J3, which ends
// exactly at the reservation (half-open intervals), may go; J4, one second longer, may not.
TEST(Conservative, JobMustNotJumpAReservation) {
  const Workload w = make_workload(10, {
                                           {0, 5, 100, 100},  // J0 [0,100)
                                           {1, 10, 50, 50},   // J1 reserved [100,150)
                                           {2, 5, 150, 150},  // J2 overlaps [100,150) -> 150
                                           {3, 3, 97, 97},    // J3 [3,100): ends at 100, starts now
                                           {4, 2, 97, 97},    // J4 [4,101): overlaps 100 -> after J2?
                                       });
  // J4: 2 procs 97 s. Free: [4,100) 2, [100,150) 0, [150,300) 5 (J2 holds 5) -> J4 at 150.
  EXPECT_EQ(starts(run_conservative(w)), (Starts{0, 100, 150, 3, 150}));
}

// Compression: J0 ends at 40 instead of 100; the waiting jobs are re-placed in queue order.
TEST(Conservative, CompressionAfterEarlyTermination) {
  const Workload w = make_workload(10, {
                                           {0, 10, 100, 40},  // J0 predicted [0,100), ends at 40
                                           {1, 5, 50, 50},    // J1 reserved [100,150) -> 40
                                           {2, 5, 50, 50},    // J2 reserved [100,150) -> 40
                                           {3, 10, 10, 10},   // J3 reserved [150,160) -> 90
                                           {4, 6, 30, 30},    // J4 reserved [160,190) -> 100
                                       });
  const SimResult r = run_conservative(w);
  EXPECT_EQ(starts(r), (Starts{0, 40, 40, 90, 100}));
  // The reservations themselves, instant by instant: as placed on arrival, then compressed at 40.
  Engine e(w, std::make_unique<ConservativeScheduler>(ConservativeScheduler::Options{true}),
           std::make_unique<predict::EstimatePredictor>(), conservative_checked());
  const auto held = [&] {
    const auto& c = dynamic_cast<const ConservativeScheduler&>(e.scheduler());
    std::vector<int64_t> out;
    for (JobId j = 0; j < 5; ++j) out.push_back(c.reservation(j).value_or(-1));
    return out;
  };
  while (e.state().now < 4 && e.step()) {
  }
  EXPECT_EQ(held(), (Starts{-1, 100, 100, 150, 160}));  // J0 runs: no reservation
  while (e.state().now < 40 && e.step()) {
  }
  EXPECT_EQ(held(), (Starts{-1, -1, -1, 90, 100}));  // J1 and J2 started at 40
  EXPECT_FALSE(dynamic_cast<const ConservativeScheduler&>(e.scheduler()).reservation(99).has_value());
}

// A chain of moves: a job moved earlier gives back only the tail of its old hold that its new one does
// not cover, and the next job can use only that tail.
TEST(Conservative, CompressionChainThroughFreedTails) {
  const Workload w = make_workload(10, {
                                           {0, 10, 100, 50},   // J0 predicted [0,100), ends at 50
                                           {1, 10, 100, 100},  // J1 reserved [100,200) -> [50,150)
                                           {2, 5, 30, 30},     // J2 reserved [200,230) -> [150,180)
                                           {3, 5, 130, 130},   // J3 reserved [200,330) -> [150,280)
                                       });
  // At 50: J1 takes [50,150) and gives back [150,200) only ([100,150) stays held by it). J2 (5 procs,
  // 30 s) fits nowhere before 150 (J1 holds all 10), then [150,180): it moves there and gives back
  // [200,230). J3 (5 procs, 130 s): 5 free on [150,180) beside J2, 10 after: [150,280).
  EXPECT_EQ(starts(run_conservative(w)), (Starts{0, 50, 150, 150}));
}

// Compression never lets a later job overtake: after J0 ends early, the big J1 gets the hole first
// and the small J2 (which would fit earlier in a greedy re-plan of J2 alone) is placed behind it only
// where it does not delay J1.
TEST(Conservative, CompressionKeepsQueueOrderPriority) {
  const Workload w = make_workload(10, {
                                           {0, 10, 100, 20},  // J0 ends at 20 instead of 100
                                           {1, 8, 100, 100},  // J1 reserved [100,200) -> [20,120)
                                           {2, 4, 50, 50},    // J2 reserved [200,250) -> [120,170)
                                           {3, 2, 200, 200},  // J3 reserved [100,300) -> [20,220)
                                       });
  // At 20, in queue order: J1 -> 20 (8 of 10). J2 needs 4: only 2 left until 120 -> 120.
  // J3 needs 2 for 200 s: [20,220) has 2 free until 120, then 10-4=6 until 170 -> 20.
  EXPECT_EQ(starts(run_conservative(w)), (Starts{0, 20, 120, 20}));
}

// Simultaneous events: at t=50 J0 terminates (early) and J2 arrives. Terminations are handled first, so
// the waiting J1 is compressed to 50 BEFORE the new J2 is placed; J2 must not take J1's processors.
TEST(Conservative, SimultaneousTerminationAndArrival) {
  const Workload w = make_workload(10, {
                                           {0, 10, 100, 50},  // J0 ends at 50
                                           {10, 6, 100, 100}, // J1 reserved [100,200) -> 50
                                           {50, 6, 10, 10},   // J2 arrives at 50: 4 free -> 150
                                           {50, 4, 10, 10},   // J3 arrives at 50 too: fits now
                                       });
  EXPECT_EQ(starts(run_conservative(w)), (Starts{0, 50, 150, 50}));
}

// Two arrivals at the same instant get reservations in id order, the first one first.
TEST(Conservative, SimultaneousArrivalsInQueueOrder) {
  const Workload w = make_workload(10, {
                                           {0, 10, 100, 100},
                                           {5, 7, 100, 100},  // arrives with J2: placed first, [100,200)
                                           {5, 7, 10, 10},    // [100,200) has 3 left -> [200,210)
                                           {5, 3, 100, 100},  // fits beside J1: [100,200)
                                       });
  EXPECT_EQ(starts(run_conservative(w)), (Starts{0, 100, 200, 100}));
}

// An overdue job (still running past its prediction, estimate predictor, no update) must never let a
// job start on its processors: J1's reservation at 50 is void while J0 still runs; everything waits
// for J0's real end at 80.
TEST(Conservative, OverdueRunningJobKeepsItsProcessors) {
  const Workload w = make_workload(10, {
                                           {0, 10, 50, 80},  // J0 predicted to end at 50, ends at 80
                                           {10, 10, 10, 10}, // J1 reserved [50,60)
                                           {50, 1, 5, 5},    // J2 arrives at 50 (a scheduler call at 50)
                                           {60, 1, 5, 5},    // J3 arrives at 60 (another call)
                                       });
  const SimResult r = run_conservative(w);
  EXPECT_EQ(starts(r), (Starts{0, 80, 90, 90}));
  EXPECT_EQ(r.deadline_misses, 1);
}

// An overdue job with free processors beside it: work that fits beside it still starts.
TEST(Conservative, OverdueJobLeavesOthersRunning) {
  const Workload w = make_workload(10, {
                                           {0, 6, 50, 80},   // J0 overdue from 50 to 80
                                           {10, 8, 10, 10},  // J1 reserved [50,60): void; starts at 80
                                           {55, 4, 5, 5},    // J2 at 55: 4 free now, fits [55,60)
                                       });
  // At 55 (J2's arrival): J1's reservation at 50 has passed: released. J0, overdue, is held until 56.
  // J1 re-placed at 56 (10 free from 56); J2 (4 procs, 5 s): [55,60) meets J1's 8 at 56 -> 66.
  // J2 must not start at 55 on the 4 free processors: it would delay J1 if J0 ended at 56.
  // At 80 J0 ends: both reservations have passed: J1 -> 80, J2 -> 90 (only 2 free beside J1).
  EXPECT_EQ(starts(run_conservative(w)), (Starts{0, 80, 90}));
}

// A deadline miss that raises a running job's prediction pushes the reservations that no longer fit.
TEST(Conservative, RunningPredictionIncreasePushesReservations) {
  const Workload w = make_workload(10, {
                                           {0, 10, 50, 120},  // predicted 50, raised to 150 at t=50
                                           {10, 10, 10, 10},  // J1 reserved [50,60) -> [150,160) -> 120
                                           {20, 3, 10, 10},   // J2 reserved [60,70) -> [160,170) -> 130
                                       });
  ScriptedPredictor p;
  p.deadline_extension = 100;
  ConservativeScheduler s(ConservativeScheduler::Options{true});
  const SimResult r = simulate(w, s, p, conservative_checked());
  EXPECT_EQ(starts(r), (Starts{0, 120, 130}));
}

// A running job overdue since its deadline, with no call since (its miss changed no prediction), whose prediction
// then grows at another job's end: its hold had ended before now, so it holds again from now to its new end. (It was
// extended from its old end, before the profile's origin: an internal error, found by the reference's random
// predictions.)
TEST(Conservative, OverdueJobWhosePredictionGrowsLaterHoldsFromNow) {
  const Workload w = make_workload(4, {
                                          {0, 2, 10, 100},  // J0 predicted 10, overdue from t=10; 200 from t=30
                                          {0, 1, 40, 30},   // J1 ends at 30: the predictor raises J0 to 200
                                          {1, 4, 60, 50},   // J2 reserved at 30 + 1, then at 200; J0 ends at 100
                                          {30, 1, 10, 10},  // J3 fits before 200 on J1's processor
                                      });
  ScriptedPredictor p;
  p.on_termination_of[1] = {{0, 200}};
  EXPECT_EQ(starts(run_conservative(w, p)), (Starts{0, 0, 100, 30}));
  ConservativeScheduler fixpoint(ConservativeScheduler::Options{true, true});
  EXPECT_EQ(starts(simulate(w, fixpoint, p, conservative_checked())), (Starts{0, 0, 100, 30}));
}

// A running job's prediction shrinks: it gives its tail back, the job reserved behind it moves up, and a job that
// would have backfilled in front of the old reservation no longer may.
TEST(Conservative, RunningPredictionDecreaseMovesReservationsUp) {
  const Workload w = make_workload(10, {
                                           {0, 6, 100, 30},  // J0 [0,100) predicted; at t=10 -> 30 (its runtime)
                                           {1, 10, 50, 50},  // J1 reserved [100,150) -> [30,80)
                                           {10, 4, 60, 60},  // J2: [10,70) fits the 4 free before 100, not 30
                                       });
  ScriptedPredictor p;
  p.on_arrival_of[2] = {{0, 30}};
  // Without following the change J2 would start at 10 and push J1 to 70 (J0 ends at 30).
  EXPECT_EQ(starts(run_conservative(w, p)), (Starts{0, 30, 80}));
  EXPECT_EQ(starts(run_conservative(w)), (Starts{0, 70, 10}));  // by the estimate alone
}

// A waiting job's prediction grows and the room after its reservation is free: it keeps its start and holds
// longer, so the job placed behind it goes after the new end (a reservation never moves later: the check).
TEST(Conservative, WaitingPredictionIncreaseWithRoomExtendsTheHold) {
  const Workload w = make_workload(10, {
                                           {0, 10, 100, 100},  // J0 [0,100)
                                           {1, 5, 50, 80},     // J1 [100,150); at t=5 -> 80: [100,180)
                                           {2, 5, 50, 50},     // J2 [100,150)
                                           {5, 1, 1, 1},       // J3 (triggers the change): [150,151)
                                           {6, 10, 10, 10},    // J4: after J1's new end, [180,190)
                                       });
  ScriptedPredictor p;
  p.on_arrival_of[3] = {{1, 80}};
  EXPECT_EQ(starts(run_conservative(w, p)), (Starts{0, 100, 100, 150, 180}));
}

// A waiting job's prediction shrinks: its tail is released and the jobs behind it compress at once.
TEST(Conservative, WaitingPredictionDecreaseCompresses) {
  const Workload w = make_workload(10, {
                                           {0, 5, 100, 100},   // J0 [0,100)
                                           {1, 10, 1000, 50},  // J1 reserved [100,1100); at t=10 -> 50
                                           {2, 5, 100, 100},   // J2 reserved [1100,1200) -> [150,250)
                                           {10, 5, 120, 120},  // J3 arrives at 10 (and triggers the shrink)
                                       });
  ScriptedPredictor p;
  p.on_arrival_of[3] = {{1, 50}};
  ConservativeScheduler s(ConservativeScheduler::Options{true});
  const SimResult r = simulate(w, s, p, conservative_checked());
  // At 10: J1 -> [100,150), releasing [150,1100). J2 compresses from 1100 to 150 ([10,110) would meet J1
  // at 100). J3, placed after: [10,130) meets J1 -> 150, beside J2 (5 + 5). Without handling the
  // change J2 and J3 would hold 1100 and 1200 until J1's termination at 150.
  EXPECT_EQ(starts(r), (Starts{0, 100, 150, 150}));
}

// A waiting job's prediction grows so that it no longer fits at its reservation: it alone moves. One
// compression pass (the default) leaves it behind room that a later job's move vacated, and its
// reservation then rests on no event: the scheduler asks to be woken, so it still starts on time.
// Compression to a fixpoint moves it into that room at once.
TEST(Conservative, WaitingPredictionIncreaseMovesOnlyThatJob) {
  const Workload w = make_workload(10, {
                                           {0, 10, 100, 100},  // J0 [0,100)
                                           {1, 10, 50, 200},   // J1 [100,150); at t=5 its prediction -> 200
                                           {2, 10, 50, 50},    // J2 [150,200): keeps its place
                                           {5, 1, 1, 1},       // J3 arrives at 5 (triggers the change)
                                       });
  ScriptedPredictor p;
  p.on_arrival_of[3] = {{1, 200}};
  // Under --check: J1's reservation at 100 stops being a promise when its prediction grows (the engine would
  // otherwise report J1 starting after it); J2's and J3's stay promises and are kept.
  const SimOptions o = conservative_checked();
  // At 5: J1 [100,300) no longer fits before J2's [150,200): J1 alone is released, re-placed at its
  // earliest fit [200,400). The pass goes on: J2 compresses to [100,150) (J1's old place); J3 (1 proc,
  // 1 s) is placed at [150,151). J2's move vacated [150,200), too late for J1 in this pass: J1 keeps
  // 200, where no job ends (J3 ends at 151, exactly as predicted: no compression there) -> a wake-up.
  ConservativeScheduler once(ConservativeScheduler::Options{true, false});
  const SimResult r1 = simulate(w, once, p, o);
  EXPECT_EQ(starts(r1), (Starts{0, 200, 100, 150}));
  // Calls: arrivals 0, 1, 2, 5; terminations 100, 150, 151, 400; and 200, the wake-up (no event).
  EXPECT_EQ(r1.scheduler_calls, 9);
  // With a fixpoint a second pass moves J1 to [151,351). Runs: J0 ends 100, J2 [100,150), J3 [150,151).
  ConservativeScheduler fixpoint(ConservativeScheduler::Options{true, true});
  EXPECT_EQ(starts(simulate(w, fixpoint, p, o)), (Starts{0, 151, 100, 150}));
}

// Zero runtimes and zero predictions: held for 1 s, never over-committing.
TEST(Conservative, ZeroLengthJobs) {
  const Workload w = make_workload(4, {
                                          {0, 4, 0, 0},
                                          {0, 4, 0, 0},
                                          {0, 2, 10, 0},
                                          {1, 4, 5, 5},
                                      });
  // At 0: J0 is held [0,1) and starts; J1 placed [1,2), J2 [2,12). J0 ends at 0 at once: a new round at
  // 0 compresses J1 to 0 (J2 to 1); J1 ends at 0: J2 to 0; J3 arrives at 1 to an idle machine.
  EXPECT_EQ(starts(run_conservative(w)), (Starts{0, 0, 0, 1}));
}

TEST(Conservative, FactoryAndName) {
  SchedulerConfig config;
  config.params["check"] = "1";
  auto s = make_scheduler("conservative", config);
  EXPECT_EQ(s->name(), "conservative");
  auto copy = s->clone();
  EXPECT_EQ(copy->name(), "conservative");
  EXPECT_EQ(make_scheduler("conservative")->name(), "conservative");  // registered by name
  EXPECT_EQ(make_scheduler("conservative:compress=fixpoint")->name(), "conservative");
  EXPECT_EQ(make_scheduler("conservative:compress=once")->name(), "conservative");
  try {
    make_scheduler("conservative:compress=twice");
    FAIL() << "accepted compress=twice";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "scheduler conservative: parameter compress must be one of once, fixpoint, got 'twice'");
  }
  // A boolean that is not one is an error (it used to be read as false).
  EXPECT_THROW(make_scheduler("conservative:check=maybe"), std::invalid_argument);
  EXPECT_THROW(make_scheduler("easy-kill:check=2"), std::invalid_argument);
  EXPECT_THROW(make_scheduler("lerwf:resume_delay=-5"), std::invalid_argument);
  EXPECT_THROW(make_scheduler("easy:resume_delay=5"), std::invalid_argument);  // easy has no parameters
}

// What a clone copies is the live span of jobs, not one slot per job so far: after the whole KTH log the
// scheduler holds a few hundred slots, not 28,489.
TEST(Conservative, SlotsHeldAreTheLiveWindow) {
  const swf::Log log = swf::read_log(schedlab::testing::bundled_kth());
  WorkloadOptions wo;
  wo.procs = 100;
  const Workload w = build_workload(log.header, log.records, wo);
  Engine e(w, make_scheduler("conservative"), predict::make_predictor("estimate"), SimOptions{});
  size_t most = 0;
  while (e.step()) {
    const auto& c = dynamic_cast<const ConservativeScheduler&>(e.scheduler());
    most = std::max(most, c.slots_held());
    const size_t live = e.state().queue.size() + e.state().running.size();
    ASSERT_GE(c.slots_held() + 1, live);
  }
  EXPECT_LT(most, w.jobs.size() / 4) << "the window should follow the live jobs";
  EXPECT_GT(most, 0u);
}

// ---------------------------------------------------------------------------------------------------
// Real logs.

Workload load(const std::string& file, std::optional<int64_t> procs = std::nullopt) {
  const swf::Log log = swf::read_log(schedlab::testing::trace_path(file));
  WorkloadOptions o;
  o.procs = procs;
  return build_workload(log.header, log.records, o);
}

// Skipping or shortening searches by the failures of earlier jobs (Options::remember_failures) gives the same
// schedule as searching every job, and is used: on KTH at 100 processors, with the self-check (exact certificates:
// a job wrongly found unable to move would fail it), both compressions.
TEST(ConservativeRealLogs, RememberedFailuresGiveTheSameSchedule) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  const Workload w = load("KTH-SP2-1996-2.swf.gz", 100);
  for (const bool fixpoint : {false, true}) {
    auto run_with = [&](bool remember) {
      auto scheduler = std::make_unique<ConservativeScheduler>(ConservativeScheduler::Options{true, fixpoint, remember});
      Engine e(w, std::move(scheduler), predict::make_predictor("estimate"), conservative_checked());
      while (e.step()) {
      }
      const auto stats = dynamic_cast<const ConservativeScheduler&>(e.scheduler()).stats();
      return std::pair{starts(e.result()), stats};
    };
    const auto [with, with_stats] = run_with(true);
    const auto [without, without_stats] = run_with(false);
    EXPECT_EQ(with, without) << (fixpoint ? "fixpoint" : "once");
    EXPECT_EQ(with_stats.moved_earlier, without_stats.moved_earlier);
    EXPECT_GT(with_stats.failure_skips, 1000) << "the failures should spare searches";
    EXPECT_GT(with_stats.failure_narrowed, 100);
    EXPECT_EQ(without_stats.failure_skips + without_stats.failure_narrowed, 0);
  }
}

TEST(ConservativeRealLogs, KthOn100ProcessorsWithChecks) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  const Workload w = load("KTH-SP2-1996-2.swf.gz", 100);
  for (const bool fixpoint : {false, true}) {
    const SimResult r = simulate(w, ConservativeScheduler(ConservativeScheduler::Options{false, fixpoint}),
                                 predict::EstimatePredictor(), conservative_checked());
    std::printf("conservative (compress=%s) KTH-SP2-1996-2 on 100 procs: %zu jobs, mean wait %.0f s, mean bsld %.1f "
                "(thesis: 7302 s, 89.2), reservations checked %lld\n",
                fixpoint ? "fixpoint" : "once", w.jobs.size(), r.metrics.wait.mean, r.metrics.bounded_slowdown.mean,
                static_cast<long long>(r.reservations_checked));
    EXPECT_GT(r.reservations_checked, 0);
    // Talby's thesis, Table 8: conservative on KTH, 7,302 s mean wait, bounded slowdown 89.2 (whole log).
    // We measure 7,363 s / 89.2 with one pass, 7,230 s / 89.8 with the fixpoint; 3% catches a wrong
    // schedule while allowing the log-version difference.
    EXPECT_NEAR(r.metrics.wait.mean, 7302.0, 0.03 * 7302.0) << (fixpoint ? "fixpoint" : "once");
    EXPECT_NEAR(r.metrics.bounded_slowdown.mean, 89.2, 0.03 * 89.2) << (fixpoint ? "fixpoint" : "once");
  }
}

// Every log of the shared directory, first 4000 jobs, both compressions, with the engine's checks
// (over-commitment, exact runtimes, reservations kept while they can be: with one pass that needs the
// wake-ups) and the scheduler's self-check (profile == holds, no reservation moved later unless forced,
// exact certificates).
TEST(ConservativeRealLogs, InvariantsOnEveryLog) {
  const auto logs = schedlab::testing::all_traces();
  SCHEDLAB_NEED_TRACES();
  for (const std::string& file : logs) {
    Workload w = load(file);
    if (w.jobs.size() > 4000) w.jobs.resize(4000);
    for (const bool fixpoint : {false, true}) {
      SimResult r;
      ASSERT_NO_THROW(r = simulate(w, ConservativeScheduler(ConservativeScheduler::Options{true, fixpoint}),
                                   predict::EstimatePredictor(), conservative_checked()))
          << file << (fixpoint ? " fixpoint" : " once");
      // Checked here again, from the outcomes alone, independently of the engine's checks: every job ran
      // once for its runtime, not before its submission, and the machine was never over-committed.
      ASSERT_EQ(r.jobs.size(), w.jobs.size()) << file;
      std::vector<std::pair<int64_t, int64_t>> deltas;  // (time, +procs at a start / -procs at an end)
      for (size_t i = 0; i < w.jobs.size(); ++i) {
        const auto& job = w.jobs[i];
        const JobOutcome& o = r.jobs[i];
        ASSERT_GE(o.start, job.submit) << file << " job " << job.job_number;
        ASSERT_EQ(o.end - o.start, job.runtime) << file << " job " << job.job_number;
        deltas.emplace_back(o.start, job.procs);
        deltas.emplace_back(o.end, -int64_t{job.procs});
      }
      std::sort(deltas.begin(), deltas.end());  // at one instant ends (negative) come before starts
      int64_t busy = 0;
      for (const auto& [t, d] : deltas) {
        busy += d;
        ASSERT_LE(busy, r.procs) << file << " at t = " << t;
      }
      EXPECT_EQ(busy, 0) << file;
      // A job that waited held a reservation, which the self-check must have looked at.
      if (r.metrics.wait.mean > 0) {
        EXPECT_GT(r.reservations_checked, 0) << file;
      }
      std::printf("  %-36s %-8s %5zu jobs: wait %8.0f s, bsld %7.1f, %lld reservations checked\n", file.c_str(),
                  fixpoint ? "fixpoint" : "once", w.jobs.size(), r.metrics.wait.mean, r.metrics.bounded_slowdown.mean,
                  static_cast<long long>(r.reservations_checked));
    }
  }
}

}  // namespace
}  // namespace schedlab::sim
