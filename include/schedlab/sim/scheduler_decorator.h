// The base of schedulers that wrap another one (KillAtPrediction, EventCostRecorder, and the adaptive
// schedulers' candidates): it owns the inner scheduler, clones it when copied, and forwards every hook and
// property of sim::Scheduler to it. A decorator overrides only what it changes, so a hook added to
// Scheduler later is forwarded by every decorator without touching it.
#pragma once

#include <memory>
#include <string_view>

#include "schedlab/sim/scheduler.h"

namespace schedlab::sim {

class SchedulerDecorator : public Scheduler {
 public:
  explicit SchedulerDecorator(std::unique_ptr<Scheduler> inner) : inner_(std::move(inner)) {}
  SchedulerDecorator(const SchedulerDecorator& other) : Scheduler(other), inner_(other.inner_->clone()) {}
  SchedulerDecorator& operator=(const SchedulerDecorator&) = delete;

  const Scheduler& inner() const { return *inner_; }

  std::string_view name() const override { return inner_->name(); }
  Overrun overrun() const override { return inner_->overrun(); }
  bool needs_processors() const override { return inner_->needs_processors(); }
  int64_t resume_delay() const override { return inner_->resume_delay(); }
  void on_arrival(const SimState& state, const WaitingJob& job) override { inner_->on_arrival(state, job); }
  void on_start(const SimState& state, const RunningJob& job) override { inner_->on_start(state, job); }
  void on_termination(const SimState& state, const RunningJob& job) override { inner_->on_termination(state, job); }
  void on_suspend(const SimState& state, const RunningJob& job) override { inner_->on_suspend(state, job); }
  void on_prediction_change(const SimState& state, JobId job, int64_t old_prediction) override {
    inner_->on_prediction_change(state, job, old_prediction);
  }
  void on_sync(const SimState& state) override { inner_->on_sync(state); }
  const AdaptiveStats* adaptive_stats() const override { return inner_->adaptive_stats(); }
  void schedule(const SimState& state, Decision& decision) override { inner_->schedule(state, decision); }

 private:
  std::unique_ptr<Scheduler> inner_;
};

}  // namespace schedlab::sim
