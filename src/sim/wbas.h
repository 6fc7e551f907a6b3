// A private header (src/sim): made by name through the registry (sim/scheduler_registry.h).
// WBAS, workload-based adaptive scheduling (Talby thesis §7.4.2): two candidates, `high` (Flex) and `low`
// (Maui). The long-term average parallelism is an exponential moving average updated at every arrival,
// avg += (processors − avg) / maf (spec Decision), where for the first maf arrivals the factor is the number
// of arrivals so far (the running mean: the average does not start from one job's size). At every switch
// point (every `interval` from the first call; taken at the first scheduler call at or after its time, as
// pbas does), if the mean processors requested by the jobs that arrived
// since the last switch point exceed the average, `high` is active, otherwise `low`; with no arrival in the
// window the active candidate stays. `low` is active first.
// Only the active candidate runs (the thesis: WBAS "doesn't require simulating both schedulers"): the other
// gets no notifications and is synchronised to the real state when it becomes active (Scheduler::on_sync).
// Reservations are not reported (a promise of one candidate does not bind the other).
// Cost: the active candidate's, plus O(1) per arrival and per switch point.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "schedlab/sim/scheduler.h"
#include "sim/switch_clock.h"

namespace schedlab::sim {

class WbasScheduler final : public Scheduler {
 public:
  struct Options {
    std::string high = "flex", low = "maui";  // specs, for the report
    double maf = 5000;                        // > 0
    int64_t interval = 86400;                 // seconds, > 0
  };
  WbasScheduler(Options options, std::unique_ptr<Scheduler> high, std::unique_ptr<Scheduler> low);
  WbasScheduler(const WbasScheduler& other);
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<WbasScheduler>(*this); }
  std::string_view name() const override { return "wbas"; }
  Overrun overrun() const override { return active().overrun(); }

  void on_arrival(const SimState& state, const WaitingJob& job) override;
  void on_start(const SimState& state, const RunningJob& job) override { active().on_start(state, job); }
  void on_termination(const SimState& state, const RunningJob& job) override { active().on_termination(state, job); }
  void on_prediction_change(const SimState& state, JobId job, int64_t old_prediction) override {
    active().on_prediction_change(state, job, old_prediction);
  }
  void on_sync(const SimState& state) override { active().on_sync(state); }
  const AdaptiveStats* adaptive_stats() const override;
  void schedule(const SimState& state, Decision& decision) override;
  double average_parallelism() const { return average_; }

 private:
  static constexpr size_t kHigh = 0, kLow = 1;
  Scheduler& active() const { return *candidates_[active_]; }

  Options options_;
  std::array<std::unique_ptr<Scheduler>, 2> candidates_;
  size_t active_ = kLow;
  SwitchClock clock_;
  int64_t arrivals_ = 0;
  double average_ = 0;
  double window_procs_ = 0;  // processors requested by the jobs that arrived in the window
  int64_t window_jobs_ = 0;
};

}  // namespace schedlab::sim
