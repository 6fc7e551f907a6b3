#include "sim/maui.h"

#include <algorithm>

namespace schedlab::sim {

void MauiScheduler::on_start(const SimState& /*state*/, const RunningJob& job) {
  if (options_.fixed_reservations) fixed_.erase(job.id);
}

void MauiScheduler::on_arrival(const SimState& /*state*/, const WaitingJob& job) {
  if (options_.backfill_new_only_at_arrival) arrived_.push_back(job.id);
}

void MauiScheduler::on_termination(const SimState& /*state*/, const RunningJob& /*job*/) { other_event_ = true; }

void MauiScheduler::schedule(const SimState& state, Decision& decision) {
  if (easy_rules_ && !options_.backfill_new_only_at_arrival) {
    easy_.schedule(state, decision);
    return;
  }
  const int64_t now = state.now;
  busy_.clear();
  for (const RunningJob& r : state.running) busy_.emplace_back(std::max(r.predicted_end(), now + 1), r.procs);
  if (profile_.capacity() != state.machine.total()) profile_ = AvailabilityProfile(state.machine.total(), now);
  profile_.assign(now, busy_);

  order_.clear();
  for (const WaitingJob& w : state.queue) order_.push_back(&w);
  if (options_.priority == Options::Priority::kXfactor) {
    // Highest expansion factor first: (wait + p) / p (long double: exact enough to order integer seconds
    // below 2^63; ties keep queue order).
    std::stable_sort(order_.begin(), order_.end(), [now](const WaitingJob* a, const WaitingJob* b) {
      auto x = [now](const WaitingJob* w) {
        const auto p = static_cast<long double>(std::max<int64_t>(w->remaining(), 1));
        return (static_cast<long double>(now - w->submit) + p) / p;
      };
      return x(a) > x(b);
    });
  }

  // Reservations are promises (checked under --check) only with one reservation in arrival order: the head's.
  // With xfactor priority the reservation passes from job to job; with several, a job reserved ahead of another
  // that starts early (an early end freed processors) may take the processors of the other's reservation, fixed
  // or not, since a job that can start now is checked only against the reservations of the jobs ahead of it.
  const bool promises = options_.priority == Options::Priority::kFcfs && options_.depth == 1;
  int reserved = 0;
  rest_.clear();
  auto try_start = [&](const WaitingJob& w) {
    const int64_t d = std::max<int64_t>(w.remaining(), 1);
    if (!profile_.fits(now, w.procs, d)) return false;
    profile_.reserve(now, now + d, w.procs);
    decision.start.push_back(w.id);
    return true;
  };
  for (const WaitingJob* w : order_) {
    if (reserved >= options_.depth) {
      rest_.push_back(w);
      continue;
    }
    if (try_start(*w)) continue;
    const int64_t d = std::max<int64_t>(w->remaining(), 1);
    int64_t t = -1;
    if (options_.fixed_reservations) {
      auto it = fixed_.find(w->id);
      if (it != fixed_.end() && it->second > now && profile_.fits(it->second, w->procs, d)) t = it->second;
    }
    if (t < 0) t = profile_.earliest_fit(now, w->procs, d);
    if (options_.fixed_reservations) fixed_[w->id] = t;
    profile_.reserve(t, t + d, w->procs);
    if (promises) decision.reservations.push_back({w->id, t});
    ++reserved;
  }
  switch (options_.backfill) {
    case Options::Backfill::kFirstFit:
      break;
    case Options::Backfill::kBestFit:
      std::stable_sort(rest_.begin(), rest_.end(),
                       [](const WaitingJob* a, const WaitingJob* b) { return a->procs > b->procs; });
      break;
    case Options::Backfill::kShortest:
      std::stable_sort(rest_.begin(), rest_.end(),
                       [](const WaitingJob* a, const WaitingJob* b) { return a->remaining() < b->remaining(); });
      break;
  }
  if (options_.backfill_new_only_at_arrival && !other_event_) {
    std::erase_if(rest_, [this](const WaitingJob* w) {
      return std::find(arrived_.begin(), arrived_.end(), w->id) == arrived_.end();
    });
  }
  arrived_.clear();
  other_event_ = false;
  for (const WaitingJob* w : rest_) {
    if (profile_.free_at(now) == 0) break;
    try_start(*w);
  }
}

}  // namespace schedlab::sim
