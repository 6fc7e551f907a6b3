// A private header (src/sim): made by name through the registry (sim/scheduler_registry.h).
// PBAS, performance-based adaptive scheduling (Talby thesis §7.3, Figure 8), and through it indirect PBAS
// (§7.3.4: candidates that are themselves pbas specs).
// - Every candidate is a scheduler of its own. The active one drives the machine: it gets the real
//   notifications and its decisions happen. Every other one runs in the background on its own copy of the
//   machine (sim/shadow_run.h), with the same arrivals, from the real state of the last switch point.
// - Switch points every `interval` from the first call: each candidate is measured over the window since
//   the last one (history window = interval, as in the thesis) by `metric` — the active one on the real run,
//   the others on their shadow runs, by one rule (sim/shadow_run.h WindowMeter) — and the best becomes
//   active (lower wait, response, slowdown or bsld; higher utilization; ties keep the active one, then the
//   first listed). Then every candidate is synchronised to the real state (Scheduler::on_sync; the shadows
//   restart from a copy of the queue and the running jobs).
// - A switch point is taken at the first scheduler call at or after its time (an arrival, a termination, or
//   a wake-up the active candidate asked for), and the next one is the first multiple of `interval` after
//   that. Between two events nothing changes on the machine; calling the candidates at extra instants
//   would change the schedules of those whose compression depends on when they are called (conservative,
//   flex), and a one-candidate pbas would no longer give its candidate's schedule.
// - The first candidate listed is active first.
// - Reservations are not reported: a promise of one candidate does not bind the next.
// Cost: per real event, the active candidate's call plus every shadow's calls up to that instant; per switch
// point, O(Q + R) per candidate to copy the state.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/shadow_run.h"
#include "sim/switch_clock.h"
#include "schedlab/sim/scheduler.h"

namespace schedlab::sim {

class PbasScheduler final : public Scheduler {
 public:
  struct Options {
    std::vector<std::string> candidates;  // scheduler specs
    int64_t interval = 7 * 86400;         // seconds, > 0
    AdaptiveMetric metric = AdaptiveMetric::kUtilization;
    bool log_runtimes = true;             // shadows run jobs for their log runtime (else their prediction)
  };
  // Makes the candidates (throws std::invalid_argument naming a candidate that cannot be one).
  PbasScheduler(Options options, std::vector<std::unique_ptr<Scheduler>> candidates);
  PbasScheduler(const PbasScheduler& other);
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<PbasScheduler>(*this); }
  std::string_view name() const override { return "pbas"; }
  Overrun overrun() const override { return active().overrun(); }

  void on_arrival(const SimState& state, const WaitingJob& job) override;
  void on_start(const SimState& state, const RunningJob& job) override;
  void on_termination(const SimState& state, const RunningJob& job) override;
  void on_prediction_change(const SimState& state, JobId job, int64_t old_prediction) override;
  void on_sync(const SimState& state) override;
  const AdaptiveStats* adaptive_stats() const override;
  void schedule(const SimState& state, Decision& decision) override;

 private:
  Scheduler& active() const { return *candidates_[active_]; }
  void restart_shadows(const SimState& state);
  void switch_point(const SimState& state);
  int64_t length(const SimState& state, JobId id, int64_t prediction) const;

  Options options_;
  std::vector<std::unique_ptr<Scheduler>> candidates_;
  std::vector<ShadowRun> shadows_;  // per candidate (the active one's is idle)
  size_t active_ = 0;
  SwitchClock clock_;
  WindowMeter real_;                // the real run over the current window
  std::vector<WaitingJob> arrived_;  // arrivals since the last call
};

}  // namespace schedlab::sim
