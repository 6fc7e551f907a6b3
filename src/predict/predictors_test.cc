// Hand-computed prediction sequences for every predictor and correction policy, SBH sessions and lookups,
// (propagation changing a schedule: src/sim/easy_predictors_test.cc).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "schedlab/predict/accuracy.h"
#include "schedlab/predict/basic_predictors.h"
#include "schedlab/predict/correction.h"
#include "schedlab/predict/registry.h"
#include "schedlab/predict/replay.h"
#include "schedlab/predict/sbh.h"
#include "schedlab/predict/spec.h"
#include "schedlab/predict/user_history.h"

namespace schedlab::predict {
namespace {

Job job(JobId id, int32_t user, int64_t submit, int64_t estimate, int32_t procs = 1, int32_t exe = -1) {
  Job j;
  j.id = id;
  j.job_number = id + 1;
  j.user = user;
  j.submit = submit;
  j.estimate = estimate;
  j.has_estimate = true;
  j.procs = procs;
  j.executable = exe;
  j.runtime = 0;
  return j;
}

// Drives a predictor by hand: arrive, start, end.
struct Driver {
  explicit Driver(const std::string& spec) : p(make_predictor(spec)) {}
  std::unique_ptr<Predictor> p;
  Updates u;
  int64_t arrive(const Job& j) { return p->on_arrival(j.submit, j, u); }
  void run(const Job& j, int64_t start, int64_t end) {
    p->on_start(start, j, 0, u);
    p->on_termination(end, j, start, u);
  }
};

TEST(PredSpecTest, ParsesAndRejects) {
  const auto s = parse_predictor_spec("sbh:criteria=PE,P,E,*;order=dfs; propagate = 1");
  EXPECT_EQ(s.name, "sbh");
  EXPECT_EQ(s.params.at("criteria"), "PE,P,E,*");
  EXPECT_EQ(s.params.at("propagate"), "1");
  EXPECT_EQ(format_predictor_spec(s), "sbh:criteria=PE,P,E,*;order=dfs;propagate=1");
  EXPECT_THROW(parse_predictor_spec("ruh:propagate"), std::invalid_argument);
  EXPECT_THROW(parse_predictor_spec("ruh:a=1;a=2"), std::invalid_argument);
  EXPECT_THROW(parse_predictor_spec(":a=1"), std::invalid_argument);
  try {
    make_predictor("ruh:propogate=1");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("no parameter 'propogate'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("propagate"), std::string::npos) << e.what();
  }
  EXPECT_THROW(make_predictor("estimate:value=3"), std::invalid_argument);
  EXPECT_THROW(make_predictor("sbh:order=random"), std::invalid_argument);
  EXPECT_THROW(make_predictor("sbh:criteria=PQ"), std::invalid_argument);
  EXPECT_THROW(make_predictor("sbh:noest=1;criteria=PE,P"), std::invalid_argument);
  EXPECT_THROW(make_predictor("estimate:correction=triple"), std::invalid_argument);
  EXPECT_EQ(make_predictor("user-last2:correction=tsafrir")->name(), "user-last2:correction=tsafrir");
  EXPECT_EQ(make_predictor("user-last2:correction=none")->name(), "user-last2");
  for (const auto& e : predictors()) {
    auto p = make_predictor(e.name);
    EXPECT_EQ(p->clone()->name(), e.name);
  }
}

TEST(PredConstantTest, ValueParameter) {
  Driver d("constant");
  EXPECT_EQ(d.arrive(job(0, 1, 0, 500)), 1);
  Driver e("constant:value=60");
  EXPECT_EQ(e.arrive(job(0, 1, 0, 500)), 60);
}

TEST(PredUserLast2Test, HandComputedSequence) {
  Driver d("user-last2");
  const Job a = job(0, 7, 0, 1000);
  EXPECT_EQ(d.arrive(a), 1000);  // no history: the estimate
  EXPECT_EQ(d.arrive(job(1, 8, 0, 900)), 900);
  d.run(a, 0, 300);  // user 7: 300
  EXPECT_EQ(d.arrive(job(2, 7, 400, 1000)), 300);  // one finished job: its runtime
  EXPECT_EQ(d.arrive(job(3, 7, 400, 200)), 200);   // never above the estimate
  EXPECT_EQ(d.arrive(job(4, 8, 400, 900)), 900);   // other users' jobs do not count
  d.run(job(2, 7, 400, 1000), 400, 501);           // user 7: 300, 101
  EXPECT_EQ(d.arrive(job(5, 7, 600, 1000)), 200);  // (300 + 101) / 2 rounded down
  d.run(job(3, 7, 400, 200), 600, 610);            // user 7: 101, 10 (the two most recent)
  EXPECT_EQ(d.arrive(job(6, 7, 700, 1000)), 55);
  EXPECT_TRUE(d.u.empty());  // no propagation by default
}

TEST(PredUserLast2Test, OrderBySubmitOrByEnd) {
  // Job 0 (submitted first) ends last: by end it is the most recent, by submit job 1 is.
  for (const char* order : {"end", "submit"}) {
    Driver d(std::string("user-last2:order=") + order);
    const Job a = job(0, 1, 0, 1000), b = job(1, 1, 10, 1000), c = job(2, 1, 20, 1000);
    d.arrive(a), d.arrive(b), d.arrive(c);
    d.run(b, 10, 110);  // runtime 100, ends at 110
    d.run(c, 20, 140);  // runtime 120, ends at 140
    d.run(a, 0, 200);   // runtime 200, ends at 200
    const int64_t p = d.arrive(job(3, 1, 300, 1000));
    EXPECT_EQ(p, std::string(order) == "end" ? (120 + 200) / 2 : (100 + 120) / 2) << order;
  }
}

// pyss's rule (the authors' public simulator): the estimate until the user has two finished jobs, and
// propagation to the user's waiting jobs only.
TEST(PredUserLast2Test, MinJobsAndRunningGivePyssRule) {
  Driver d("user-last2:order=end;min_jobs=2");
  const Job a = job(0, 7, 0, 1000), b = job(1, 7, 0, 1000);
  d.arrive(a), d.arrive(b);
  d.run(a, 0, 300);
  EXPECT_EQ(d.arrive(job(2, 7, 400, 1000)), 1000);  // one finished job: still the estimate
  d.run(b, 0, 401);
  EXPECT_EQ(d.arrive(job(3, 7, 500, 1000)), 350);   // two: (300 + 401) / 2 rounded down
  EXPECT_EQ(d.arrive(job(4, 7, 500, 200)), 200);    // never above the estimate

  for (const bool running : {true, false}) {
    Driver p(std::string("user-last2:propagate=1;min_jobs=2;running=") + (running ? "1" : "0"));
    const Job x = job(0, 1, 0, 1000), y = job(1, 1, 0, 1000), waiting = job(2, 1, 0, 1000),
              started = job(3, 1, 0, 1000);
    p.arrive(x), p.arrive(y), p.arrive(waiting), p.arrive(started);
    p.p->on_start(5, started, 1000, p.u);
    p.run(x, 0, 100);
    EXPECT_TRUE(p.u.empty());  // one finished job: nothing changes
    p.run(y, 0, 200);          // mean 150: the waiting job; the running one has run 195 s, past it: kept
    ASSERT_EQ(p.u.size(), 1u);
    EXPECT_EQ(p.u[0].job, 2);
    EXPECT_EQ(p.u[0].prediction, 150);
    p.u.clear();
    const Job fresh = job(4, 1, 200, 1000);
    p.arrive(fresh);
    p.p->on_start(200, fresh, 150, p.u);
    p.run(waiting, 200, 210);  // (200 + 10) / 2 = 105: the fresh job (run 10 s) re-predicted only with running=1
    ASSERT_EQ(p.u.size(), running ? 1u : 0u) << running;
    if (running) {
      EXPECT_EQ(p.u[0].job, 4);
      EXPECT_EQ(p.u[0].prediction, 105);
    }
  }
}

TEST(RuhTest, MedianOfLastThreeAndPropagation) {
  Driver d("ruh");
  Job js[6];
  for (int i = 0; i < 6; ++i) js[i] = job(i, 1, i, 1000);
  EXPECT_EQ(d.arrive(js[0]), 1000);
  d.run(js[0], 0, 10);
  EXPECT_EQ(d.arrive(js[1]), 1000);  // fewer than 3: the estimate
  d.run(js[1], 1, 51);
  d.run(job(9, 1, 0, 1000), 2, 22);  // unknown to the predictor (never arrived): ignored
  EXPECT_EQ(d.arrive(js[2]), 1000);
  d.run(js[2], 2, 22);
  EXPECT_EQ(d.arrive(js[3]), 20);  // median(10, 50, 20)
  d.run(js[3], 3, 503);
  EXPECT_EQ(d.arrive(js[4]), 50);  // median(50, 20, 500)
  Job small = job(5, 1, 5, 30);
  EXPECT_EQ(d.arrive(small), 30);  // capped by the estimate

  // Propagation: a waiting job of the same user is re-predicted when one of the user's jobs ends.
  Driver p("ruh:propagate=1");
  for (int i = 0; i < 3; ++i) p.arrive(js[i]);
  const Job waiting = job(3, 1, 3, 1000);
  const Job running = job(4, 1, 3, 1000);
  p.arrive(waiting);
  p.arrive(running);
  p.p->on_start(3, running, 1000, p.u);
  p.run(js[0], 0, 10);
  p.run(js[1], 0, 50);
  EXPECT_TRUE(p.u.empty());
  p.run(js[2], 0, 60);  // now 3 jobs: median 50
  // the running job has run 57 s > 50: it keeps its prediction; the waiting one is re-predicted
  ASSERT_EQ(p.u.size(), 1u);
  EXPECT_EQ(p.u[0].job, 3);
  EXPECT_EQ(p.u[0].prediction, 50);
  p.u.clear();
  const Job late = job(5, 1, 60, 1000);
  p.arrive(late);
  p.p->on_start(60, late, 1000, p.u);
  p.run(job(6, 1, 0, 1000), 0, 1);  // unknown job: nothing
  p.p->on_start(60, waiting, 50, p.u);
  p.run(waiting, 60, 70);  // history 50, 50, 10 → median 50: job 5 (elapsed 10) re-predicted 50
  ASSERT_EQ(p.u.size(), 1u);
  EXPECT_EQ(p.u[0].job, 5);
  EXPECT_EQ(p.u[0].prediction, 50);
}

TEST(RuhTest, PropagationSkipsRunningJobsPastTheNewPrediction) {
  Driver p("ruh:propagate=1;jobs=1");
  const Job a = job(0, 1, 0, 1000), b = job(1, 1, 0, 1000);
  p.arrive(a);
  p.arrive(b);
  p.p->on_start(0, b, 1000, p.u);
  p.run(a, 0, 100);  // median 100 but b has run 100 s: would be overdue at once
  EXPECT_TRUE(p.u.empty());
}

TEST(CorrectionTest, PoliciesHandComputed) {
  int32_t step = 0;
  // tsafrir: below the estimate → the estimate; then +1 min, +5 min, +15 min, ...
  EXPECT_EQ(corrected_prediction(Correction::kTsafrir, 100, 1000, step), 1000);
  EXPECT_EQ(step, 0);
  EXPECT_EQ(corrected_prediction(Correction::kTsafrir, 1000, 1000, step), 1060);
  EXPECT_EQ(corrected_prediction(Correction::kTsafrir, 1060, 1000, step), 1360);
  EXPECT_EQ(corrected_prediction(Correction::kTsafrir, 1360, 1000, step), 2260);
  step = 10;
  EXPECT_EQ(corrected_prediction(Correction::kTsafrir, 5000, 1000, step), 5000 + 360000);
  EXPECT_EQ(corrected_prediction(Correction::kTsafrir, 5000, 1000, step), 5000 + 360000);  // 100 h again
  EXPECT_EQ(corrected_prediction(Correction::kDouble, 300, 1000, step), 600);
  EXPECT_EQ(corrected_prediction(Correction::kDouble, 0, 1000, step), 1);
  EXPECT_EQ(corrected_prediction(Correction::kTimes10, 300, 1000, step), 3000);
  EXPECT_EQ(corrected_prediction(Correction::kNone, 300, 1000, step), 300);
  EXPECT_EQ(parse_correction("times10"), Correction::kTimes10);
  EXPECT_THROW(parse_correction("x"), std::invalid_argument);
}

TEST(CorrectionTest, DecoratorSequenceOnDeadlineMisses) {
  auto p = make_predictor("constant:value=100;correction=tsafrir");
  Updates u;
  const Job j = job(0, 1, 0, 500);
  EXPECT_EQ(p->on_arrival(0, j, u), 100);
  p->on_start(10, j, 100, u);
  p->on_deadline_miss(110, j, 10, 100, u);
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u[0].prediction, 500);  // below the estimate: the estimate
  p->on_deadline_miss(510, j, 10, 500, u);
  EXPECT_EQ(u[1].prediction, 560);
  p->on_deadline_miss(570, j, 10, 560, u);
  EXPECT_EQ(u[2].prediction, 860);
  auto d = make_predictor("constant:value=100;correction=double");
  Updates v;
  d->on_arrival(0, j, v);
  d->on_deadline_miss(100, j, 0, 100, v);
  d->on_deadline_miss(200, j, 0, 200, v);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].prediction, 200);
  EXPECT_EQ(v[1].prediction, 400);
  auto t = make_predictor("estimate:correction=times10");
  Updates w;
  t->on_arrival(0, j, w);
  t->on_deadline_miss(500, j, 0, 500, w);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].prediction, 5000);
}

TEST(CorrectionTest, CorrectedJobsIgnorePropagation) {
  // ruh with propagation inside the decorator: a job that missed its deadline keeps the corrected value.
  auto p = make_predictor("ruh:jobs=1;propagate=1;correction=tsafrir");
  Updates u;
  const Job a = job(0, 1, 0, 1000), b = job(1, 1, 0, 1000), c = job(2, 1, 0, 1000);
  p->on_arrival(0, a, u);
  p->on_arrival(0, b, u);
  p->on_arrival(0, c, u);
  p->on_start(0, a, 1000, u);
  p->on_termination(5, a, 0, u);  // history 5: b and c re-predicted 5
  ASSERT_EQ(u.size(), 2u);
  u.clear();
  p->on_start(5, b, 5, u);
  p->on_deadline_miss(10, b, 5, 5, u);  // b: 5 < 1000 → 1000
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u[0].prediction, 1000);
  u.clear();
  p->on_start(5, c, 5, u);
  p->on_termination(9, c, 5, u);  // history 4: b would be re-predicted, but it was corrected
  EXPECT_TRUE(u.empty());
}

TEST(SbhTest, SessionBoundariesOnline) {
  SbhOptions o;
  o.criteria = {"*"};
  SbhPredictor p(o);
  Updates u;
  const Job a = job(0, 1, 0, 1000);
  p.on_arrival(0, a, u);
  p.on_start(0, a, 1000, u);
  const Job b = job(1, 1, 5000, 1000);  // a still running (never told it ended): same session
  p.on_arrival(5000, b, u);
  EXPECT_EQ(p.session_of(0), 0);
  EXPECT_EQ(p.session_of(1), 0);
  p.on_start(5000, b, 1000, u);
  p.on_termination(5100, a, 0, u);  // a is not the latest job of the user
  p.on_termination(5200, b, 5000, u);
  const Job c = job(2, 1, 5200 + 1199, 1000);  // think 1199 s < 20 min: same session
  p.on_arrival(c.submit, c, u);
  EXPECT_EQ(p.session_of(2), 0);
  p.on_start(c.submit, c, 1000, u);
  p.on_termination(7000, c, c.submit, u);
  const Job d = job(3, 1, 7000 + 1200, 1000);  // think = 20 min: a new session
  p.on_arrival(d.submit, d, u);
  EXPECT_EQ(p.session_of(3), 1);
  const Job e = job(4, 2, 7000 + 1200, 1000);  // another user: its own first session
  p.on_arrival(e.submit, e, u);
  EXPECT_EQ(p.session_of(4), 0);
}

// Session 0: job (P=4, E=100) ran 80 s. Session 1: job (P=8, E=100) ran 30 s. Then a job (P=4, E=100).
int64_t predict_after_two_sessions(const std::string& spec, int32_t exe_last = -1) {
  auto p = make_predictor(spec);
  Updates u;
  const Job a = job(0, 1, 0, 100, 4, 7);
  p->on_arrival(0, a, u);
  p->on_start(0, a, 100, u);
  p->on_termination(80, a, 0, u);
  const Job b = job(1, 1, 5000, 100, 8, 9);  // think 4920 s: session 1
  p->on_arrival(5000, b, u);
  p->on_start(5000, b, 100, u);
  p->on_termination(5030, b, 5000, u);
  const Job c = job(2, 1, 5040, 100, 4, exe_last);  // session 1
  return p->on_arrival(5040, c, u);
}

TEST(SbhTest, DfsBfsDepthHandComputed) {
  // DFS [PE,P,E,*]: PE matches in session 0 → 80.
  EXPECT_EQ(predict_after_two_sessions("sbh:criteria=PE,P,E,*;order=dfs"), 80);
  // BFS: the newest session first; in session 1, PE and P miss, E matches → 30.
  EXPECT_EQ(predict_after_two_sessions("sbh:criteria=PE,P,E,*;order=bfs"), 30);
  // DFS with depth 1: only session 1 → E → 30.
  EXPECT_EQ(predict_after_two_sessions("sbh:criteria=PE,P,E,*;depth=1"), 30);
  // [E,P,X]: E matches in session 1 → 30; [X]: executable 7 only in session 0 → 80; no match → estimate.
  EXPECT_EQ(predict_after_two_sessions("sbh:criteria=E,P,X"), 30);
  EXPECT_EQ(predict_after_two_sessions("sbh:criteria=X", 7), 80);
  EXPECT_EQ(predict_after_two_sessions("sbh:criteria=X", 5), 100);
  // No-estimate mode: P matches session 0 → 80 (not capped by the estimate either way here).
  EXPECT_EQ(predict_after_two_sessions("sbh:noest=1;criteria=PX,P,X,*"), 80);
  EXPECT_EQ(predict_after_two_sessions("sbh:noest=1;criteria=PX", 5), 1);  // fallback: 1 s
}

TEST(SbhTest, MedianOverTheSessionsMatchingJobs) {
  auto p = make_predictor("sbh:criteria=P");
  Updates u;
  int64_t runtimes[] = {10, 300, 40, 70};
  for (int i = 0; i < 4; ++i) {
    const Job j = job(i, 1, i, 1000, 2);
    p->on_arrival(i, j, u);
    p->on_start(i, j, 1000, u);
  }
  for (int i = 0; i < 4; ++i) p->on_termination(i + runtimes[i], job(i, 1, i, 1000, 2), i, u);
  EXPECT_EQ(p->on_arrival(400, job(4, 1, 400, 1000, 2), u), 55);  // median(10, 40, 70, 300) = (40 + 70) / 2
  EXPECT_EQ(p->on_arrival(400, job(5, 1, 400, 1000, 3), u), 1000);  // P = 3 never seen
  RunningMedian m;
  for (int64_t v : {5, 1, 9}) m.add(v);
  EXPECT_EQ(m.median(), 5);
}

TEST(SbhTest, NoEstimateModeMultipliesOnMisses) {
  auto p = make_predictor("sbh:noest=1;criteria=P,*;cap=500");
  Updates u;
  const Job j = job(0, 1, 0, 100000);
  EXPECT_EQ(p->on_arrival(0, j, u), 1);
  p->on_start(0, j, 1, u);
  p->on_deadline_miss(1, j, 0, 1, u);
  p->on_deadline_miss(10, j, 0, 10, u);
  p->on_deadline_miss(100, j, 0, 100, u);
  ASSERT_EQ(u.size(), 3u);
  EXPECT_EQ(u[0].prediction, 10);
  EXPECT_EQ(u[1].prediction, 100);
  EXPECT_EQ(u[2].prediction, 500);  // capped
}

TEST(PredAccuracyTest, JobsWithoutPredictionHaveNoAccuracy) {
  AccuracyTracker t(3);
  t.started(1, 100);  // never set: ignored, no state made for it
  const JobAccuracy none = t.finish(1, 50, 100);
  EXPECT_EQ(none.predictions, 0);
  EXPECT_DOUBLE_EQ(none.absolute_error, 0.0);
  EXPECT_DOUBLE_EQ(none.relative_accuracy, 0.0);
  t.set(2, 0, 100, 100);
  EXPECT_DOUBLE_EQ(t.finish(2, 100, 100).relative_accuracy, 1.0);
  EXPECT_EQ(t.finish(2, 120, 100).predictions, 0);  // finished already: forgotten
}

TEST(PredAccuracyTest, TimeWeightedHandComputed) {
  EXPECT_DOUBLE_EQ(relative_accuracy(100, 100), 1.0);
  EXPECT_DOUBLE_EQ(relative_accuracy(50, 100), 0.5);
  EXPECT_DOUBLE_EQ(relative_accuracy(100, 25), 0.25);
  AccuracyTracker t(1);
  // R = 100; submitted at 0 with P = 400, changed at 50 to 200, started at 100, ends at 200.
  t.set(0, 0, 400, 100);
  t.set(0, 50, 200, 100);
  t.started(0, 100);
  const JobAccuracy a = t.finish(0, 200, 100);
  // AA = (50 × 300 + 150 × 100) / 200 = 150; RA = (50 × 0.25 + 150 × 0.5) / 200 = 0.4375
  EXPECT_DOUBLE_EQ(a.absolute_error, 150.0);
  EXPECT_DOUBLE_EQ(a.relative_accuracy, 0.4375);
  EXPECT_FALSE(a.underestimated);
  EXPECT_EQ(a.predictions, 2);
  const auto s = summarize_accuracy({a, JobAccuracy{50, 1.0, true, 1}});
  EXPECT_DOUBLE_EQ(s.mean_absolute_error, 100.0);
  EXPECT_DOUBLE_EQ(s.underestimated_share, 0.5);
}

TEST(AccuracyTest, MeansOfPerfectPredictionsAreExactlyOne) {
  // The means were sums of v / n: ten perfect jobs gave 0.9999999999999999, OSC-Clust's 36,097 gave
  // 1.000000000000943, a relative accuracy above its bound of 1.
  for (size_t n = 1; n <= 2000; ++n) {
    const auto s = summarize_accuracy(std::vector<JobAccuracy>(n, JobAccuracy{0.0, 1.0, false, 1}));
    ASSERT_EQ(s.mean_relative_accuracy, 1.0) << n << " jobs";
    ASSERT_EQ(s.mean_absolute_error, 0.0) << n << " jobs";
  }
  std::vector<JobAccuracy> mixed(999, JobAccuracy{3.0, 1.0, false, 1});
  mixed.push_back(JobAccuracy{7.0, 0.0, true, 2});
  const auto s = summarize_accuracy(mixed);
  EXPECT_DOUBLE_EQ(s.mean_relative_accuracy, 0.999);
  EXPECT_DOUBLE_EQ(s.mean_absolute_error, 3.004);
  EXPECT_LE(s.mean_relative_accuracy, 1.0);
}

TEST(PredReplayTest, ReplaysTheLogsScheduleWithCorrection) {
  // One user; job 0 runs 0..300 (estimate 1000); job 1 submitted at 100, starts at 400, runs 500 s.
  std::vector<Job> jobs = {job(0, 1, 0, 1000), job(1, 1, 100, 1000)};
  jobs[0].runtime = 300;
  jobs[1].runtime = 500;
  auto p = make_predictor("ruh:jobs=1;propagate=1;correction=tsafrir");
  const ReplayResult r = replay(jobs, {0, 400}, *p);
  EXPECT_EQ(r.initial[0], 1000);
  EXPECT_EQ(r.initial[1], 1000);
  EXPECT_EQ(r.at_start[1], 300);  // propagated at 300 when job 0 ended
  EXPECT_EQ(r.deadline_misses, 1);  // at 700: corrected to the estimate 1000
  // job 1: 0..200 (from 100 to 300) P = 1000 (AA 500, RA .5); 300..700 P = 300 (AA 200, RA .6);
  // 700..900 P = 1000 (AA 500, RA .5). Life 800 s.
  EXPECT_DOUBLE_EQ(r.jobs[1].absolute_error, (200.0 * 500 + 400.0 * 200 + 200.0 * 500) / 800);
  EXPECT_DOUBLE_EQ(r.jobs[1].relative_accuracy, (200.0 * 0.5 + 400.0 * 0.6 + 200.0 * 0.5) / 800);
  EXPECT_TRUE(r.jobs[1].underestimated);
  EXPECT_DOUBLE_EQ(r.jobs[0].absolute_error, 700.0);
}

// A no-estimate SBH capped below a job's runtime raises the prediction by one second at each miss past the cap: the
// replay counts the jobs that go on so for a minute or more (the warning of `schedlab predict`).
TEST(PredReplayTest, JobsPredictedSecondBySecondAreCounted) {
  std::vector<Job> jobs = {job(0, 1, 0, 1000), job(1, 2, 0, 1000), job(2, 3, 0, 1000)};
  jobs[0].runtime = 500;  // past the cap of 100 by 400 s
  jobs[1].runtime = 159;  // by 59 s
  jobs[2].runtime = 160;  // by 60 s: a minute of raises by one second (101, 102, ... 160)
  const ReplayResult capped = replay(jobs, {0, 0, 0}, *make_predictor("sbh:noest=1;criteria=P,*;cap=100"));
  EXPECT_EQ(capped.second_by_second_jobs, 2);
  const ReplayResult uncapped = replay(jobs, {0, 0, 0}, *make_predictor("sbh:noest=1;criteria=P,*"));
  EXPECT_EQ(uncapped.second_by_second_jobs, 0);
  EXPECT_LT(uncapped.deadline_misses, 10);  // 1, 10, 100, 1000 s: a few misses a job
}

// The progress hook: called at the end with every job ended (and now and then before, on a long replay), and a
// way to stop the replay by throwing from it (Python's Ctrl-C).
TEST(PredReplayTest, ProgressIsReportedAndCanStopTheReplay) {
  std::vector<Job> jobs;
  std::vector<int64_t> start;
  for (JobId i = 0; i < 200000; ++i) {
    jobs.push_back(job(i, i % 7, i * 10, 100));
    jobs.back().runtime = 50;
    start.push_back(i * 10 + 5);
  }
  auto p = make_predictor("user-last2");
  std::vector<std::pair<size_t, size_t>> calls;
  const auto record = [&](size_t done, size_t total) { calls.emplace_back(done, total); };
  const ReplayResult r = replay(jobs, start, *p, 0.0, record);
  ASSERT_FALSE(calls.empty());
  EXPECT_EQ(calls.back(), (std::pair<size_t, size_t>{200000, 200000}));
  for (size_t k = 1; k < calls.size(); ++k) EXPECT_LE(calls[k - 1].first, calls[k].first);
  const ReplayResult plain = replay(jobs, start, *make_predictor("user-last2"));  // the hook changes nothing
  EXPECT_EQ(r.initial, plain.initial);
  EXPECT_EQ(r.at_start, plain.at_start);
  EXPECT_EQ(r.termination_order, plain.termination_order);
  EXPECT_EQ(r.updates, plain.updates);
  struct Stop {};
  EXPECT_THROW(replay(jobs, start, *make_predictor("user-last2"), 0.0, [](size_t, size_t) { throw Stop{}; }), Stop);
}

}  // namespace
}  // namespace schedlab::predict
