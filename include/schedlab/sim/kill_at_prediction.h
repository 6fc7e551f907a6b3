// A decorator that gives any scheduler the "kill" overrun policy: a running job that outlives its
// prediction is killed at that instant (Overrun::kKill, sim/scheduler.h), as a strict batch system kills a
// job at its requested time. Everything else is the wrapped scheduler's.
//
// `easy-kill` is this around `conservative`: Gibbons (1997) calls it EASY, but the policy it describes is
// conservative backfilling (no earlier-submitted job is ever delayed) with jobs killed at their estimate
// (docs/simulator.md). With `--predictor estimate` the kill is at the user estimate; with
// another predictor, at that predictor's current prediction (which is what the scheduler planned with).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "schedlab/sim/scheduler.h"

namespace schedlab::sim {

class KillAtPrediction final : public Scheduler {
 public:
  KillAtPrediction(std::string name, std::unique_ptr<Scheduler> inner)
      : name_(std::move(name)), inner_(std::move(inner)) {}
  KillAtPrediction(const KillAtPrediction& other) : Scheduler(other), name_(other.name_), inner_(other.inner_->clone()) {}

  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<KillAtPrediction>(*this); }
  std::string_view name() const override { return name_; }
  Overrun overrun() const override { return Overrun::kKill; }
  bool needs_processors() const override { return inner_->needs_processors(); }

  void on_arrival(const SimState& s, const WaitingJob& j) override { inner_->on_arrival(s, j); }
  void on_start(const SimState& s, const RunningJob& j) override { inner_->on_start(s, j); }
  void on_termination(const SimState& s, const RunningJob& j) override { inner_->on_termination(s, j); }
  void on_suspend(const SimState& s, const RunningJob& j) override { inner_->on_suspend(s, j); }
  void on_prediction_change(const SimState& s, JobId j, int64_t old) override {
    inner_->on_prediction_change(s, j, old);
  }
  void schedule(const SimState& s, Decision& d) override { inner_->schedule(s, d); }

 private:
  std::string name_;
  std::unique_ptr<Scheduler> inner_;
};

}  // namespace schedlab::sim
