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

// The error from_state gives for a snapshot, or "" when it takes it.
std::string refusal(const Workload& w, const SimState& snapshot, const std::string& scheduler = "fcfs") {
  try {
    Engine::from_state(w, snapshot, make_scheduler(scheduler), predict::make_predictor("estimate"), SimOptions{}, {});
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(EngineFromState, RejectsASnapshotOfAnotherWorkload) {
  const Workload w = small();
  Engine real = engine_for(w, "easy");
  step_until(real, 20);
  const Workload other = testing::workload(8, {J{1, 0, 10, 1, 10}});
  EXPECT_EQ(refusal(other, real.state()), "state snapshot: a machine of 4 processors, the workload has 8");
  const Workload fewer = testing::workload(4, {J{1, 0, 100, 4, 50}});
  EXPECT_EQ(refusal(fewer, real.state()), "state snapshot at 20: job 1 is not a submitted job of the workload");
}

// A snapshot that does not fit its workload, or contradicts itself, is refused before anything runs, saying
// what is wrong: each of these would otherwise end in a broken invariant halfway or, for a job's size, in a
// schedule of another workload without a word. At t = 20 job 1 (id 0, 4 procs) runs; jobs 2 and 3 wait.
TEST(EngineFromState, RefusesAnInconsistentSnapshotSayingWhatIsWrong) {
  const Workload w = small();
  Engine real = engine_for(w, "easy");  // under check: the machine tracks processor identities
  step_until(real, 20);
  const SimState base = real.state();
  ASSERT_EQ(refusal(w, base), "");
  const RunningJob first = *base.running.begin();
  ASSERT_EQ(first.id, 0);
  const auto with_waiting = [&](const WaitingJob& job) {
    SimState s = base;
    s.queue.erase(job.id);
    s.queue.push_back(job);
    return s;
  };
  const auto with_running = [&](const RunningJob& job) {
    SimState s = base;
    s.running.clear();
    s.running.insert(job);
    return s;
  };
  const std::string at = "state snapshot at 20: ";
  EXPECT_EQ(refusal(w, with_waiting({1, 3, 10, 30, 0})),
            at + "waiting job 1 (SWF job 2) has 3 processors, the workload's job 2");
  EXPECT_EQ(refusal(w, with_waiting({1, 2, 5, 30, 0})),
            at + "waiting job 1 (SWF job 2) was submitted at 5, the workload's job at 10");
  EXPECT_EQ(refusal(w, with_waiting({1, 2, 10, -5, 0})),
            at + "waiting job 1 (SWF job 2) has a negative prediction (-5)");
  EXPECT_EQ(refusal(w, with_waiting({1, 2, 10, 30, -1})),
            at + "waiting job 1 (SWF job 2) has run a negative time (-1)");
  EXPECT_EQ(refusal(w, with_waiting({3, 1, 1000, 10, 0})), at + "job 3 is not a submitted job of the workload");
  EXPECT_EQ(refusal(w, with_waiting({7, 1, 0, 10, 0})), at + "job 7 is not a submitted job of the workload");
  EXPECT_EQ(refusal(w, with_running({0, 2, 0, 50})),
            at + "running job 0 (SWF job 1) has 2 processors, the workload's job 4");
  EXPECT_EQ(refusal(w, with_running({0, 4, 30, 50})),
            at + "running job 0 (SWF job 1) started at 30, after the snapshot's time");
  EXPECT_EQ(refusal(w, with_running({0, 4, 0, -1})),
            at + "running job 0 (SWF job 1) has a negative prediction (-1)");
  // A running job the machine does not know of (job 2 moved from the queue to the running list alone).
  SimState unplaced = base;
  unplaced.queue.erase(1);
  unplaced.running.insert({1, 2, 20, 30});
  EXPECT_EQ(refusal(w, unplaced), at + "running job 1 (SWF job 2) holds 0 processors of the machine, not 2");
  // A machine that does not hold the running job's processors; the same on a counting machine.
  SimState idle = base;
  idle.machine = Machine(4, true);
  EXPECT_EQ(refusal(w, idle), at + "the machine has 0 processors in use, the running jobs hold 4");
  idle.machine = Machine(4);
  EXPECT_EQ(refusal(w, idle), at + "the machine has 0 processors in use, the running jobs hold 4");
  // A scheduler that needs processor identities, from a snapshot of a counting machine.
  Engine counting = engine_for(w, "easy", false);
  step_until(counting, 20);
  ASSERT_FALSE(counting.state().machine.tracks_processors());
  EXPECT_EQ(refusal(w, counting.state(), "easy-preemptive"),
            "scheduler easy-preemptive needs processor identities the snapshot does not track");
  // A job neither waiting nor running counts as done: dropping one from the queue is a valid snapshot.
  SimState dropped = base;
  dropped.queue.erase(1);
  EXPECT_EQ(refusal(w, dropped), "");
}

}  // namespace
}  // namespace schedlab::sim
