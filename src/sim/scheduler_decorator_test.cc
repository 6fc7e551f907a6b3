// Every hook and property of sim::Scheduler goes through a decorator to the wrapped scheduler, for the
// decorators the project has (KillAtPrediction forgot resume_delay() before they shared this base).
#include "schedlab/sim/scheduler_decorator.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "schedlab/sim/event_cost.h"
#include "schedlab/sim/kill_at_prediction.h"

namespace schedlab::sim {
namespace {

// Answers every property with a non-default value and logs every hook call into a shared list.
class Probe final : public Scheduler {
 public:
  explicit Probe(std::shared_ptr<std::vector<std::string>> log) : log_(std::move(log)) {}
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<Probe>(*this); }
  std::string_view name() const override { return "probe"; }
  Overrun overrun() const override { return Overrun::kSuspend; }
  bool needs_processors() const override { return true; }
  int64_t resume_delay() const override { return 17; }
  void on_arrival(const SimState&, const WaitingJob&) override { log_->push_back("arrival"); }
  void on_start(const SimState&, const RunningJob&) override { log_->push_back("start"); }
  void on_termination(const SimState&, const RunningJob&) override { log_->push_back("termination"); }
  void on_suspend(const SimState&, const RunningJob&) override { log_->push_back("suspend"); }
  void on_prediction_change(const SimState&, JobId, int64_t) override { log_->push_back("prediction"); }
  void schedule(const SimState&, Decision& d) override {
    log_->push_back("schedule");
    d.wake_at = 99;
  }

 private:
  std::shared_ptr<std::vector<std::string>> log_;
};

// The base alone (clone() is left to each decorator).
class Plain final : public SchedulerDecorator {
 public:
  using SchedulerDecorator::SchedulerDecorator;
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<Plain>(*this); }
};

const std::vector<std::string> kAllHooks = {"arrival", "start", "termination", "suspend", "prediction", "schedule"};

void call_every_hook(Scheduler& s) {
  const SimState state;
  const WaitingJob waiting{};
  const RunningJob running{};
  Decision d;
  s.on_arrival(state, waiting);
  s.on_start(state, running);
  s.on_termination(state, running);
  s.on_suspend(state, running);
  s.on_prediction_change(state, 0, 5);
  s.schedule(state, d);
  EXPECT_EQ(d.wake_at, 99);
}

TEST(SchedulerDecorator, ForwardsEveryHookAndProperty) {
  auto log = std::make_shared<std::vector<std::string>>();
  Plain d(std::make_unique<Probe>(log));
  EXPECT_EQ(d.name(), "probe");
  EXPECT_EQ(d.overrun(), Overrun::kSuspend);
  EXPECT_TRUE(d.needs_processors());
  EXPECT_EQ(d.resume_delay(), 17);
  call_every_hook(d);
  EXPECT_EQ(*log, kAllHooks);
}

TEST(SchedulerDecorator, KillAtPredictionChangesOnlyNameAndOverrun) {
  auto log = std::make_shared<std::vector<std::string>>();
  KillAtPrediction k("probe-kill", std::make_unique<Probe>(log));
  EXPECT_EQ(k.name(), "probe-kill");
  EXPECT_EQ(k.overrun(), Overrun::kKill);
  EXPECT_TRUE(k.needs_processors());
  EXPECT_EQ(k.resume_delay(), 17);  // was 0: the hand-written forwarding missed it
  call_every_hook(k);
  EXPECT_EQ(*log, kAllHooks);
  // A clone owns a clone of the inner scheduler (which shares the probe's log) and forwards the same way.
  const auto copy = k.clone();
  EXPECT_EQ(copy->name(), "probe-kill");
  call_every_hook(*copy);
  EXPECT_EQ(log->size(), 2 * kAllHooks.size());
}

TEST(SchedulerDecorator, EventCostRecorderForwardsAndRecordsOneSamplePerCall) {
  auto log = std::make_shared<std::vector<std::string>>();
  EventCostRecorder r(std::make_unique<Probe>(log));
  EXPECT_EQ(r.name(), "probe");
  EXPECT_EQ(r.overrun(), Overrun::kSuspend);
  EXPECT_EQ(r.resume_delay(), 17);
  call_every_hook(r);
  EXPECT_EQ(*log, kAllHooks);
  EXPECT_EQ(r.samples().size(), 1u);
}

}  // namespace
}  // namespace schedlab::sim
