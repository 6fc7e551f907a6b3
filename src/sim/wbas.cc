#include "sim/wbas.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include <fmt/core.h>

namespace schedlab::sim {

WbasScheduler::WbasScheduler(Options options, std::unique_ptr<Scheduler> high, std::unique_ptr<Scheduler> low)
    : options_(std::move(options)),
      candidates_{std::move(high), std::move(low)},
      clock_(options_.interval, AdaptiveStats{.kind = "wbas", .candidates = {{.spec = options_.high}, {.spec = options_.low}}}) {
  if (!(options_.maf > 0)) throw std::invalid_argument("scheduler wbas: parameter maf must be > 0");
  if (options_.interval <= 0) throw std::invalid_argument("scheduler wbas: parameter interval must be > 0");
  for (size_t i = 0; i < 2; ++i) {
    if (candidates_[i]->needs_processors()) {
      throw std::invalid_argument(fmt::format("scheduler wbas: parameter {}: '{}' needs processor identities",
                                              i == kHigh ? "high" : "low", i == kHigh ? options_.high : options_.low));
    }
  }
}

WbasScheduler::WbasScheduler(const WbasScheduler& other)
    : Scheduler(other),
      options_(other.options_),
      candidates_{other.candidates_[0]->clone(), other.candidates_[1]->clone()},
      active_(other.active_),
      clock_(other.clock_),
      arrivals_(other.arrivals_),
      average_(other.average_),
      window_procs_(other.window_procs_),
      window_jobs_(other.window_jobs_) {}

void WbasScheduler::on_arrival(const SimState& state, const WaitingJob& job) {
  // An exponential moving average whose first `maf` steps are the running mean (the factor is
  // min(arrivals, maf)), so that the start does not hang on the first job's size.
  ++arrivals_;
  average_ += (static_cast<double>(job.procs) - average_) / std::min(static_cast<double>(arrivals_), options_.maf);
  window_procs_ += job.procs;
  ++window_jobs_;
  active().on_arrival(state, job);
}

void WbasScheduler::schedule(const SimState& state, Decision& decision) {
  const int64_t now = state.now;
  if (clock_.at(now) == SwitchClock::Call::kSwitchPoint) {
    size_t want = active_;
    if (window_jobs_ > 0) want = window_procs_ / static_cast<double>(window_jobs_) > average_ ? kHigh : kLow;
    clock_.chose(active_, want, now);
    if (want != active_) {
      active_ = want;
      active().on_sync(state);
    }
    window_procs_ = 0;
    window_jobs_ = 0;
  }
  active().schedule(state, decision);
  decision.reservations.clear();
}

const AdaptiveStats* WbasScheduler::adaptive_stats() const { return clock_.report(active_); }

}  // namespace schedlab::sim
