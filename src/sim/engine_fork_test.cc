// Engine::fork: a candidate scheduler run forward from the real state, with the log's runtimes or the
// predictions, with or without the jobs still to come.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "schedlab/predict/registry.h"
#include "schedlab/sim/engine.h"
#include "schedlab/sim/scheduler_registry.h"
#include "schedlab/swf/reader.h"
#include "sim/sim_test_helpers.h"
#include "test_util.h"

namespace schedlab::sim {
namespace {

using testing::J;

Engine engine_for(const Workload& w, const std::string& scheduler, bool check = true) {
  SimOptions o;
  o.check = check;
  return Engine(w, make_scheduler(scheduler), predict::make_predictor("estimate"), o);
}

void step_until(Engine& e, int64_t t) {
  while (e.state().now < t && e.step()) {
  }
  ASSERT_EQ(e.state().now, t);
}

// 4 processors. Job 1 (4 procs) runs 100 s but estimated 50; job 2 (2 procs, estimate 30, runs 10) comes at
// 10, job 3 (2 procs, estimate 60, runs 60) at 20, job 4 at 1000.
Workload small() {
  return testing::workload(4, {J{1, 0, 100, 4, 50}, J{2, 10, 10, 2, 30}, J{3, 20, 60, 2, 60}, J{4, 1000, 5, 1, 10}});
}

// Forked at 20 with predicted runtimes: job 1 is predicted to end at 50, so jobs 2 and 3 start at 50 and run
// their estimates (to 80 and 110); job 4 is not submitted yet and never arrives in the fork.
TEST(EngineFork, PredictedRuntimesWithoutFutureArrivals) {
  const Workload w = small();
  Engine real = engine_for(w, "easy");
  step_until(real, 20);
  Engine fork = real.fork(make_scheduler("fcfs"), {ForkOptions::Runtimes::kPredicted, false});
  fork.run();
  const SimResult& r = fork.result();
  EXPECT_EQ(r.scheduler, "fcfs");
  EXPECT_EQ(r.jobs[0].end, 50);
  EXPECT_EQ(r.jobs[1].start, 50);
  EXPECT_EQ(r.jobs[1].end, 80);
  EXPECT_EQ(r.jobs[2].start, 50);
  EXPECT_EQ(r.jobs[2].end, 110);
  EXPECT_EQ(r.jobs[3].start, -1);
  EXPECT_EQ(r.termination_order.size(), 3u);
  // The real run is untouched: job 1 runs its 100 s.
  real.run();
  EXPECT_EQ(real.result().jobs[0].end, 100);
  EXPECT_EQ(real.result().jobs[1].start, 100);
}

// Forked at 60, job 1 is overdue (predicted end 50): with predicted runtimes it ends at once.
TEST(EngineFork, AnOverdueJobEndsAtTheFork) {
  const Workload w = small();
  Engine real = engine_for(w, "easy");
  step_until(real, 50);  // the deadline miss
  Engine fork = real.fork(make_scheduler("easy"), {ForkOptions::Runtimes::kPredicted, false});
  fork.run();
  EXPECT_EQ(fork.result().jobs[0].end, 50);
  EXPECT_EQ(fork.result().jobs[1].start, 50);
}

// With the log's runtimes and every arrival, a fork with a fresh copy of a scheduler that keeps no state of
// its own continues exactly as the real run does, on a whole real log.
TEST(EngineFork, SameSchedulerAndLogRuntimesContinueTheRealRun) {
  const swf::Log log = swf::read_log(schedlab::testing::bundled_kth());
  WorkloadOptions wo;
  wo.procs = 100;
  const Workload w = build_workload(log.header, log.records, wo);
  for (const std::string scheduler : {"fcfs", "easy", "easy-sjbf", "lewf-fill"}) {
    SCOPED_TRACE(scheduler);
    Engine real = engine_for(w, scheduler, false);
    for (int i = 0; i < 20000 && real.step(); ++i) {
    }
    ASSERT_GT(real.state().queue.size(), 0u) << "fork where jobs wait";
    Engine fork = real.fork(make_scheduler(scheduler), {ForkOptions::Runtimes::kLog, true});
    real.run();
    fork.run();
    ASSERT_EQ(fork.result().jobs.size(), real.result().jobs.size());
    for (size_t i = 0; i < w.jobs.size(); ++i) {
      ASSERT_EQ(fork.result().jobs[i].start, real.result().jobs[i].start) << "job " << i;
      ASSERT_EQ(fork.result().jobs[i].end, real.result().jobs[i].end) << "job " << i;
    }
  }
}

// A fork with another scheduler on the real state finishes every job submitted by then, under --check.
TEST(EngineFork, CandidatesFinishTheQueueUnderCheck) {
  const swf::Log log = swf::read_log(schedlab::testing::bundled_kth());
  WorkloadOptions wo;
  wo.procs = 100;
  const Workload w = build_workload(log.header, log.records, wo);
  Engine real = engine_for(w, "easy");
  for (int i = 0; i < 20000 && real.step(); ++i) {
  }
  const size_t submitted = real.result().termination_order.size() + real.state().queue.size() +
                           real.state().running.size();
  for (const std::string candidate : {"fcfs", "easy-sjbf", "conservative", "lewf"}) {
    SCOPED_TRACE(candidate);
    Engine fork = real.fork(make_scheduler(candidate), {ForkOptions::Runtimes::kPredicted, false});
    try {
      fork.run();
    } catch (const std::exception& e) {
      FAIL() << e.what();
    }
    EXPECT_EQ(fork.result().termination_order.size(), submitted);
  }
}

TEST(EngineFork, RefusesASchedulerThatNeedsUntrackedProcessors) {
  const Workload w = small();
  Engine real = engine_for(w, "easy", false);
  step_until(real, 20);
  EXPECT_THROW(real.fork(make_scheduler("easy-preemptive"), {}), std::invalid_argument);
}

// From a state snapshot (what a scheduler sees), with a fresh predictor: the same as forking the engine.
TEST(EngineFromState, SnapshotWithPredictedRuntimes) {
  const Workload w = small();
  Engine real = engine_for(w, "easy");
  step_until(real, 20);
  SimOptions o;
  o.check = true;
  Engine e = Engine::from_state(w, real.state(), make_scheduler("fcfs"), predict::make_predictor("estimate"), o,
                                {ForkOptions::Runtimes::kPredicted, false});
  e.run();
  const SimResult& r = e.result();
  EXPECT_EQ(r.jobs[0].end, 50);
  EXPECT_EQ(r.jobs[1].start, 50);
  EXPECT_EQ(r.jobs[1].end, 80);
  EXPECT_EQ(r.jobs[2].end, 110);
  EXPECT_EQ(r.jobs[3].start, -1);
}

// With the log's runtimes and the future arrivals, a run from the snapshot continues the real one exactly.
TEST(EngineFromState, SnapshotWithLogRuntimesContinuesTheRealRun) {
  const swf::Log log = swf::read_log(schedlab::testing::bundled_kth());
  WorkloadOptions wo;
  wo.procs = 100;
  const Workload w = build_workload(log.header, log.records, wo);
  for (const std::string scheduler : {"easy", "fcfs-fill"}) {
    SCOPED_TRACE(scheduler);
    Engine real = engine_for(w, scheduler, false);
    for (int i = 0; i < 15000 && real.step(); ++i) {
    }
    const SimState snapshot = real.state();
    size_t done = 0;
    for (size_t i = 0; i < w.jobs.size(); ++i) done += real.result().jobs[i].end >= 0 ? 1 : 0;
    Engine e = Engine::from_state(w, snapshot, make_scheduler(scheduler), predict::make_predictor("estimate"),
                                  SimOptions{}, {ForkOptions::Runtimes::kLog, true});
    real.run();
    e.run();
    size_t compared = 0;
    for (size_t i = 0; i < w.jobs.size(); ++i) {
      if (e.result().jobs[i].end < 0) continue;  // done before the snapshot
      ASSERT_EQ(e.result().jobs[i].start, real.result().jobs[i].start) << "job " << i;
      ASSERT_EQ(e.result().jobs[i].end, real.result().jobs[i].end) << "job " << i;
      ++compared;
    }
    EXPECT_EQ(compared + done, w.jobs.size());
  }
}

TEST(EngineFromState, RejectsASnapshotOfAnotherWorkload) {
  const Workload w = small();
  Engine real = engine_for(w, "easy");
  step_until(real, 20);
  const Workload other = testing::workload(8, {J{1, 0, 10, 1, 10}});
  EXPECT_THROW(Engine::from_state(other, real.state(), make_scheduler("easy"), predict::make_predictor("estimate"),
                                  SimOptions{}, {}),
               std::invalid_argument);
}

}  // namespace
}  // namespace schedlab::sim
