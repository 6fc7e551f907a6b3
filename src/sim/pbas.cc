#include "sim/pbas.h"

#include <stdexcept>
#include <utility>

#include <fmt/core.h>

namespace schedlab::sim {

namespace {
AdaptiveStats initial_stats(const std::vector<std::string>& candidates) {
  AdaptiveStats stats;
  stats.kind = "pbas";
  for (const std::string& spec : candidates) stats.candidates.push_back({.spec = spec});
  return stats;
}
}  // namespace

PbasScheduler::PbasScheduler(Options options, std::vector<std::unique_ptr<Scheduler>> candidates)
    : options_(std::move(options)),
      candidates_(std::move(candidates)),
      shadows_(candidates_.size()),
      clock_(options_.interval, initial_stats(options_.candidates)) {
  if (candidates_.empty()) throw std::invalid_argument("scheduler pbas: parameter candidates: the list is empty");
  if (options_.interval <= 0) throw std::invalid_argument("scheduler pbas: parameter interval must be > 0");
  for (size_t i = 0; i < candidates_.size(); ++i) {
    const Scheduler& c = *candidates_[i];
    if (c.needs_processors() || c.overrun() == Overrun::kSuspend || c.resume_delay() != 0) {
      throw std::invalid_argument(fmt::format(
          "scheduler pbas: parameter candidates: '{}' preempts jobs; candidates must not (they run in the background)",
          options_.candidates[i]));
    }
  }
}

PbasScheduler::PbasScheduler(const PbasScheduler& other)
    : Scheduler(other),
      options_(other.options_),
      shadows_(other.shadows_),
      active_(other.active_),
      clock_(other.clock_),
      real_(other.real_),
      arrived_(other.arrived_) {
  for (const auto& c : other.candidates_) candidates_.push_back(c->clone());
}

int64_t PbasScheduler::length(const SimState& state, JobId id, int64_t prediction) const {
  if (!options_.log_runtimes) return std::max<int64_t>(prediction, 0);
  const int64_t runtime = state.job(id).runtime;
  return active().overrun() == Overrun::kKill ? std::min(runtime, prediction) : runtime;
}

void PbasScheduler::on_arrival(const SimState& state, const WaitingJob& job) {
  arrived_.push_back(job);
  active().on_arrival(state, job);
}

void PbasScheduler::on_start(const SimState& state, const RunningJob& job) {
  real_.advance(state.now);
  real_.started(state.submitted(job.id), state.now, length(state, job.id, job.prediction), job.procs);
  active().on_start(state, job);
}

void PbasScheduler::on_termination(const SimState& state, const RunningJob& job) {
  real_.advance(state.now);
  real_.ended(job.procs);
  active().on_termination(state, job);
}

void PbasScheduler::on_prediction_change(const SimState& state, JobId job, int64_t old_prediction) {
  active().on_prediction_change(state, job, old_prediction);
}

// Every candidate but the active one continues in the background from `state`, and decides at its instant.
void PbasScheduler::restart_shadows(const SimState& state) {
  for (size_t c = 0; c < candidates_.size(); ++c) {
    if (c == active_) continue;
    shadows_[c].start(state, options_.log_runtimes, candidates_[c]->overrun() == Overrun::kKill);
    shadows_[c].instant(state.now, {}, *candidates_[c]);
  }
  real_.reset(state.now, state.machine.used());
}

void PbasScheduler::on_sync(const SimState& state) {
  for (auto& c : candidates_) c->on_sync(state);
  arrived_.clear();
  if (!clock_.started()) return;  // the first call starts everything
  // The shadows restart at the next call (its instant is state.now): decide there, not twice.
  for (size_t c = 0; c < candidates_.size(); ++c) {
    if (c != active_) shadows_[c].start(state, options_.log_runtimes, candidates_[c]->overrun() == Overrun::kKill);
  }
  real_.reset(state.now, state.machine.used());
}

void PbasScheduler::switch_point(const SimState& state) {
  const int64_t now = state.now;
  const bool higher_is_better = options_.metric == AdaptiveMetric::kUtilization;
  size_t best = active_;
  real_.advance(now);
  double best_value = real_.value(options_.metric, now, state.machine.total(), state.queue,
                                  [&](const WaitingJob& w) { return length(state, w.id, w.prediction); });
  for (size_t c = 0; c < candidates_.size(); ++c) {
    if (c == active_) continue;
    shadows_[c].advance_before(now, *candidates_[c]);
    const double v = shadows_[c].value(options_.metric, now);
    if (higher_is_better ? v > best_value : v < best_value) {
      best = c;
      best_value = v;
    }
  }
  clock_.chose(active_, best, now);
  // The candidates that ran in the background learn the real state; the active one already follows it.
  for (size_t c = 0; c < candidates_.size(); ++c) {
    if (c != active_) candidates_[c]->on_sync(state);
  }
  active_ = best;
  restart_shadows(state);
}

void PbasScheduler::schedule(const SimState& state, Decision& decision) {
  const int64_t now = state.now;
  const SwitchClock::Call call = clock_.at(now);
  if (call == SwitchClock::Call::kFirst) {
    restart_shadows(state);
  } else if (call == SwitchClock::Call::kSwitchPoint) {
    switch_point(state);
  } else {
    for (size_t c = 0; c < candidates_.size(); ++c) {
      if (c != active_) shadows_[c].instant(now, arrived_, *candidates_[c]);
    }
  }
  arrived_.clear();
  active().schedule(state, decision);
  decision.reservations.clear();
}

const AdaptiveStats* PbasScheduler::adaptive_stats() const { return clock_.report(active_); }

}  // namespace schedlab::sim
