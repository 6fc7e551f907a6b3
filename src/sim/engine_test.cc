// The engine: event order, copyable state and engine, checks that catch broken schedulers, and the
// predictor hooks (prediction updates, deadline misses).
#include "schedlab/sim/engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>

#include "schedlab/predict/basic_predictors.h"
#include "schedlab/sim/easy.h"
#include "schedlab/sim/fcfs.h"
#include "schedlab/sim/scheduler_registry.h"
#include "schedlab/sim/simulate.h"
#include "schedlab/swf/reader.h"
#include "sim/sim_test_helpers.h"
#include "test_util.h"

namespace schedlab::sim {
namespace {
using testing::J;
using V = std::vector<int64_t>;

Workload sample_workload() {
  return testing::workload(10, {J{1, 0, 100, 6, 100}, J{2, 1, 50, 8, 50}, J{3, 2, 200, 4, 200},
                                J{4, 3, 500, 2, 500}, J{5, 4, 90, 2, 90}, J{6, 4, 0, 3, 5}, J{7, 300, 30, 10, 10}});
}

SimOptions engine_checked() {
  SimOptions o;
  o.check = true;
  return o;
}

TEST(EngineTest, CopiedEngineContinuesIdentically) {
  const Workload w = sample_workload();
  Engine a(w, std::make_unique<EasyScheduler>(), std::make_unique<predict::EstimatePredictor>(), engine_checked());
  for (int k = 0; k < 4; ++k) ASSERT_TRUE(a.step());
  Engine b = a;  // fork mid-run
  EXPECT_EQ(a.state(), b.state());
  // Assigned over an engine of another scheduler and workload, a copy is the same fork.
  const Workload other = testing::workload(4, {J{1, 0, 10, 1, 10}});
  Engine c(other, std::make_unique<FcfsScheduler>(), std::make_unique<predict::EstimatePredictor>(), SimOptions{});
  c = a;
  EXPECT_EQ(c.state(), a.state());
  EXPECT_EQ(c.scheduler().name(), "easy");
  SimState copy = a.state();  // the state is a plain value
  EXPECT_EQ(copy, a.state());
  a.run();
  b.run();
  c.run();
  ASSERT_EQ(a.result().jobs.size(), b.result().jobs.size());
  ASSERT_EQ(a.result().jobs.size(), c.result().jobs.size());
  for (size_t i = 0; i < a.result().jobs.size(); ++i) {
    EXPECT_EQ(a.result().jobs[i].start, b.result().jobs[i].start);
    EXPECT_EQ(a.result().jobs[i].end, b.result().jobs[i].end);
    EXPECT_EQ(a.result().jobs[i].start, c.result().jobs[i].start);
    EXPECT_EQ(a.result().jobs[i].end, c.result().jobs[i].end);
  }
  const SimResult whole = testing::run(w, "easy");
  for (size_t i = 0; i < whole.jobs.size(); ++i) EXPECT_EQ(whole.jobs[i].start, a.result().jobs[i].start);
}

TEST(EngineTest, StateInvariantsHoldAtEveryStep) {
  const Workload w = sample_workload();
  Engine e(w, std::make_unique<EasyScheduler>(), std::make_unique<predict::EstimatePredictor>(), engine_checked());
  while (e.step()) {
    const SimState& s = e.state();
    int64_t used = 0;
    const RunningJob* prev_running = nullptr;
    for (const RunningJob& r : s.running) {
      used += r.procs;
      if (prev_running != nullptr) {
        EXPECT_LE(prev_running->predicted_end(), r.predicted_end());
      }
      prev_running = &r;
    }
    EXPECT_EQ(used, s.machine.used());
    EXPECT_EQ(used, s.running.procs());
    JobId prev = -1;
    for (const WaitingJob& q : s.queue) {
      EXPECT_LT(prev, q.id);
      prev = q.id;
    }
  }
}

// A scheduler that ignores the machine size.
class Greedy final : public Scheduler {
 public:
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<Greedy>(*this); }
  std::string_view name() const override { return "greedy"; }
  void schedule(const SimState& s, Decision& d) override {
    for (const auto& w : s.queue) d.start.push_back(w.id);
  }
};

// A scheduler that never starts anything.
class Idle final : public Scheduler {
 public:
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<Idle>(*this); }
  std::string_view name() const override { return "idle"; }
  void schedule(const SimState&, Decision&) override {}
};

// fcfs-fill that claims a reservation for the head at the head's shadow time, which it does not keep.
class LyingFill final : public Scheduler {
 public:
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<LyingFill>(*this); }
  std::string_view name() const override { return "lying"; }
  void schedule(const SimState& s, Decision& d) override {
    int64_t free = s.machine.free();
    for (const auto& w : s.queue) {
      if (w.procs <= free) {
        d.start.push_back(w.id);
        free -= w.procs;
      }
    }
    if (!s.queue.empty() && s.queue.front().procs > s.machine.free() && !s.running.empty()) {
      d.reservations.push_back({s.queue.front().id, s.running.back().predicted_end()});
    }
  }
};

TEST(EngineTest, OverCommittingSchedulerIsAnError) {
  const Workload w = sample_workload();
  EXPECT_THROW(simulate(w, Greedy{}, predict::EstimatePredictor{}, engine_checked()), std::logic_error);
}

// FCFS with one fault: the first call at which `fault` returns true takes the decision it wrote (no more starts
// are added to one that starts or suspends something). A user's policy breaking the engine's contract.
class Rogue final : public Scheduler {
 public:
  using Fault = std::function<bool(const SimState&, Decision&)>;
  explicit Rogue(Fault fault) : fault_(std::move(fault)) {}
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<Rogue>(*this); }
  std::string_view name() const override { return "rogue"; }
  void schedule(const SimState& s, Decision& d) override {
    if (!done_ && fault_(s, d)) {
      done_ = true;
      if (!d.start.empty() || !d.suspend.empty()) return;
    }
    int64_t free = s.machine.free();
    for (const auto& w : s.queue) {
      if (w.procs > free) break;
      d.start.push_back(w.id);
      free -= w.procs;
    }
  }

 private:
  Fault fault_;
  bool done_ = false;
};

// What the engine says of a scheduler's decisions ("" when the run ends normally).
std::string engine_error(const Workload& w, const Scheduler& scheduler, bool check = true) {
  SimOptions o;
  o.check = check;
  try {
    simulate(w, scheduler, predict::EstimatePredictor{}, o);
  } catch (const std::logic_error& e) {
    return e.what();
  }
  return "";
}

// Each way a scheduler can break the contract of Decision gets an error naming the scheduler, the job (its index
// and SWF number) and the fault, whether or not --check is on; broken reservations only under --check.
TEST(EngineTest, ASchedulerBreakingTheContractIsToldWhatItDid) {
  const Workload w = sample_workload();  // at t = 0 only job 0 (SWF 1, 6 procs) waits; SWF 7 arrives at 300
  const auto at = [](int64_t t, Rogue::Fault f) {
    return Rogue([t, f](const SimState& s, Decision& d) { return s.now == t && f(s, d); });
  };
  const auto starts = [&](int64_t t, std::vector<JobId> ids) {
    return at(t, [ids](const SimState&, Decision& d) {
      d.start = ids;
      return true;
    });
  };
  for (const bool check : {true, false}) {
    SCOPED_TRACE(check);
    EXPECT_EQ(engine_error(w, Rogue([](const SimState&, Decision&) { return false; }), check), "");
    EXPECT_EQ(engine_error(w, starts(0, {0, 0}), check),
              "scheduler rogue started job 0, which is not waiting (SWF job 1, already running (started twice?))");
    EXPECT_EQ(engine_error(w, starts(0, {99}), check),
              "scheduler rogue started job 99, which is not waiting (not a job of this workload)");
    EXPECT_EQ(engine_error(w, starts(0, {-1}), check),
              "scheduler rogue started job -1, which is not waiting (not a job of this workload)");
    EXPECT_EQ(engine_error(w, starts(0, {6}), check),
              "scheduler rogue started job 6, which is not waiting (SWF job 7, not yet arrived)");
    // Job 0 runs 0..100 under FCFS; started again at 300 (SWF 7's arrival).
    EXPECT_EQ(engine_error(w, starts(300, {0}), check),
              "scheduler rogue started job 0, which is not waiting (SWF job 1, already ended)");
    EXPECT_EQ(engine_error(w, Greedy{}, check),
              "scheduler greedy over-commits the machine at t=1: job 1 (SWF job 2) needs 8 processors, 4 free");
    const auto suspends = [&](JobId id) {
      return at(0, [id](const SimState&, Decision& d) {
        d.suspend = {id};
        return true;
      });
    };
    EXPECT_EQ(engine_error(w, suspends(0), check), "scheduler rogue suspends job 0, which is not running");
    EXPECT_EQ(engine_error(w, suspends(42), check), "scheduler rogue suspends job 42, which is not running");
  }
  const auto reserves = [&](Reservation r) {
    return at(1, [r](const SimState&, Decision& d) {
      d.reservations = {r};
      return true;
    });
  };
  EXPECT_EQ(engine_error(w, reserves({99, 100})), "scheduler rogue reserved for unknown job 99");
  EXPECT_EQ(engine_error(w, reserves({1, 0})),
            "check failed: scheduler rogue reserved job 1 (SWF job 2) for 0, before now (1)");
  // Without --check reservations are not looked at: the run is FCFS's.
  EXPECT_EQ(engine_error(w, reserves({99, 100}), false), "");
  EXPECT_EQ(engine_error(w, reserves({1, 0}), false), "");
}

TEST(EngineTest, JobsLeftWaitingAreAnError) {
  const Workload w = sample_workload();
  try {
    simulate(w, Idle{}, predict::EstimatePredictor{}, SimOptions{});
    FAIL() << "expected an error";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("left 7 jobs waiting"), std::string::npos) << e.what();
  }
}

TEST(EngineTest, BrokenReservationIsCaughtByCheck) {
  // J2 (8) is promised t=100; first fit starts J3 (4 procs to 202) and J2 starts at 202.
  const auto w = testing::workload(10, {J{1, 0, 100, 6, 100}, J{2, 1, 50, 8, 50}, J{3, 2, 200, 4, 200}});
  EXPECT_THROW(simulate(w, LyingFill{}, predict::EstimatePredictor{}, engine_checked()), std::logic_error);
  EXPECT_NO_THROW(simulate(w, LyingFill{}, predict::EstimatePredictor{}, SimOptions{}));
}

TEST(EngineTest, CheckCountsKeptReservations) {
  const auto w = testing::workload(10, {J{1, 0, 100, 6, 100}, J{2, 1, 50, 8, 50}, J{3, 2, 200, 4, 200}});
  const SimResult r = testing::run(w, "easy");
  EXPECT_EQ(r.reservations_checked, 2);  // J2 promised 100 (t=1), J3 promised 150 (t=100)
}

// A predictor that predicts 10 s and, at each deadline miss, doubles the prediction; it also tries to
// lower a prediction below the elapsed time (the engine clamps).
class Doubling final : public predict::Predictor {
 public:
  std::unique_ptr<Predictor> clone() const override { return std::make_unique<Doubling>(*this); }
  std::string_view name() const override { return "doubling"; }
  int64_t on_arrival(int64_t, const workload::Job&, predict::Updates&) override { return 10; }
  void on_deadline_miss(int64_t, const workload::Job& job, int64_t, int64_t prediction,
                        predict::Updates& updates) override {
    ++misses;
    updates.push_back({job.id, 1});  // below the elapsed time: clamped
    updates.push_back({job.id, prediction * 2});
  }
  int misses = 0;
};

TEST(EngineTest, DeadlineMissesAndPredictionUpdates) {
  // J1 runs 100 s with a 10 s prediction: misses at 10, 20, 40 and 80; the prediction 160 covers 100.
  const auto w = testing::workload(10, {J{1, 0, 100, 10, 100}});
  const SimResult r = simulate(w, EasyScheduler{}, Doubling{}, engine_checked());
  EXPECT_EQ(r.deadline_misses, 4);
  EXPECT_EQ(r.jobs[0].end, 100);
  EXPECT_EQ(r.jobs[0].prediction_at_start, 10);
}

// Predicts 10 s and keeps it: a job that runs longer stays overdue from its miss to its end.
class Stubborn final : public predict::Predictor {
 public:
  std::unique_ptr<Predictor> clone() const override { return std::make_unique<Stubborn>(*this); }
  std::string_view name() const override { return "stubborn"; }
  int64_t on_arrival(int64_t, const workload::Job&, predict::Updates&) override { return 10; }
};

TEST(EngineTest, MissesThatLeaveAJobOverdueAreCounted) {
  // J1 runs 100 s, J2 5 s, both predicted 10 s. Stubborn: J1 misses once, at 10, and stays overdue to 100; J2 ends
  // before its prediction. Doubling: every miss of J1 (10, 20, 40, 80) gets a longer prediction.
  const auto w = testing::workload(10, {J{1, 0, 100, 6, 100}, J{2, 0, 5, 2, 5}});
  const SimResult stubborn = simulate(w, EasyScheduler{}, Stubborn{}, SimOptions{});
  EXPECT_EQ(stubborn.deadline_misses, 1);
  EXPECT_EQ(stubborn.overdue_misses, 1);
  const SimResult doubling = simulate(w, EasyScheduler{}, Doubling{}, SimOptions{});
  EXPECT_EQ(doubling.deadline_misses, 4);
  EXPECT_EQ(doubling.overdue_misses, 0);
  // A job killed at its miss is not overdue.
  const SimResult killed = simulate(w, *make_scheduler("easy-kill"), Stubborn{}, SimOptions{});
  EXPECT_EQ(killed.deadline_misses, 1);
  EXPECT_EQ(killed.overdue_misses, 0);
}

// Predicts 10 s and, at each deadline miss, one second more than the job has run (a no-estimate SBH past its cap).
class OneMore final : public predict::Predictor {
 public:
  std::unique_ptr<Predictor> clone() const override { return std::make_unique<OneMore>(*this); }
  std::string_view name() const override { return "one-more"; }
  int64_t on_arrival(int64_t, const workload::Job&, predict::Updates&) override { return 10; }
  void on_deadline_miss(int64_t now, const workload::Job& job, int64_t start, int64_t,
                        predict::Updates& updates) override {
    updates.push_back({job.id, now - start + 1});
  }
};

TEST(EngineTest, JobsPredictedSecondBySecondAreCounted) {
  // J1 runs 100 s: misses every second from 10 to 99, 90 raises by one second in a row. J2 runs 69 s: 59 of them,
  // one short of a minute. J3 runs 5 s. Only J1 counts; Doubling's misses never do.
  const auto w = testing::workload(10, {J{1, 0, 100, 3, 100}, J{2, 0, 69, 3, 100}, J{3, 0, 5, 3, 100}});
  const SimResult r = simulate(w, EasyScheduler{}, OneMore{}, engine_checked());
  EXPECT_EQ(r.deadline_misses, 90 + 59);
  EXPECT_EQ(r.overdue_misses, 0);
  EXPECT_EQ(r.second_by_second_jobs, 1);
  EXPECT_EQ(predict::kSecondBySecondStreak, 60);
  const auto longer = testing::workload(10, {J{1, 0, 100, 3, 100}, J{2, 0, 70, 3, 100}});  // 60 in a row
  EXPECT_EQ(simulate(longer, EasyScheduler{}, OneMore{}, SimOptions{}).second_by_second_jobs, 2);
  EXPECT_EQ(simulate(w, EasyScheduler{}, Doubling{}, SimOptions{}).second_by_second_jobs, 0);
}

// Loss of capacity: on 2 processors J1 (1 proc, 7200 s), J2 (2 procs, 3600 s) and J3 (1 proc, 3600 s) all at 0.
// FCFS: one processor idle while J2 and J3 wait, 0..7200; J2 runs to 10800, J3 to 14400: 7200 / (2 x 14400).
// EASY backfills J3 at 0: one idle while J2 waits, 3600..7200; J2 ends at 10800: 3600 / (2 x 10800).
TEST(EngineTest, LossOfCapacityIsTheIdleTimeWhileJobsWait) {
  const auto w = testing::workload(2, {J{1, 0, 7200, 1, 7200}, J{2, 0, 3600, 2, 3600}, J{3, 0, 3600, 1, 3600}});
  const SimResult fcfs = testing::run(w, "fcfs");
  EXPECT_DOUBLE_EQ(fcfs.idle_while_waiting, 7200);
  EXPECT_DOUBLE_EQ(fcfs.loss_of_capacity(), 0.25);
  const SimResult easy = testing::run(w, "easy");
  EXPECT_DOUBLE_EQ(easy.idle_while_waiting, 3600);
  EXPECT_DOUBLE_EQ(easy.loss_of_capacity(), 1.0 / 6);
  // Idle processors with nobody waiting are no loss: J1 alone leaves one idle for 7200 s.
  const auto alone = testing::workload(2, {J{1, 0, 7200, 1, 7200}});
  EXPECT_DOUBLE_EQ(testing::run(alone, "fcfs").loss_of_capacity(), 0);
}

TEST(EngineTest, UpdatedPredictionsReachTheScheduler) {
  // 10 processors, every prediction 10 s at first. J1 (6) runs 100 s; J2 (8) waits: shadow 10, extra 2.
  // J3 (2 procs) arrives at 5 and uses the extra processors. Every deadline miss doubles a prediction and
  // calls the scheduler again (t=10, 15, 20, 25, ...).
  const auto w = testing::workload(10, {J{1, 0, 100, 6, 100}, J{2, 1, 50, 8, 50}, J{3, 5, 45, 2, 45}});
  const SimResult r = simulate(w, EasyScheduler{}, Doubling{}, engine_checked());
  EXPECT_EQ(testing::start_of(w, r, 3), 5);
  EXPECT_EQ(testing::start_of(w, r, 2), 100);
  // misses: J1 at 10, 20, 40, 80; J3 (from 5) at 15, 25, 45; J2 (from 100) at 110, 120, 140.
  // calls: 0, 1, 5, those 10 misses, and the terminations at 50 and 100 (150 ends J2: queue empty, still
  // a call) -> 0 1 5 10 15 20 25 40 45 50 80 100 110 120 140 150.
  EXPECT_EQ(r.deadline_misses, 10);
  EXPECT_EQ(r.scheduler_calls, 16);
}

TEST(EngineTest, SchedulerCalledOncePerInstant) {
  // Three arrivals at t=0 and nothing else: one call; the two terminations at t=10 and an arrival: one call.
  const auto w = testing::workload(10, {J{1, 0, 10, 2, 10}, J{2, 0, 10, 2, 10}, J{3, 0, 20, 2, 20},
                                        J{4, 10, 5, 2, 5}});
  const SimResult r = testing::run(w, "easy");
  EXPECT_EQ(r.scheduler_calls, 4);  // t=0, 10, 15, 20
}

// Starts nothing before `release_at`, then everything that fits in queue order; asks to be woken at
// `release_at` (or not at all, with ask = false).
class WakeAt final : public Scheduler {
 public:
  WakeAt(int64_t release_at, bool ask) : release_at_(release_at), ask_(ask) {}
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<WakeAt>(*this); }
  std::string_view name() const override { return "wake-at"; }
  void schedule(const SimState& state, Decision& decision) override {
    ++calls;
    if (state.now < release_at_) {
      if (ask_) decision.wake_at = release_at_;
      return;
    }
    int64_t free = state.machine.free();
    for (const WaitingJob& w : state.queue) {
      if (w.procs > free) break;
      decision.start.push_back(w.id);
      free -= w.procs;
    }
  }
  int calls = 0;

 private:
  int64_t release_at_;
  bool ask_;
};

TEST(EngineTest, SchedulerIsWokenWhenItAsks) {
  // Two jobs arrive at 0 and 5 on an idle machine; nothing else happens until 40. With a wake-up request
  // for 30 both start at 30 (one extra call at 30); without it they would wait for the next event, and
  // with no event left the engine reports jobs stranded on an idle machine.
  const auto w = testing::workload(10, {J{1, 0, 10, 2, 10}, J{2, 5, 10, 2, 10}});
  const SimResult r = simulate(w, WakeAt(30, true), predict::EstimatePredictor{}, engine_checked());
  EXPECT_EQ(testing::start_of(w, r, 1), 30);
  EXPECT_EQ(testing::start_of(w, r, 2), 30);
  EXPECT_EQ(r.scheduler_calls, 4);  // 0, 5, 30 (the wake-up), 40 (the terminations)
  EXPECT_THROW(simulate(w, WakeAt(30, false), predict::EstimatePredictor{}, engine_checked()), std::logic_error);
  // A copied engine keeps a pending request.
  Engine a(w, std::make_unique<WakeAt>(30, true), std::make_unique<predict::EstimatePredictor>(), engine_checked());
  ASSERT_TRUE(a.step());  // t = 0
  ASSERT_TRUE(a.step());  // t = 5
  Engine b = a;
  ASSERT_TRUE(b.step());
  EXPECT_EQ(b.state().now, 30);
  EXPECT_EQ(b.state().running.size(), 2u);
}

// Asks to be woken a second later at every call and never starts anything.
class WakesForever final : public Scheduler {
 public:
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<WakesForever>(*this); }
  std::string_view name() const override { return "wakes-forever"; }
  void schedule(const SimState& state, Decision& decision) override { decision.wake_at = state.now + 1; }
};

TEST(EngineTest, EndlessWakeUpsOnAnIdleMachineAreAnError) {
  // Without a bound this run would go on through 2^63 seconds, one call each: an error instead, naming the
  // scheduler, after 1000 calls that start nothing on an idle machine with nothing left to arrive.
  const auto w = testing::workload(10, {J{1, 0, 10, 2, 10}});
  try {
    simulate(w, WakesForever{}, predict::EstimatePredictor{}, engine_checked());
    FAIL() << "no error";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("scheduler wakes-forever asked to be woken 1000 times on an idle machine"),
              std::string::npos)
        << e.what();
  }
}

TEST(EngineTest, UnknownSchedulerListsTheKnownOnes) {
  try {
    make_scheduler("nope");
    FAIL();
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("unknown scheduler 'nope'"), std::string::npos);
    EXPECT_NE(m.find("easy-sjbf"), std::string::npos);
    EXPECT_NE(m.find("lewf-fill"), std::string::npos);
  }
}

TEST(EngineTest, RegistryMakesEveryScheduler) {
  for (const auto& e : schedulers()) {
    auto s = make_scheduler(e.name);  // every declared default is a valid value (checked by base::Params)
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->name(), e.name);
    EXPECT_EQ(s->clone()->name(), e.name);
    EXPECT_FALSE(e.description.empty());
  }
}

TEST(EngineTest, MachineRefusesOverCommitment) {
  Machine m(4);
  const Allocation a = m.allocate(0, 3);
  EXPECT_EQ(m.free(), 1);
  EXPECT_THROW(m.allocate(1, 2), std::logic_error);
  m.release(a);
  EXPECT_EQ(m.free(), 4);
  EXPECT_THROW(m.release(a), std::logic_error);
  EXPECT_THROW(Machine(0), std::invalid_argument);
}

}  // namespace
}  // namespace schedlab::sim

namespace schedlab::sim {
namespace {

// A log with a record of unknown submit time (-1) still simulates: that job is left out (workload/), and
// the engine, which uses -1 for "not started", never sees it.
TEST(EngineTest, UnknownSubmitTimeIsExcludedAndTheRestSimulates) {
  const std::vector<swf::Record> log = {
      schedlab::testing::record({.job_number = 1, .submit_time = 0, .run_time = 10, .allocated_procs = 4,
                                 .requested_procs = 4, .requested_time = 10}),
      schedlab::testing::record({.job_number = 2, .submit_time = -1, .run_time = 10, .requested_procs = 8}),
      schedlab::testing::record({.job_number = 3, .submit_time = 6, .run_time = 10, .allocated_procs = 6,
                                 .requested_procs = 6, .requested_time = 10})};
  WorkloadOptions o;
  o.procs = 8;
  const SimResult r = simulate(build_workload(swf::Header{}, log, o), "easy");
  ASSERT_EQ(r.jobs.size(), 2u);
  EXPECT_EQ(r.jobs[0].start, 0);
  EXPECT_EQ(r.jobs[1].start, 10);  // 6 processors wait for job 1's 4 to be given back
}

}  // namespace
}  // namespace schedlab::sim

namespace schedlab::sim {
namespace {

// The engine's metrics read its outcomes in place: the means summed in termination order, the quantiles from the
// kept jobs taken by id. Checked against the obvious computation over a copy — the kept jobs' values in
// termination order, sorted, interpolated — on a real log with a warm-up and a predictor whose predictions change.
double interpolated(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double h = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(h));
  if (lo + 1 >= v.size()) return v[lo];
  return v[lo] + (h - static_cast<double>(lo)) * (v[lo + 1] - v[lo]);
}

TEST(EngineTest, ProgressEndsAtEveryJobAndChangesNothing) {
  const swf::Log log = swf::read_log(schedlab::testing::bundled_kth());
  const Workload w = build_workload(log.header, log.records, WorkloadOptions{});
  std::vector<std::pair<size_t, size_t>> calls;
  SimOptions watched;
  watched.progress = [&](size_t done, size_t total) { calls.emplace_back(done, total); };
  const SimResult a = simulate(w, "conservative", "", watched);
  const SimResult b = simulate(w, "conservative", "", SimOptions{});
  ASSERT_FALSE(calls.empty());
  EXPECT_EQ(calls.back(), std::make_pair(w.jobs.size(), w.jobs.size()));
  for (size_t k = 1; k < calls.size(); ++k) EXPECT_LE(calls[k - 1].first, calls[k].first);
  EXPECT_EQ(a.termination_order, b.termination_order);
  for (size_t i = 0; i < w.jobs.size(); ++i) ASSERT_EQ(a.jobs[i].start, b.jobs[i].start) << i;
}

TEST(EngineMetrics, SameAsOverACopyInTerminationOrder) {
  const swf::Log log = swf::read_log(schedlab::testing::bundled_kth());
  const Workload w = build_workload(log.header, log.records, WorkloadOptions{});
  SimOptions o;
  o.warmup_fraction = 0.1;
  const SimResult r = simulate(w, "easy", "user-last2", o);
  const auto& order = r.termination_order;
  const auto skip = static_cast<size_t>(std::floor(0.1 * static_cast<double>(order.size())));
  ASSERT_EQ(r.metrics.warmup_excluded, static_cast<int64_t>(skip));
  std::vector<double> wait, bsld;
  std::vector<predict::JobAccuracy> accuracy;
  double wait_sum = 0;
  for (size_t k = skip; k < order.size(); ++k) {
    const auto i = static_cast<size_t>(order[k]);
    const JobOutcome& out = r.jobs[i];
    wait.push_back(static_cast<double>(out.start - w.jobs[i].submit));
    wait_sum += wait.back();
    bsld.push_back(std::max(1.0, static_cast<double>(out.end - w.jobs[i].submit) /
                                     static_cast<double>(std::max<int64_t>(out.ran, 10))));
    accuracy.push_back(r.job_accuracy[i]);
  }
  EXPECT_DOUBLE_EQ(r.metrics.wait.mean, wait_sum / static_cast<double>(wait.size()));
  EXPECT_DOUBLE_EQ(r.metrics.wait.median, interpolated(wait, 0.5));
  EXPECT_DOUBLE_EQ(r.metrics.wait.p90, interpolated(wait, 0.9));
  EXPECT_DOUBLE_EQ(r.metrics.wait.max, *std::max_element(wait.begin(), wait.end()));
  EXPECT_DOUBLE_EQ(r.metrics.bounded_slowdown.median, interpolated(bsld, 0.5));
  EXPECT_DOUBLE_EQ(r.metrics.bounded_slowdown.p90, interpolated(bsld, 0.9));
  const predict::AccuracySummary a = predict::summarize_accuracy(accuracy);
  EXPECT_EQ(r.accuracy.jobs, a.jobs);
  EXPECT_DOUBLE_EQ(r.accuracy.mean_absolute_error, a.mean_absolute_error);
  EXPECT_DOUBLE_EQ(r.accuracy.median_absolute_error, a.median_absolute_error);
  EXPECT_DOUBLE_EQ(r.accuracy.median_relative_accuracy, a.median_relative_accuracy);
  EXPECT_GT(r.accuracy.median_absolute_error, 0);  // (the predictor is not exact: the medians are not trivially 0)
}

}  // namespace
}  // namespace schedlab::sim
