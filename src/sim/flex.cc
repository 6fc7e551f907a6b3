#include "sim/flex.h"

#include <algorithm>
#include <limits>
#include <unordered_set>

namespace schedlab::sim {

namespace {
int64_t held(const WaitingJob& w) { return std::max<int64_t>(w.remaining(), 1); }
}  // namespace

void FlexScheduler::on_arrival(const SimState& /*state*/, const WaitingJob& job) { arrived_.push_back(job.id); }

void FlexScheduler::on_start(const SimState& state, const RunningJob& job) {
  if (entries_.erase(job.id) != 0) {
    order_.erase(std::find(order_.begin(), order_.end(), job.id));
  } else {
    std::erase(arrived_, job.id);
  }
  wait_sum_ += static_cast<double>(state.now - state.job(job.id).submit);
  ++started_;
  if (!dirty_) {  // the running-jobs profile follows; the full one already holds the job from its reservation
    base_.advance(state.now);
    base_.reserve(state.now, std::max(job.predicted_end(), state.now + 1), job.procs);
  }
}

void FlexScheduler::on_termination(const SimState& state, const RunningJob& job) {
  // Both profiles hold a running job until its predicted end, and at least one second (a zero prediction).
  const int64_t hold_end = std::max(job.predicted_end(), job.start + 1);
  if (state.now >= hold_end) return;
  // Ended early: give the rest of its hold back and compress.
  if (!dirty_) {
    profile_.advance(state.now);
    base_.advance(state.now);
    profile_.release(state.now, hold_end, job.procs);
    base_.release(state.now, hold_end, job.procs);
  }
  compress_ = true;
}

// One pass in priority order: each job to its earliest fit if that is earlier (its own hold stays in the
// profile while looking, so the scan stops at its reservation).
void FlexScheduler::compress(const SimState& state) {
  const int64_t now = state.now;
  for (JobId id : order_) {
    const WaitingJob& w = *state.queue.find(id);
    Entry& e = entries_[id];
    if (e.reservation <= now) continue;
    const int64_t d = held(w);
    const int64_t t = profile_.earliest_fit_before(now, w.procs, d, e.reservation);
    if (t >= e.reservation) continue;
    profile_.release(e.reservation, e.reservation + d, w.procs);
    profile_.reserve(t, t + d, w.procs);
    e.reservation = t;
  }
  compress_ = false;
}

double FlexScheduler::cost_of(const WaitingJob& w, int64_t start, int64_t now) const {
  switch (options_.cost) {
    case Options::Cost::kWork:
      return static_cast<double>(w.procs) * static_cast<double>(start - now);
    case Options::Cost::kWait:
      return static_cast<double>(start - now);
    case Options::Cost::kBoundedSlowdown: {
      const int64_t d = held(w);
      return static_cast<double>(start - w.submit + d) / static_cast<double>(std::max<int64_t>(d, 10));
    }
  }
  return 0;
}

// The profile from the running jobs and every known waiting job's reservation (a job that no longer fits
// at its reservation is placed last at its earliest fit), then one compression pass in priority order.
void FlexScheduler::rebuild(const SimState& state) {
  const int64_t now = state.now;
  dirty_ = false;
  // Follow the state when it disagrees with the notifications (a clone given another state: adaptive
  // schedulers synchronise their candidates so): jobs no longer waiting are dropped, unknown waiting jobs
  // arrive now.
  if (order_.size() + arrived_.size() != state.queue.size() ||
      std::any_of(order_.begin(), order_.end(), [&](JobId id) { return state.queue.find(id) == nullptr; }) ||
      std::any_of(arrived_.begin(), arrived_.end(), [&](JobId id) { return state.queue.find(id) == nullptr; })) {
    std::erase_if(order_, [&](JobId id) {
      if (state.queue.find(id) != nullptr) return false;
      entries_.erase(id);
      return true;
    });
    std::unordered_set<JobId> known(order_.begin(), order_.end());
    known.insert(arrived_.begin(), arrived_.end());
    std::erase_if(arrived_, [&](JobId id) { return state.queue.find(id) == nullptr; });
    for (const WaitingJob& w : state.queue) {
      if (!known.contains(w.id)) arrived_.push_back(w.id);
    }
  }
  if (profile_.capacity() != state.machine.total()) profile_ = AvailabilityProfile(state.machine.total(), now);
  busy_.clear();
  for (const RunningJob& r : state.running) busy_.emplace_back(std::max(r.predicted_end(), now + 1), r.procs);
  profile_.assign(now, busy_);
  base_ = profile_;
  pending_.clear();  // jobs to place last
  for (JobId id : order_) {
    const WaitingJob& w = *state.queue.find(id);
    Entry& e = entries_[id];
    if (e.reservation >= now && profile_.fits(e.reservation, w.procs, held(w))) {
      profile_.reserve(e.reservation, e.reservation + held(w), w.procs);
    } else {
      pending_.push_back(id);
    }
  }
  for (JobId id : pending_) {
    const WaitingJob& w = *state.queue.find(id);
    Entry& e = entries_[id];
    e.reservation = profile_.reserve_earliest(now, w.procs, held(w));
  }
  compress(state);
}

void FlexScheduler::place_arrival(const SimState& state, const WaitingJob& job) {
  const int64_t now = state.now;
  const int64_t d = held(job);
  const double mean_wait = started_ > 0 ? wait_sum_ / static_cast<double>(started_) : 0.0;
  const double slack_base =
      options_.slack == Options::Slack::kEstimate ? static_cast<double>(std::max<int64_t>(job.prediction, 60)) : mean_wait;
  const auto slack = static_cast<int64_t>(options_.slack_factor * slack_base);

  const int64_t last = profile_.earliest_fit(now, job.procs, d);
  double best_cost = cost_of(job, last, now);
  size_t best_k = order_.size();
  int64_t best_start = last;
  if (last > now) {
    // prefix = the running jobs and the jobs before position k (k + 1 after the line marked below).
    AvailabilityProfile prefix = base_;
    int64_t t = prefix.earliest_fit(now, job.procs, d);  // the new job's start at position k
    for (size_t k = 0; k < order_.size() && t < last; ++k) {
      // A position's cost is at least the new job's own (the others only get later), which grows with its start:
      // once that alone cannot win, no later position can.
      const double own = cost_of(job, t, now);
      if (best_k == order_.size() ? own >= best_cost : own > best_cost) break;
      const WaitingJob& wk = *state.queue.find(order_[k]);
      const int64_t rk = entries_[order_[k]].reservation;
      prefix.reserve(rk, rk + held(wk), wk.procs);  // prefix of position k + 1
      const int64_t t_next = prefix.earliest_fit(now, job.procs, d);
      if (t_next == t) continue;  // position k + 1 gives the new job the same start: only the last such is tried
      AvailabilityProfile trial = prefix;
      trial.release(rk, rk + held(wk), wk.procs);
      trial.reserve(t, t + d, job.procs);
      double cost = cost_of(job, t, now);
      bool keep = true;
      trial_.clear();
      // The jobs from k on keep their reservation where it is still free, else move to their next fit (never
      // earlier): each adds a delay >= 0, so a trial stops as soon as it cannot win.
      for (size_t i = k; i < order_.size() && keep; ++i) {
        const WaitingJob& w = *state.queue.find(order_[i]);
        const Entry& e = entries_[order_[i]];
        const int64_t di = held(w);
        int64_t ti = e.reservation;
        if (!trial.fits(ti, w.procs, di)) {
          ti = trial.earliest_fit(ti, w.procs, di);
          cost += cost_of(w, ti, now) - cost_of(w, e.reservation, now);
        }
        trial.reserve(ti, ti + di, w.procs);
        trial_.push_back(ti);
        // Ties go to the later position (the least disturbance), and last wins every tie.
        keep = ti <= e.deadline && (best_k == order_.size() ? cost < best_cost : cost <= best_cost);
      }
      if (keep) {
        best_cost = cost;
        best_k = k;
        best_start = t;
        best_.swap(trial_);
      }
      t = t_next;
    }
  }
  if (best_k < order_.size()) {
    compress_ = true;  // the jobs moved may have left room for jobs before them: compress at the next call
    for (size_t i = best_k; i < order_.size(); ++i) {
      const WaitingJob& w = *state.queue.find(order_[i]);
      const int64_t r = entries_[order_[i]].reservation;
      profile_.release(r, r + held(w), w.procs);
    }
    profile_.reserve(best_start, best_start + d, job.procs);
    for (size_t i = best_k; i < order_.size(); ++i) {
      const WaitingJob& w = *state.queue.find(order_[i]);
      const int64_t t = best_[i - best_k];
      profile_.reserve(t, t + held(w), w.procs);
      entries_[order_[i]].reservation = t;
    }
  } else {
    profile_.reserve(best_start, best_start + d, job.procs);
  }
  order_.insert(order_.begin() + static_cast<std::ptrdiff_t>(best_k), job.id);
  entries_[job.id] = {best_start, best_start + slack};
}

void FlexScheduler::schedule(const SimState& state, Decision& decision) {
  const int64_t now = state.now;
  // Rebuild unless the profile is known to be exact: nothing given back early, no overdue running job (its
  // hold must reach now + 1), the queue as known.
  const bool exact = !dirty_ && profile_.capacity() == state.machine.total() && earliest_reservation_ >= now &&
                     order_.size() + arrived_.size() == state.queue.size() &&
                     (state.running.empty() || state.running.front().predicted_end() > now);  // ordered by it
  if (exact) {
    profile_.advance(now);
    base_.advance(now);
    if (compress_) compress(state);
  } else {
    rebuild(state);
  }
  for (JobId id : arrived_) place_arrival(state, *state.queue.find(id));
  arrived_.clear();
  int64_t wake = std::numeric_limits<int64_t>::max();
  // While a running job is overdue (still running at or past its predicted end) the schedule rests on its
  // ending at once: no promise and no wake-up (its end is an event), as conservative.
  const bool overdue = !state.running.empty() && state.running.front().predicted_end() <= now;
  const bool promise = decision.wants_reservations && !overdue;
  for (JobId id : order_) {
    const Entry& e = entries_[id];
    if (e.reservation == now) {
      decision.start.push_back(id);
    } else {
      wake = std::min(wake, e.reservation);
    }
    // A job that lost capacity pushed past its deadline (forced) has no promise left to keep.
    if (promise && e.reservation <= e.deadline) decision.reservations.push_back({id, e.deadline});
  }
  earliest_reservation_ = wake;
  if (!overdue && wake != std::numeric_limits<int64_t>::max()) decision.wake_at = wake;
}

}  // namespace schedlab::sim
