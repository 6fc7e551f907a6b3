// Hand-computed LEWF and LEWF-fill schedules.
#include "schedlab/sim/lewf.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "schedlab/predict/registry.h"
#include "schedlab/swf/reader.h"
#include "sim/sim_test_helpers.h"
#include "test_util.h"

namespace schedlab::sim {
namespace {
using testing::J;
using V = std::vector<int64_t>;

TEST(LewfTest, OrdersTheQueueByPredictedRuntime) {
  // At t=100 the waiting jobs go shortest first: J3 (50 s) and J4 (400 s) start, J2 (500 s) when J3 ends.
  const auto w = testing::workload(10, {J{1, 0, 100, 10, 100}, J{2, 1, 500, 5, 500}, J{3, 2, 50, 5, 50},
                                        J{4, 3, 400, 5, 400}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "lewf")), (V{0, 150, 100, 100}));
}

TEST(LewfTest, StopsAtTheFirstMisfitUnlessFilling) {
  // Order at t=100: J3 (50 s, 8 procs), J4 (60 s, 5), J2 (500 s, 2). lewf stops at J4; lewf-fill starts J2.
  const auto w = testing::workload(10, {J{1, 0, 100, 10, 100}, J{2, 1, 500, 2, 500}, J{3, 2, 50, 8, 50},
                                        J{4, 3, 60, 5, 60}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "lewf")), (V{0, 150, 100, 150}));
  EXPECT_EQ(testing::starts(w, testing::run(w, "lewf-fill")), (V{0, 100, 100, 150}));
}

TEST(LewfTest, FillIndexGrowsWithTheJobsNotTheMachine) {
  // lewf-fill's index is sized by the largest job so far: J1 (1 proc) is indexed when J2 (9) makes it grow.
  // At t=100 the order is J4 (50 s, 8), J5 (60 s, 5), J3 (500 s, 2): fill starts J4 and J3, lewf only J4.
  const auto w = testing::workload(10, {J{1, 0, 100, 1, 100}, J{2, 0, 100, 9, 100}, J{3, 1, 500, 2, 500},
                                        J{4, 2, 50, 8, 50}, J{5, 3, 60, 5, 60}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "lewf-fill")), (V{0, 0, 100, 100, 150}));
  EXPECT_EQ(testing::starts(w, testing::run(w, "lewf")), (V{0, 0, 150, 100, 150}));
  // A machine of 2*10^9 processors (sized from the machine, the index needed 150 GB: "out of memory").
  const auto huge = testing::workload(2'000'000'000, {J{1, 0, 100, 64, 100}, J{2, 5, 10, 2048, 10}});
  EXPECT_EQ(testing::starts(huge, testing::run(huge, "lewf-fill")), (V{0, 5}));
}

TEST(LewfTest, TiesKeepQueueOrder) {
  const auto tie = testing::workload(10, {J{1, 0, 100, 10, 100}, J{2, 1, 50, 10, 50}, J{3, 2, 50, 10, 50}});
  EXPECT_EQ(testing::starts(tie, testing::run(tie, "lewf")), (V{0, 100, 150}));
  const auto shorter = testing::workload(10, {J{1, 0, 100, 10, 100}, J{2, 1, 50, 10, 50}, J{3, 2, 40, 10, 40}});
  EXPECT_EQ(testing::starts(shorter, testing::run(shorter, "lewf")), (V{0, 140, 100}));
}

TEST(LewfTest, UsesThePredictor) {
  // J2 estimates 500 s but runs 10 s: by estimate J3 goes first, by perfect prediction J2.
  const auto w = testing::workload(10, {J{1, 0, 100, 10, 100}, J{2, 1, 10, 10, 500}, J{3, 2, 50, 10, 50}});
  EXPECT_EQ(testing::starts(w, testing::run(w, "lewf", "estimate")), (V{0, 150, 100}));
  EXPECT_EQ(testing::starts(w, testing::run(w, "lewf", "perfect")), (V{0, 100, 110}));
}

TEST(LewfTest, ZeroRuntimeJobsAndRunToCompletion) {
  // J1 (0 s) starts and ends at t=0; J2 starts at 0 in the second round and is never preempted by the
  // shorter J3 arriving at t=1.
  const auto w = testing::workload(10, {J{1, 0, 0, 10, 10}, J{2, 0, 5, 10, 20}, J{3, 1, 1, 10, 1}});
  const auto r = testing::run(w, "lewf-fill");
  EXPECT_EQ(testing::starts(w, r), (V{0, 0, 5}));
}

TEST(LewfTest, KillAtEstimate) {
  const auto w = testing::workload(10, {J{1, 0, 100, 10, 50}, J{2, 1, 10, 10, 10}}, true);
  EXPECT_EQ(testing::starts(w, testing::run(w, "lewf")), (V{0, 50}));
}

// The definitions of lewf and lewf-fill, written the slow obvious way: sort the queue by (current prediction, id),
// start jobs in that order while they fit; lewf stops at the first that does not, lewf-fill goes on.
class NaiveLewf final : public Scheduler {
 public:
  explicit NaiveLewf(bool fill) : fill_(fill) {}
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<NaiveLewf>(*this); }
  std::string_view name() const override { return fill_ ? "naive-lewf-fill" : "naive-lewf"; }
  void schedule(const SimState& state, Decision& decision) override {
    std::vector<WaitingJob> order(state.queue.begin(), state.queue.end());
    std::sort(order.begin(), order.end(), [](const WaitingJob& a, const WaitingJob& b) {
      return a.prediction != b.prediction ? a.prediction < b.prediction : a.id < b.id;
    });
    int64_t free = state.machine.free();
    for (const WaitingJob& w : order) {
      if (w.procs <= free) {
        decision.start.push_back(w.id);
        free -= w.procs;
      } else if (!fill_) {
        break;
      }
    }
  }

 private:
  bool fill_;
};

TEST(LewfTest, FillMatchesTheNaiveDefinitionOnARealLog) {
  // The size-indexed segment tree must give exactly the schedule of the definition (KTH: 28,489 jobs, a
  // busy machine where many calls have free processors that no waiting job fits). With a predictor that changes
  // the predictions of waiting jobs as their users' jobs end (ruh with propagation), the queue's order changes
  // under the index: both variants must re-key those jobs (on_prediction_change, which no test reached before).
  // The project's own copy of the log (always there, unlike ../shared/traces).
  const std::string path = schedlab::testing::bundled_kth();
  const swf::Log log = swf::read_log(path);
  const Workload w = build_workload(log.header, log.records);
  SimOptions o;
  o.check = true;
  for (const char* predictor : {"estimate", "ruh:propagate=1"}) {
    for (const bool fill : {true, false}) {
      const auto p = predict::make_predictor(predictor);
      const SimResult fast = simulate(w, LewfScheduler(fill), *p, o);
      const SimResult naive = simulate(w, NaiveLewf(fill), *p, o);
      ASSERT_EQ(fast.jobs.size(), naive.jobs.size());
      size_t differ = 0;
      for (size_t i = 0; i < fast.jobs.size(); ++i) differ += fast.jobs[i].start != naive.jobs[i].start;
      EXPECT_EQ(differ, 0u) << predictor << (fill ? " lewf-fill" : " lewf");
      EXPECT_GT(fast.metrics.wait.mean, 0.0);
      if (std::string_view(predictor) != "estimate") {
        EXPECT_GT(fast.accuracy.mean_predictions, 1.0);  // predictions did change while jobs waited
      }
    }
  }
}

}  // namespace
}  // namespace schedlab::sim
