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

#include "schedlab/sim/scheduler_decorator.h"

namespace schedlab::sim {

class KillAtPrediction final : public SchedulerDecorator {
 public:
  KillAtPrediction(std::string name, std::unique_ptr<Scheduler> inner)
      : SchedulerDecorator(std::move(inner)), name_(std::move(name)) {}

  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<KillAtPrediction>(*this); }
  std::string_view name() const override { return name_; }
  Overrun overrun() const override { return Overrun::kKill; }

 private:
  std::string name_;
};

}  // namespace schedlab::sim
