// Hand-computed schedules of the preemptive schedulers (lerwf, lerwf-fill, easy-preemptive) and of
// easy-kill, and the machine's processor identities. Every run uses --check: processors never run two
// jobs, resumed jobs are on the processors they left, every job runs exactly its runtime in all.
#include <gtest/gtest.h>

#include <algorithm>

#include "schedlab/sim/easy_preemptive.h"
#include "sim/lerwf.h"
#include "schedlab/sim/machine.h"
#include "schedlab/sim/scheduler_registry.h"
#include "sim/sim_test_helpers.h"

namespace schedlab::sim {
namespace {
using testing::J;
using V = std::vector<int64_t>;

// A job with an estimate, by field name (the layout of Job is not its fields' order of meaning).
Job preemptive_job(JobId id, int32_t number, int64_t submit, int32_t procs, int64_t estimate, int64_t runtime) {
  Job j;
  j.id = id;
  j.job_number = number;
  j.submit = submit;
  j.procs = procs;
  j.estimate = estimate;
  j.has_estimate = true;
  j.runtime = runtime;
  return j;
}

int64_t end_of(const Workload& w, const SimResult& r, int32_t number) {
  for (size_t i = 0; i < w.jobs.size(); ++i) {
    if (w.jobs[i].job_number == number) return r.jobs[i].end;
  }
  return -2;
}
const JobOutcome& outcome(const Workload& w, const SimResult& r, int32_t number) {
  for (size_t i = 0; i < w.jobs.size(); ++i) {
    if (w.jobs[i].job_number == number) return r.jobs[i];
  }
  throw std::out_of_range("no such job");
}

TEST(MachineTest, TracksProcessorsLowestFirstAndAvoids) {
  Machine m(10, true);
  const Allocation a = m.allocate(0, 3);
  EXPECT_EQ(a.ranges, (ProcSet{{0, 3}}));
  const Allocation b = m.allocate(1, 4, ProcSet{{3, 5}});  // avoids 3-4: takes 5-8
  EXPECT_EQ(b.ranges, (ProcSet{{5, 9}}));
  const Allocation c = m.allocate(2, 2, ProcSet{{3, 5}});  // only 9 is outside: takes 9, then 3
  EXPECT_EQ(c.ranges, (ProcSet{{3, 4}, {9, 10}}));
  EXPECT_EQ(m.free(), 1);
  EXPECT_FALSE(m.all_free(ProcSet{{0, 1}}));
  m.release(a);
  EXPECT_TRUE(m.all_free(ProcSet{{0, 3}}));
  EXPECT_THROW(m.release(a), std::logic_error);  // already free: a processor cannot be released twice
  EXPECT_THROW(m.allocate_exactly(3, ProcSet{{2, 4}}), std::logic_error);  // 3 is busy
  const Allocation d = m.allocate_exactly(3, ProcSet{{0, 3}});
  EXPECT_EQ(d.procs, 3);
  m.release(b);
  m.release(c);
  m.release(d);
  EXPECT_EQ(m.free(), 10);
  EXPECT_EQ(m.free_ranges().size(), 1u);  // merged back into one range
}

TEST(LerwfTest, ShorterArrivalPreemptsAndTheJobResumes) {
  // t=10: J2 (20 s left) goes before J1 (90 s left): J1 is suspended, resumes at 30 and ends at 120.
  const auto w = testing::workload(10, {J{1, 0, 100, 10, 100}, J{2, 10, 20, 10, 20}});
  for (const char* s : {"lerwf", "lerwf-fill"}) {
    const auto r = testing::run(w, s);
    EXPECT_EQ(testing::starts(w, r), (V{0, 10})) << s;
    EXPECT_EQ(end_of(w, r, 1), 120) << s;
    EXPECT_EQ(end_of(w, r, 2), 30) << s;
    EXPECT_EQ(outcome(w, r, 1).suspensions, 1) << s;
    EXPECT_EQ(outcome(w, r, 1).ran, 100) << s;
    EXPECT_EQ(r.suspensions, 1) << s;
    // Wait counts until the first start; the suspension shows in the response (120 s for J1).
    EXPECT_DOUBLE_EQ(r.metrics.wait.mean, 0.0) << s;
    EXPECT_DOUBLE_EQ(r.metrics.response.mean, (120.0 + 20.0) / 2) << s;
  }
}

TEST(LerwfTest, ResumesOnlyOnItsOwnProcessors) {
  // J1 on 0-4 (ends 15), J2 on 5-9. t=10: J3 (10 s) ranks before J1 (5 s left? no: J1 has 5 s left) —
  // order J1 (5), J3 (10), J2 (190): J2 is suspended and J3 takes its processors 5-9. t=15: J1 ends and
  // 0-4 are free, but J2 may only resume on 5-9 (busy with J3 until 20): it resumes at 20, ends at 210.
  const auto w = testing::workload(10, {J{1, 0, 15, 5, 15}, J{2, 0, 200, 5, 200}, J{3, 10, 10, 5, 10}});
  const auto r = testing::run(w, "lerwf-fill");
  EXPECT_EQ(testing::starts(w, r), (V{0, 0, 10}));
  EXPECT_EQ(end_of(w, r, 2), 210);
  EXPECT_EQ(outcome(w, r, 2).suspensions, 1);
  EXPECT_EQ(end_of(w, r, 3), 20);
}

TEST(LerwfTest, StopsAtTheFirstMisfitUnlessFilling) {
  // t=5, order J2 (50 s, 8 procs), J3 (60 s, 6: misfit), J1 (95 s left, running on 2).
  // lerwf stops at J3 and suspends J1 (resumed at 55 with J3, ends 150); lerwf-fill keeps J1 running (ends 100).
  const auto w = testing::workload(10, {J{1, 0, 100, 2, 100}, J{2, 5, 50, 8, 50}, J{3, 5, 60, 6, 60}});
  const auto plain = testing::run(w, "lerwf");
  EXPECT_EQ(testing::starts(w, plain), (V{0, 5, 55}));
  EXPECT_EQ(end_of(w, plain, 1), 150);
  EXPECT_EQ(plain.suspensions, 1);
  const auto fill = testing::run(w, "lerwf-fill");
  EXPECT_EQ(testing::starts(w, fill), (V{0, 5, 55}));
  EXPECT_EQ(end_of(w, fill, 1), 100);
  EXPECT_EQ(fill.suspensions, 0);
}

TEST(LerwfTest, NewJobsAvoidTheNextSuspendedJobsProcessors) {
  // A state where J0 is suspended (held 0-4) and cannot resume (J1, 6 procs, ranks first and uses the
  // budget): J1 must start on 5-9 plus one of 0-4, and the decision says to avoid 0-4.
  std::vector<Job> jobs(2);
  jobs[0] = preemptive_job(0, 1, 0, 5, 100, 100);
  jobs[1] = preemptive_job(1, 2, 0, 6, 10, 10);
  SimState s;
  s.now = 50;
  s.machine = Machine(10, true);
  s.jobs = &jobs;
  s.queue.push_back(WaitingJob{1, 6, 0, 10, 0});
  s.queue.push_back(WaitingJob{0, 5, 0, 100, 40});
  s.held[0] = ProcSet{{0, 5}};
  LerwfScheduler lerwf(true);
  Decision d;
  lerwf.schedule(s, d);
  EXPECT_EQ(d.start, (std::vector<JobId>{1}));
  EXPECT_EQ(d.avoid, (ProcSet{{0, 5}}));
  EXPECT_EQ(s.machine.allocate(1, 6, d.avoid).ranges, (ProcSet{{0, 1}, {5, 10}}));
}

TEST(LerwfTest, ResumeDelayCostsTimeAtEveryResumption) {
  const auto w = testing::workload(10, {J{1, 0, 100, 10, 100}, J{2, 10, 20, 10, 20}});
  const auto r = testing::run(w, "lerwf:resume_delay=30");
  EXPECT_EQ(end_of(w, r, 1), 150);  // resumed at 30, progress from 60, 90 s left
  EXPECT_EQ(outcome(w, r, 1).ran, 100);
  EXPECT_THROW(testing::run(w, "lerwf:resume_delay=-1"), std::invalid_argument);
  EXPECT_THROW(testing::run(w, "lerwf:delay=3"), std::invalid_argument);
  EXPECT_THROW(testing::run(w, "easy:resume_delay=3"), std::invalid_argument);
}

TEST(EasyKillTest, KillsAJobAtItsEstimate) {
  // J1 asks 50 s but would run 100: killed at 50; J2 starts then.
  const auto w = testing::workload(10, {J{1, 0, 100, 10, 50}, J{2, 1, 10, 10, 10}});
  const auto r = testing::run(w, "easy-kill");
  EXPECT_EQ(testing::starts(w, r), (V{0, 50}));
  EXPECT_EQ(end_of(w, r, 1), 50);
  EXPECT_TRUE(outcome(w, r, 1).killed);
  EXPECT_EQ(outcome(w, r, 1).ran, 50);
  EXPECT_FALSE(outcome(w, r, 2).killed);
  EXPECT_EQ(r.kills, 1);
  // Utilization counts the 50 s J1 ran, not its logged 100 s: (10*50 + 10*10) / (10 * 60).
  EXPECT_DOUBLE_EQ(r.metrics.utilization, 600.0 / 600.0);
}

TEST(EasyKillTest, BackfillsConservatively) {
  // J1 holds 6 of 10 until 100; J2 (8 procs) is reserved at 100; J3 (4 procs, 50 s) backfills at 2, J4 (4
  // procs, 200 s) would delay J2 and waits until J2 ends at 150... no: J4 fits beside J2? 8 + 4 > 10: after.
  const auto w = testing::workload(10, {J{1, 0, 100, 6, 100}, J{2, 1, 50, 8, 50}, J{3, 2, 50, 4, 50},
                                        J{4, 3, 200, 4, 200}});
  const auto r = testing::run(w, "easy-kill");
  EXPECT_EQ(testing::starts(w, r), (V{0, 100, 2, 150}));
  EXPECT_EQ(r.kills, 0);
}

TEST(EasyPreemptiveTest, OverrunSuspendsAndRequeuesAtTheBack) {
  // J1 asks 50 s, runs 100: at 50 it is suspended behind J2 (waiting since 10), which runs 50-80; J1
  // resumes on its processors at 80 and ends at 130.
  const auto w = testing::workload(10, {J{1, 0, 100, 10, 50}, J{2, 10, 30, 10, 30}});
  const auto r = testing::run(w, "easy-preemptive");
  EXPECT_EQ(testing::starts(w, r), (V{0, 50}));
  EXPECT_EQ(end_of(w, r, 1), 130);
  EXPECT_EQ(end_of(w, r, 2), 80);
  EXPECT_EQ(outcome(w, r, 1).suspensions, 1);
  EXPECT_EQ(outcome(w, r, 1).ran, 100);
  EXPECT_EQ(r.kills, 0);
}

TEST(EasyPreemptiveTest, ResumesAtOnceWhenNothingWaits) {
  const auto w = testing::workload(10, {J{1, 0, 100, 5, 50}, J{2, 0, 300, 5, 300}});
  const auto r = testing::run(w, "easy-preemptive");
  EXPECT_EQ(end_of(w, r, 1), 100);
  EXPECT_EQ(outcome(w, r, 1).suspensions, 1);
}

TEST(EasyPreemptiveTest, ASuspendedJobWaitsForItsOwnProcessors) {
  // J1 on 0-4 (asks 50, runs 100), J2 on 5-9 until 200, J3 (5 procs, 100 s) waits from 2. At 50 J1 is
  // suspended behind J3; J3 can only get 0-4 (J1's), so J1 waits for J3 to end at 150 and ends at 200.
  const auto w = testing::workload(10, {J{1, 0, 100, 5, 50}, J{2, 0, 200, 5, 200}, J{3, 2, 100, 5, 100}});
  const auto r = testing::run(w, "easy-preemptive");
  EXPECT_EQ(testing::starts(w, r), (V{0, 0, 50}));
  EXPECT_EQ(end_of(w, r, 1), 200);
}

TEST(EasyPreemptiveTest, NewJobsAvoidTheSuspendedJobsProcessors) {
  // Machine 15: J2 runs on 5-9; J0 is suspended (held 0-4) behind J4 (5 procs). J4 must take 10-14 so
  // that J0 resumes at once on 0-4.
  std::vector<Job> jobs(5);
  jobs[0] = preemptive_job(0, 1, 0, 5, 100, 100);
  jobs[2] = preemptive_job(2, 3, 0, 5, 500, 500);
  jobs[4] = preemptive_job(4, 5, 0, 5, 10, 10);
  SimState s;
  s.now = 60;
  s.machine = Machine(15, true);
  s.jobs = &jobs;
  const Allocation running = s.machine.allocate_exactly(2, ProcSet{{5, 10}});
  s.running.insert(RunningJob{.id = 2, .procs = 5, .start = 0, .prediction = 500});
  s.running_on[2] = running.ranges;
  s.queue.push_back(WaitingJob{4, 5, 0, 10, 0});
  s.queue.push_back(WaitingJob{0, 5, 0, 100, 50});
  s.held[0] = ProcSet{{0, 5}};
  EasyPreemptiveScheduler easy;
  Decision d;
  easy.schedule(s, d);
  EXPECT_EQ(d.start, (std::vector<JobId>{4, 0}));
  EXPECT_EQ(d.avoid, (ProcSet{{0, 5}}));
  EXPECT_EQ(s.machine.allocate(4, 5, d.avoid).ranges, (ProcSet{{10, 15}}));
}

// Each preemptive scheduler is in the registry's table under its name, and the object made from it says so.
TEST(PreemptiveTest, EverySchedulerIsRegistered) {
  for (const std::string name : {"lerwf", "lerwf-fill", "easy-kill", "easy-preemptive"}) {
    const auto& table = schedulers();
    EXPECT_TRUE(std::any_of(table.begin(), table.end(), [&](const auto& e) { return e.name == name; })) << name;
    const auto scheduler = make_scheduler(name);
    ASSERT_NE(scheduler, nullptr) << name;
    EXPECT_EQ(scheduler->name(), name);
  }
}

}  // namespace
}  // namespace schedlab::sim
