// Feedback (SWF fields 17-18): a job that follows another is submitted its think time after that job's simulated
// end. Hand-computed schedules, the queue order among arrivals at one instant, the arrival order the backfilled
// count follows, forks, and the rule checked job by job over whole logs under every scheduler.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <tuple>
#include <stdexcept>
#include <string>
#include <vector>

#include "schedlab/base/random.h"
#include "schedlab/predict/registry.h"
#include "schedlab/sim/engine.h"
#include "schedlab/sim/job_output.h"
#include "schedlab/sim/scheduler_registry.h"
#include "schedlab/swf/reader.h"
#include "sim/sim_test_helpers.h"

namespace schedlab::sim {
namespace {

using testing::J;

// A whole number in [lo, hi].
int32_t uni(base::Rng& rng, int64_t lo, int64_t hi) {
  return static_cast<int32_t>(lo + static_cast<int64_t>(rng.below(static_cast<uint64_t>(hi - lo + 1))));
}

// `links`: (follower's record index, preceding job number, think time).
Workload feedback_workload(int64_t procs, std::vector<swf::Record> recs,
                           const std::vector<std::tuple<size_t, int32_t, int32_t>>& links, bool feedback = true) {
  for (const auto& [i, pre, think] : links) {
    recs[i].preceding_job = pre;
    recs[i].think_time = think;
  }
  WorkloadOptions o;
  o.procs = procs;
  o.feedback = feedback;
  return build_workload(swf::Header{}, recs, o);
}

// 4 processors, FCFS. Job 1 runs 0-100 on the whole machine; job 2 follows it with a think time of 30, so it is
// submitted at 130 (logged: 10) and starts at once; job 3 (logged at 20) waits for job 1 to 100; job 4 follows
// job 2 with the logged gap as think time (500 - (10 + 50) = 440): submitted at 180 + 440 = 620.
TEST(Feedback, FollowerSubmittedItsThinkTimeAfterThePrecedingJobEnds) {
  const Workload w = feedback_workload(
      4, testing::records({J{1, 0, 100, 4, 100}, J{2, 10, 50, 2, 50}, J{3, 20, 50, 2, 50}, J{4, 500, 10, 1, 10}}),
      {{1, 1, 30}, {3, 2, -1}});
  const SimResult r = testing::run(w, "fcfs");
  EXPECT_EQ(r.submit, (std::vector<int64_t>{0, 130, 20, 620}));
  EXPECT_EQ(testing::starts(w, r), (std::vector<int64_t>{0, 130, 100, 620}));
  EXPECT_EQ(r.jobs[1].end, 180);
  // Waits from the simulated submit: 0, 0, 80, 0.
  EXPECT_DOUBLE_EQ(r.metrics.wait.mean, 20.0);
  EXPECT_EQ(r.metrics.makespan, 630);
  EXPECT_EQ(jobs_csv(w, r),
            "job_id,submit,start,end,procs,runtime,estimate,killed,wait,prediction\n"
            "1,0,0,100,4,100,100,0,0,100\n2,130,130,180,2,50,50,0,0,50\n3,20,100,150,2,50,50,0,80,50\n"
            "4,620,620,630,1,10,10,0,0,10\n");
  // The same log without feedback: every job at its logged time, no submit table.
  const Workload plain = feedback_workload(
      4, testing::records({J{1, 0, 100, 4, 100}, J{2, 10, 50, 2, 50}, J{3, 20, 50, 2, 50}, J{4, 500, 10, 1, 10}}),
      {{1, 1, 30}, {3, 2, -1}}, false);
  const SimResult p = testing::run(plain, "fcfs");
  EXPECT_TRUE(p.submit.empty());
  EXPECT_EQ(testing::starts(plain, p), (std::vector<int64_t>{0, 100, 100, 500}));
}

// A think time of 0: the follower arrives at the instant its preceding job ends and starts then. A job cut at its
// estimate (kill-at-estimate) ends early, and so its follower comes early.
TEST(Feedback, ZeroThinkTimeAndAShortenedPrecedingJob) {
  auto recs = testing::records({J{1, 0, 100, 2, 60}, J{2, 5, 10, 2, 10}});
  recs[1].preceding_job = 1;
  recs[1].think_time = 0;
  WorkloadOptions o;
  o.procs = 2;
  o.feedback = true;
  const SimResult r = testing::run(build_workload(swf::Header{}, recs, o), "easy");
  EXPECT_EQ(r.submit, (std::vector<int64_t>{0, 100}));
  EXPECT_EQ(r.jobs[1].start, 100);
  o.kill_at_estimate = true;
  const SimResult k = testing::run(build_workload(swf::Header{}, recs, o), "easy");
  EXPECT_EQ(k.submit, (std::vector<int64_t>{0, 60}));
  EXPECT_EQ(k.jobs[1].start, 60);
}

// Queue order among the arrivals of one instant is by job id, followers included: job 2 (id 1) follows job 1 and
// arrives at 100, the instant job 3 (id 2) is logged; both need the whole machine, so FCFS runs job 2 first. Job 4
// arrived at 50, before both: it runs first of the three.
TEST(Feedback, ArrivalsAtOneInstantInJobOrder) {
  const Workload w = feedback_workload(
      4, testing::records({J{1, 0, 100, 4, 100}, J{2, 1, 10, 4, 10}, J{4, 50, 10, 4, 10}, J{3, 100, 10, 4, 10}}),
      {{1, 1, 0}});
  ASSERT_EQ(w.jobs[2].job_number, 4);
  const SimResult r = testing::run(w, "fcfs");
  EXPECT_EQ(testing::starts(w, r), (std::vector<int64_t>{0, 110, 120, 100}));
}

// The backfilled count goes by arrival order: a job logged after the follower but submitted before it in the
// simulation did not pass it by starting first (FCFS passes no job).
TEST(Feedback, BackfilledFollowsTheSimulatedArrivalOrder) {
  const Workload w = feedback_workload(
      4, testing::records({J{1, 0, 100, 4, 100}, J{2, 10, 10, 4, 10}, J{3, 20, 10, 4, 10}}), {{1, 1, 0}});
  const SimResult r = testing::run(w, "fcfs");
  EXPECT_EQ(testing::starts(w, r), (std::vector<int64_t>{0, 110, 100}));
  EXPECT_EQ(r.backfilled, 0);
  // EASY does pass a job: job 3 (2 processors, 10 s) backfills beside job 2's wait for job 4.
  const Workload e = feedback_workload(
      4,
      testing::records({J{1, 0, 100, 4, 100}, J{2, 10, 10, 4, 10}, J{4, 20, 200, 2, 200}, J{3, 105, 10, 2, 10}}),
      {{1, 1, 0}});
  const SimResult re = testing::run(e, "easy");
  // Job 4 (id 2) arrived at 20 and starts at 100; job 2 arrives at 100 and waits for job 4 (reservation 300); job 3
  // arrives at 105 and backfills at once: it passed job 2.
  EXPECT_EQ(testing::starts(e, re), (std::vector<int64_t>{0, 300, 105, 100}));
  EXPECT_EQ(re.backfilled, 1);
}

// A history predictor orders a user's jobs by when they were submitted in the simulation: job 2 follows job 1
// (think time 500: submitted at 600, not 10). user-last2 (order=submit) predicts job 5 from the user's two latest
// submitted jobs that ended, jobs 2 (600, ran 30) and 4 (60, ran 40): 35 s. By the logged times it took jobs 4 and
// 3 (50, ran 20): 30 s.
TEST(Feedback, HistoryPredictorsSeeTheSimulatedSubmitOrder) {
  const Workload w = feedback_workload(
      64, testing::records({J{1, 0, 100, 1, 1000}, J{2, 10, 30, 1, 1000}, J{3, 50, 20, 1, 1000},
                            J{4, 60, 40, 1, 1000}, J{5, 2000, 10, 1, 1000}}),
      {{1, 1, 500}});
  const SimResult r = testing::run(w, "fcfs", "user-last2");
  EXPECT_EQ(r.submit[1], 600);
  EXPECT_EQ(r.jobs[4].prediction_at_start, 35);
}

// A fork without future arrivals takes no follower either: it ends with the jobs there at the fork.
TEST(Feedback, ForkWithoutFutureArrivalsTakesNoFollower) {
  const Workload w = feedback_workload(
      4, testing::records({J{1, 0, 100, 4, 100}, J{2, 10, 50, 2, 50}, J{3, 20, 50, 2, 50}}), {{1, 1, 30}});
  SimOptions o;
  o.check = true;
  Engine e(w, make_scheduler("fcfs"), predict::make_predictor("estimate"), o);
  while (e.state().now < 20 && e.step()) {
  }
  ASSERT_EQ(e.state().now, 20);
  Engine f = e.fork(make_scheduler("easy"), ForkOptions{ForkOptions::Runtimes::kLog, false});
  f.run();
  EXPECT_EQ(f.result().termination_order.size(), 2u);  // jobs 1 and 3
  EXPECT_EQ(f.result().jobs[1].start, -1);
  Engine g = e.fork(make_scheduler("easy"), ForkOptions{ForkOptions::Runtimes::kLog, true});
  g.run();
  EXPECT_EQ(g.result().termination_order.size(), 3u);
  EXPECT_EQ(g.result().submit[1], 130);
  EXPECT_THROW(Engine::from_state(w, e.state(), make_scheduler("fcfs"), predict::make_predictor("estimate"), o,
                                  ForkOptions{}),
               std::invalid_argument);
}

// The rule, job by job: a follower's submit is its preceding job's simulated end plus its think time, every other
// job's is its logged one; every scheduler, under --check (no job starts before its submission, every job runs).
void expect_feedback_rule(const Workload& w, const std::string& scheduler) {
  SCOPED_TRACE(scheduler);
  const SimResult r = testing::run(w, scheduler);
  ASSERT_EQ(r.submit.size(), w.jobs.size());
  size_t followers = 0;
  for (size_t i = 0; i < w.jobs.size(); ++i) {
    const JobId a = w.after[i];
    const int64_t expected = a >= 0 ? r.jobs[static_cast<size_t>(a)].end + w.think[i] : w.jobs[i].submit;
    ASSERT_EQ(r.submit[i], expected) << "job " << i;
    ASSERT_GE(r.jobs[i].start, r.submit[i]) << "job " << i;
    followers += a >= 0 ? 1 : 0;
  }
  EXPECT_EQ(static_cast<int64_t>(followers), w.following);
  EXPECT_EQ(r.termination_order.size(), w.jobs.size());
}

// A random log of 3,000 jobs on 32 processors (offered load about 0.9), a third of them following a random earlier
// job (a quarter of those with no think time given: the logged gap).
TEST(Feedback, RuleHoldsOnARandomLogUnderEveryScheduler) {
  base::Rng rng(7);
  std::vector<J> jobs;
  int32_t t = 0;
  for (int32_t n = 1; n <= 3000; ++n) {
    t += uni(rng, 0, 1200);
    const auto run = uni(rng, 0, 2000);
    jobs.push_back(J{n, t, run, uni(rng, 1, 32),
                     run + uni(rng, 0, 3000)});
  }
  auto recs = testing::records(jobs);
  for (size_t i = 1; i < recs.size(); ++i) {
    if (uni(rng, 0, 2) != 0) continue;
    recs[i].preceding_job = static_cast<int32_t>(uni(rng, 1, static_cast<int64_t>(i)));
    recs[i].think_time = uni(rng, 0, 3) == 0 ? -1 : uni(rng, 0, 600);
  }
  WorkloadOptions o;
  o.procs = 32;
  o.feedback = true;
  const Workload w = build_workload(swf::Header{}, recs, o);
  ASSERT_GT(w.following, 900);
  for (const SchedulerEntry& s : schedulers()) expect_feedback_rule(w, std::string(s.name));
}

// KTH with each job following its user's previous job when the log shows it submitted after that one ended (think
// time from the logged gap): 28,489 jobs.
TEST(Feedback, RuleHoldsOnKthWithUserChains) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  swf::Log log = swf::read_log(schedlab::testing::trace_path("KTH-SP2-1996-2.swf.gz"));
  std::map<int32_t, const swf::Record*> last;
  for (swf::Record& r : log.records) {
    const auto it = last.find(r.user_id);
    if (it != last.end() && r.submit_time >= it->second->submit_time + it->second->wait_time + it->second->run_time)
      r.preceding_job = it->second->job_number;
    last[r.user_id] = &r;
  }
  WorkloadOptions o;
  o.feedback = true;
  const Workload w = build_workload(log.header, log.records, o);
  ASSERT_GT(w.following, 5000);
  EXPECT_EQ(w.think_from_log, w.following);
  for (const char* s : {"fcfs", "easy", "conservative", "easy-sjbf", "flex", "maui", "lerwf", "easy-preemptive"})
    expect_feedback_rule(w, s);
}

}  // namespace
}  // namespace schedlab::sim
