#include "sim/flex.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <unordered_set>

#include <fmt/core.h>

namespace schedlab::sim {

namespace {
int64_t held(const WaitingJob& w) { return std::max<int64_t>(w.remaining(), 1); }
}  // namespace

void FlexScheduler::on_arrival(const SimState& /*state*/, const WaitingJob& job) { arrived_.push_back(job.id); }

void FlexScheduler::on_start(const SimState& state, const RunningJob& job) {
  if (const auto it = std::find_if(order_.begin(), order_.end(), [&](const Item& e) { return e.id == job.id; });
      it != order_.end()) {
    order_.erase(it);
  } else {
    std::erase(arrived_, job.id);
  }
  wait_sum_ += static_cast<double>(state.now - state.submitted(job.id));
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
    gained(state.now, hold_end, job.procs, profile_.release(state.now, hold_end, job.procs));
    base_.release(state.now, hold_end, job.procs);
  }
  compress_ = true;
}

void FlexScheduler::gained(int64_t start, int64_t end, int64_t procs, const AvailabilityProfile::FreeRange& before) {
  GainBounds g;
  g.add(start, end, before.most + procs, before.least);
  gains_.push_back(g);
}

// One pass in priority order: each job to its earliest fit if that is earlier (its own hold stays in the
// profile while looking, so the scan stops at its reservation). A certified job is looked at only where the gains
// since its last look can have opened a window (sim/gain_bounds.h; the argument is conservative's,
// sim/conservative.h): they are those recorded before the pass from its look on, and this pass's so far.
void FlexScheduler::compress(int64_t now) {
  const uint64_t pass_start = gains_end();
  suffix_bounds(gains_, suffix_);
  GainBounds this_pass;
  ++stats_.passes;
  for (Item& e : order_) {
    if (e.reservation <= now) {  // starts now
      e.certified = false;
      continue;
    }
    int64_t t = e.reservation;
    if (!e.certified || e.looked < gains_base_ || !options_.certificates) {
      ++stats_.scanned;
      t = profile_.earliest_fit_before(now, e.procs, e.held, e.reservation);
    } else if (const GainBounds b = gains_since(e.looked, this_pass); b.may_open(e.procs, e.reservation, now)) {
      ++stats_.searched;
      t = profile_.earliest_fit_overlapping(now, b.lo, b.hi, e.procs, e.held, e.reservation);
    } else {
      ++stats_.dismissed;
    }
    e.certified = true;
    e.looked = gains_end();
    if (t >= e.reservation) continue;
    // The new hold [t, t + held) ends before the old one does: only [t, min(t + held, old)) is taken and
    // [max(old, t + held), old end) given back (narrower gains dismiss more jobs).
    const int64_t old_start = e.reservation, old_end = e.reservation + e.held, freed = std::max(old_start, t + e.held);
    profile_.reserve(t, std::min(t + e.held, old_start), e.procs);
    gained(freed, old_end, e.procs, profile_.release(freed, old_end, e.procs));
    this_pass.add(gains_.back());
    ++stats_.moved;
    e.reservation = t;
    e.looked = gains_end();
  }
  // Every waiting job looked during this pass (or starts now): the gains before it are no one's news any more.
  gains_.erase(gains_.begin(), gains_.begin() + static_cast<std::ptrdiff_t>(pass_start - gains_base_));
  gains_base_ = pass_start;
  compress_ = false;
}

GainBounds FlexScheduler::gains_since(uint64_t looked, const GainBounds& this_pass) const {
  GainBounds b = this_pass;
  b.add(suffix_[looked - gains_base_]);
  return b;
}

void FlexScheduler::self_check(int64_t now, int64_t calls) const {
  // Between calls the pass's own gains are in the log: the bounds of the gains from a job's look on.
  std::vector<GainBounds> suffix;
  suffix_bounds(gains_, suffix);
  const size_t stride = (order_.size() + 63) / 64;
  for (size_t i = 0; i < order_.size(); ++i) {
    const Item& e = order_[i];
    if (stride > 1 && i % stride != static_cast<size_t>(calls) % stride) continue;
    if (!e.certified || e.reservation <= now) continue;
    if (e.looked < gains_base_ || e.looked > gains_end()) {
      throw std::logic_error(fmt::format("flex self-check failed at t={}: job {} looked at gain {} outside [{}, {}]",
                                         now, e.id, e.looked, gains_base_, gains_end()));
    }
    const GainBounds& b = suffix[e.looked - gains_base_];
    const int64_t full = profile_.earliest_fit_before(now, e.procs, e.held, e.reservation);
    const int64_t seen = b.may_open(e.procs, e.reservation, now)
                             ? profile_.earliest_fit_overlapping(now, b.lo, b.hi, e.procs, e.held, e.reservation)
                             : e.reservation;
    if (full != seen) {
      throw std::logic_error(fmt::format("flex self-check failed at t={}: job {} (reserved at {}) could start at {}, "
                                         "but its certificate says {}",
                                         now, e.id, e.reservation, full, seen));
    }
  }
}

double FlexScheduler::cost_of(const Item& job, int64_t start, int64_t now) const {
  switch (options_.cost) {
    case Options::Cost::kWork:
      return static_cast<double>(job.procs) * static_cast<double>(start - now);
    case Options::Cost::kWait:
      return static_cast<double>(start - now);
    case Options::Cost::kBoundedSlowdown: {
      const int64_t d = job.held;
      return static_cast<double>(start - job.submit + d) / static_cast<double>(std::max<int64_t>(d, 10));
    }
  }
  return 0;
}

// Places every job of order_ into profile_ (which holds the running jobs): at its reservation where it still fits,
// in priority order, the rest then at their earliest fit in priority order; with `grown_last`, the jobs of grown_ are
// tried at their reservations only after all the others. The starts go to placed_.
void FlexScheduler::place_all(int64_t now, bool grown_last) {
  placed_.assign(order_.size(), 0);
  pending_.clear();
  auto keep_or_defer = [&](size_t i) {
    const Item& e = order_[i];
    if (e.reservation >= now && profile_.fits(e.reservation, e.procs, e.held)) {
      profile_.reserve(e.reservation, e.reservation + e.held, e.procs);
      placed_[i] = e.reservation;
    } else {
      pending_.push_back(i);
    }
  };
  size_t g = 0;
  for (size_t i = 0; i < order_.size(); ++i) {
    if (grown_last && g < grown_.size() && grown_[g] == i) {
      ++g;
      continue;
    }
    keep_or_defer(i);
  }
  if (grown_last) {
    for (size_t i : grown_) keep_or_defer(i);
    std::sort(pending_.begin(), pending_.end());
  }
  for (size_t i : pending_) placed_[i] = profile_.reserve_earliest(now, order_[i].procs, order_[i].held);
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
      std::any_of(order_.begin(), order_.end(), [&](const Item& e) { return state.queue.find(e.id) == nullptr; }) ||
      std::any_of(arrived_.begin(), arrived_.end(), [&](JobId id) { return state.queue.find(id) == nullptr; })) {
    std::erase_if(order_, [&](const Item& e) { return state.queue.find(e.id) == nullptr; });
    std::unordered_set<JobId> known(arrived_.begin(), arrived_.end());
    for (const Item& e : order_) known.insert(e.id);
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
  gains_base_ = gains_end();  // a new profile: every job is scanned in full
  gains_.clear();
  grown_.clear();  // jobs whose prediction grew while they waited (positions in order_)
  for (size_t i = 0; i < order_.size(); ++i) {
    Item& e = order_[i];
    const WaitingJob& w = *state.queue.find(e.id);
    const int64_t old_held = e.held;
    e.procs = w.procs;  // (the state's values: a prediction may have changed)
    e.held = held(w);
    e.submit = w.submit;
    e.certified = false;
    if (e.held > old_held) grown_.push_back(i);
  }
  // Each job keeps its reservation where it still fits, in priority order; the others are then placed last at their
  // earliest fit. A job that needs longer keeps its place so too, as long as the jobs it displaces stay within their
  // deadlines (as an insertion may displace them); otherwise the grown jobs are placed after every other job, each
  // keeping its place only where its longer hold fits beside theirs (as conservative does): its own need changed.
  place_all(now, false);
  bool displaced_past_deadline = false;  // a job other than the grown ones, moved later and past its deadline
  for (size_t i = 0, g = 0; i < order_.size() && !grown_.empty() && !displaced_past_deadline; ++i) {
    if (g < grown_.size() && grown_[g] == i) {
      ++g;
      continue;
    }
    displaced_past_deadline = placed_[i] > std::max(order_[i].deadline, order_[i].reservation);
  }
  if (displaced_past_deadline) {
    ++stats_.grown_last;
    profile_ = base_;
    place_all(now, true);
  }
  for (size_t i = 0; i < order_.size(); ++i) order_[i].reservation = placed_[i];
  compress(now);
}

void FlexScheduler::place_arrival(const SimState& state, const WaitingJob& job) {
  const int64_t now = state.now;
  Item item{job.id, job.procs, held(job), job.submit, 0, 0};
  const int64_t d = item.held;
  const double mean_wait = started_ > 0 ? wait_sum_ / static_cast<double>(started_) : 0.0;
  const double slack_base =
      options_.slack == Options::Slack::kEstimate ? static_cast<double>(std::max<int64_t>(job.prediction, 60)) : mean_wait;
  const auto slack = static_cast<int64_t>(options_.slack_factor * slack_base);

  const int64_t last = profile_.earliest_fit(now, job.procs, d);
  double best_cost = cost_of(item, last, now);
  size_t best_k = order_.size();
  int64_t best_start = last;
  if (last > now) {
    // prefix = the running jobs and the jobs before position k (k + 1 after the line marked below).
    AvailabilityProfile prefix = base_;
    int64_t t = prefix.earliest_fit(now, job.procs, d);  // the new job's start at position k
    for (size_t k = 0; k < order_.size() && t < last; ++k) {
      // A position's cost is at least the new job's own (the others only get later), which grows with its start:
      // once that alone cannot win, no later position can.
      const double own = cost_of(item, t, now);
      if (best_k == order_.size() ? own >= best_cost : own > best_cost) break;
      const Item& ek = order_[k];
      prefix.reserve(ek.reservation, ek.reservation + ek.held, ek.procs);  // prefix of position k + 1
      // Holds only delay the new job's earliest fit: it stays at t unless job k's hold overlaps [t, t + d), and a
      // search need not look before t.
      const bool overlaps = ek.reservation < t + d && ek.reservation + ek.held > t;
      const int64_t t_next = overlaps ? prefix.earliest_fit(t, job.procs, d) : t;
      if (t_next == t) continue;  // position k + 1 gives the new job the same start: only the last such is tried
      AvailabilityProfile trial = prefix;
      trial.release(ek.reservation, ek.reservation + ek.held, ek.procs);
      trial.reserve(t, t + d, job.procs);
      double cost = own;
      bool keep = true;
      trial_.clear();
      // The jobs from k on keep their reservation where it is still free, else move to their next fit (never
      // earlier): each adds a delay >= 0, so a trial stops as soon as it cannot win.
      for (size_t i = k; i < order_.size() && keep; ++i) {
        const Item& e = order_[i];
        // Its reservation if still free, else its next fit: one search (earliest_fit from a free start is that start).
        const int64_t ti = trial.reserve_earliest(e.reservation, e.procs, e.held);
        if (ti != e.reservation) cost += cost_of(e, ti, now) - cost_of(e, e.reservation, now);
        trial_.push_back(ti);
        // Ties go to the later position (the least disturbance), and last wins every tie.
        keep = ti <= e.deadline && (best_k == order_.size() ? cost < best_cost : cost <= best_cost);
        if (ti > e.deadline) ++stats_.dropped;
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
    ++stats_.inserted;
    compress_ = true;  // the jobs moved may have left room for jobs before them: compress at the next call
    // Only the jobs that moved change the profile: a job moved later from r to t gives back [r, min(t, r + held))
    // (a gain for the certificates) and takes [max(t, r + held), t + held). All the gains first, then the new job,
    // then the rest of the moved jobs' new places: each step stays within the capacity (the final profile does).
    for (size_t i = best_k; i < order_.size(); ++i) {
      const Item& e = order_[i];
      const int64_t t = best_[i - best_k];
      if (t == e.reservation) continue;
      const int64_t end = std::min(t, e.reservation + e.held);
      gained(e.reservation, end, e.procs, profile_.release(e.reservation, end, e.procs));
    }
    profile_.reserve(best_start, best_start + d, job.procs);
    for (size_t i = best_k; i < order_.size(); ++i) {
      Item& e = order_[i];
      const int64_t t = best_[i - best_k];
      if (t == e.reservation) continue;
      profile_.reserve(std::max(t, e.reservation + e.held), t + e.held, e.procs);
      e.reservation = t;
    }
  } else {
    profile_.reserve(best_start, best_start + d, job.procs);
  }
  item.reservation = best_start;
  item.deadline = best_start + slack;
  // Its earliest fit: last, in the whole profile; inserted, in the profile without the jobs behind it, where
  // every window of the final one also is.
  item.certified = true;
  item.looked = gains_end();
  order_.insert(order_.begin() + static_cast<std::ptrdiff_t>(best_k), item);
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
    if (compress_) compress(now);
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
  for (const Item& e : order_) {
    if (e.reservation == now) {
      decision.start.push_back(e.id);
    } else {
      wake = std::min(wake, e.reservation);
    }
    // A job that lost capacity pushed past its deadline (forced) has no promise left to keep.
    if (promise && e.reservation <= e.deadline) decision.reservations.push_back({e.id, e.deadline});
  }
  earliest_reservation_ = wake;
  if (!overdue && wake != std::numeric_limits<int64_t>::max()) decision.wake_at = wake;
  ++calls_;
  if (options_.self_check || decision.wants_reservations) self_check(now, calls_);
}

}  // namespace schedlab::sim
