#include "schedlab/sim/event_cost.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "schedlab/predict/registry.h"
#include "schedlab/sim/scheduler_registry.h"
#include "schedlab/sim/simulate.h"
#include "schedlab/workload/workload.h"
#include "schedlab/swf/reader.h"
#include "sim_test_helpers.h"
#include "test_util.h"

namespace schedlab::sim {
namespace {

// The recorder changes no decision: every registered scheduler gives the same schedule wrapped and bare,
// on a loaded stretch of a real log (queues of dozens of jobs, suspensions for the preemptive ones), and
// records exactly one sample per scheduler call.
TEST(EventCostRecorderTest, ChangesNoScheduleAndRecordsEveryCall) {
  const std::string file = "KTH-SP2-1996-2.swf.gz";
  SCHEDLAB_NEED_TRACE(file);
  swf::Log log = swf::read_log(schedlab::testing::trace_path(file));
  log.records.resize(3000);
  WorkloadOptions wo;
  wo.procs = 100;
  wo.load = 0.9;
  const Workload w = build_workload(log.header, log.records, wo);
  const auto predictor = predict::make_predictor("estimate", predict::PredictorConfig{});
  SimOptions so;
  so.check = true;
  for (const auto& entry : schedulers()) {
    SCOPED_TRACE(std::string(entry.name));
    const auto bare = make_scheduler(entry.name, SchedulerConfig{});
    const SimResult expected = simulate(w, *bare, *predictor, so);
    EventCostRecorder recorder(make_scheduler(entry.name, SchedulerConfig{}));
    EXPECT_EQ(recorder.name(), bare->name());
    const SimResult got = simulate(w, recorder, *predictor, so);
    ASSERT_EQ(got.jobs.size(), expected.jobs.size());
    for (size_t i = 0; i < got.jobs.size(); ++i) {
      ASSERT_EQ(got.jobs[i].start, expected.jobs[i].start) << "job " << i;
      ASSERT_EQ(got.jobs[i].end, expected.jobs[i].end) << "job " << i;
      ASSERT_EQ(got.jobs[i].suspensions, expected.jobs[i].suspensions) << "job " << i;
    }
    EXPECT_EQ(got.termination_order, expected.termination_order);
    EXPECT_EQ(static_cast<int64_t>(recorder.samples().size()), got.scheduler_calls);
    int64_t longest = 0, total_ns = 0;
    for (const EventCostSample& s : recorder.samples()) {
      ASSERT_LE(s.running, 3000);
      longest = std::max(longest, s.queue);
      total_ns += s.ns;
    }
    EXPECT_GT(longest, 10) << "the stretch should load the machine";
    EXPECT_GT(total_ns, 0) << "the recorder must measure the time spent in the scheduler";
  }
}

void spin_for(std::chrono::microseconds d) {
  const auto until = std::chrono::steady_clock::now() + d;
  while (std::chrono::steady_clock::now() < until) {
  }
}

// A first-come first-served scheduler that spends known minimum times in its hooks.
class SlowFcfs final : public Scheduler {
 public:
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<SlowFcfs>(*this); }
  std::string_view name() const override { return "slow-fcfs"; }
  void on_arrival(const SimState&, const WaitingJob&) override { spin_for(std::chrono::microseconds(3000)); }
  void on_start(const SimState&, const RunningJob&) override { spin_for(std::chrono::microseconds(5000)); }
  void schedule(const SimState& state, Decision& decision) override {
    int64_t free = state.machine.free();
    for (const WaitingJob& j : state.queue) {
      if (j.procs > free) break;
      decision.start.push_back(j.id);
      free -= j.procs;
    }
  }
};

// Hook time is charged to the right event: arrivals to the call that follows them, starts to the call
// that made them. Two jobs arrive at 0 (one call, both start: >= 2 x 3 ms + 2 x 5 ms); the next call is
// at their end, with no hook before it and nothing left to start.
TEST(EventCostRecorderTest, ChargesHooksToTheirEvent) {
  using testing::J;
  const Workload w = testing::workload(4, {J{1, 0, 100, 1, 100}, J{2, 0, 100, 1, 100}});
  EventCostRecorder recorder(std::make_unique<SlowFcfs>());
  const auto predictor = predict::make_predictor("estimate", predict::PredictorConfig{});
  const SimResult r = simulate(w, recorder, *predictor);
  ASSERT_EQ(r.scheduler_calls, 2);
  ASSERT_EQ(recorder.samples().size(), 2u);
  EXPECT_EQ(recorder.samples()[0].queue, 2);
  EXPECT_GE(recorder.samples()[0].ns, 16'000'000);
  EXPECT_EQ(recorder.samples()[1].queue, 0);
  EXPECT_EQ(recorder.samples()[1].running, 0);
  // Had the starts' 10 ms been charged to the next call, it would show here (the bound leaves room for a
  // preempted test process).
  EXPECT_LT(recorder.samples()[1].ns, 10'000'000);
}

std::vector<EventCostSample> samples_of(const std::vector<std::pair<int64_t, int64_t>>& queue_ns, int copies) {
  std::vector<EventCostSample> out;
  for (int c = 0; c < copies; ++c) {
    for (const auto& [q, ns] : queue_ns) out.push_back({q, 0, ns});
  }
  return out;
}

TEST(SummarizeEventCostTest, BucketsByPowersOfTwo) {
  // Queue lengths 0, 1, 3, 5 and 7 (two of them in [4, 8)).
  const auto s = summarize_event_cost(samples_of({{0, 100}, {1, 200}, {3, 300}, {5, 1000}, {7, 3000}}, 1), 1, 1);
  EXPECT_EQ(s.events, 5);
  EXPECT_NEAR(s.total_s, 4600e-9, 1e-15);
  ASSERT_EQ(s.buckets.size(), 4u);
  EXPECT_EQ(s.buckets[0].queue_from, 0);
  EXPECT_EQ(s.buckets[0].queue_to, 1);
  EXPECT_FALSE(s.buckets[0].fitted);
  EXPECT_DOUBLE_EQ(s.buckets[0].us_per_job, 0.0);
  EXPECT_EQ(s.buckets[1].queue_from, 1);
  EXPECT_EQ(s.buckets[1].queue_to, 2);
  EXPECT_EQ(s.buckets[2].queue_from, 2);
  EXPECT_EQ(s.buckets[2].queue_to, 4);
  EXPECT_EQ(s.buckets[3].queue_from, 4);
  EXPECT_EQ(s.buckets[3].queue_to, 8);
  EXPECT_EQ(s.buckets[3].events, 2);
  EXPECT_DOUBLE_EQ(s.buckets[3].mean_queue, 6.0);
  EXPECT_DOUBLE_EQ(s.buckets[3].mean_us, 2.0);
  EXPECT_DOUBLE_EQ(s.buckets[3].us_per_job, 2.0 / 6.0);
}

TEST(SummarizeEventCostTest, FitsTheGrowthExponent) {
  std::vector<std::pair<int64_t, int64_t>> square, linear, qlogq;
  for (int64_t q = 16; q <= 4096; q *= 2) {
    square.push_back({q, 3 * q * q});
    linear.push_back({q, 50 * q});
    qlogq.push_back({q, static_cast<int64_t>(20.0 * static_cast<double>(q) * std::log2(static_cast<double>(q)))});
  }
  // Fixed per-call costs at short queues must not enter the fit.
  square.push_back({2, 1'000'000});
  const auto s2 = summarize_event_cost(samples_of(square, 100));
  ASSERT_TRUE(s2.exponent.has_value());
  EXPECT_NEAR(*s2.exponent, 2.0, 1e-9);
  const auto s1 = summarize_event_cost(samples_of(linear, 100));
  ASSERT_TRUE(s1.exponent.has_value());
  EXPECT_NEAR(*s1.exponent, 1.0, 1e-9);
  const auto sl = summarize_event_cost(samples_of(qlogq, 100));
  ASSERT_TRUE(sl.exponent.has_value());
  EXPECT_GT(*sl.exponent, 1.1);
  EXPECT_LT(*sl.exponent, 1.3);
  // Too few events per bucket: nothing is fitted.
  EXPECT_FALSE(summarize_event_cost(samples_of(square, 99)).exponent.has_value());
  // One fitted bucket is not a slope.
  EXPECT_FALSE(summarize_event_cost(samples_of({{64, 10}}, 500)).exponent.has_value());
  EXPECT_FALSE(summarize_event_cost({}).exponent.has_value());
}

}  // namespace
}  // namespace schedlab::sim
