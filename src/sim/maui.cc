#include "sim/maui.h"

#include <algorithm>
#include <iterator>
#include <limits>

namespace schedlab::sim {

__extension__ using Int128 = __int128;

void MauiScheduler::on_start(const SimState& /*state*/, const RunningJob& job) {
  if (options_.fixed_reservations) fixed_.erase(job.id);
  if (indexed()) index_.remove(job.id);
}

void MauiScheduler::on_arrival(const SimState& /*state*/, const WaitingJob& job) {
  if (options_.backfill_new_only_at_arrival) arrived_.push_back(job.id);
  if (indexed()) index_.add(job);
}

void MauiScheduler::on_suspend(const SimState& state, const RunningJob& job) {
  if (!indexed()) return;
  if (const WaitingJob* w = state.queue.find(job.id)) index_.add(*w);  // at the back of the queue
}

void MauiScheduler::on_prediction_change(const SimState& state, JobId job, int64_t /*old_prediction*/) {
  if (!indexed()) return;
  if (const WaitingJob* w = state.queue.find(job)) index_.update(*w);
}

void MauiScheduler::on_sync(const SimState& state) {
  if (indexed() && index_.active()) index_.rebuild(state.queue);
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

  // Reservations are promises (checked under --check) only with one reservation in arrival order: the head's.
  // With xfactor priority the reservation passes from job to job; with several, a job reserved ahead of another
  // that starts early (an early end freed processors) may take the processors of the other's reservation, fixed
  // or not, since a job that can start now is checked only against the reservations of the jobs ahead of it.
  const bool promises = options_.priority == Options::Priority::kFcfs && options_.depth == 1;
  // arrivals=new at an instant where jobs only arrived: only they are backfilled.
  const bool only_new = options_.backfill_new_only_at_arrival && !other_event_;
  if (only_new) std::sort(arrived_.begin(), arrived_.end());
  const auto may_backfill = [&](const WaitingJob& w) {
    return !only_new || std::binary_search(arrived_.begin(), arrived_.end(), w.id);
  };
  int reserved = 0;
  const auto try_start = [&](const WaitingJob& w) {
    const int64_t d = std::max<int64_t>(w.remaining(), 1);
    if (!profile_.fits(now, w.procs, d)) return false;
    profile_.reserve(now, now + d, w.procs);
    decision.start.push_back(w.id);
    return true;
  };
  const auto reserve = [&](const WaitingJob& w) {
    const int64_t d = std::max<int64_t>(w.remaining(), 1);
    int64_t t = -1;
    if (options_.fixed_reservations) {
      auto it = fixed_.find(w.id);
      if (it != fixed_.end() && it->second > now && profile_.fits(it->second, w.procs, d)) t = it->second;
    }
    if (t < 0) t = profile_.earliest_fit(now, w.procs, d);
    if (options_.fixed_reservations) fixed_[w.id] = t;
    profile_.reserve(t, t + d, w.procs);
    if (promises) decision.reservations.push_back({w.id, t});
    ++reserved;
  };

  // The jobs in priority order until `depth` of them are reserved: each starts if it fits now, else is reserved.
  // Then the backfill candidates, the jobs after those in priority order, against what is left free now
  // (sim/fit_now.h: the profile is not needed past this point); only the jobs that fit are gathered and sorted,
  // not the whole queue (at high load thousands of jobs wait and few fit), and they can only fit less as jobs
  // start. In arrival order the queue's tree skips the jobs that cannot fit (FitNow's superset).
  candidates_.clear();
  const auto next_fitting = [&](WaitQueue::const_iterator from) {  // a superset of the jobs that fit (FitNow)
    return state.queue.next_backfill(from, fit_now_.free(), fit_now_.second_free(), fit_now_.first_drop());
  };
  const auto fits_now = [&](const WaitingJob& w) {
    return fit_now_.fits(w.procs, std::max<int64_t>(w.remaining(), 1));
  };
  const auto start_now = [&](const WaitingJob& w) {
    fit_now_.take(w.procs, std::max<int64_t>(w.remaining(), 1));
    decision.start.push_back(w.id);
  };
  if (options_.priority == Options::Priority::kFcfs) {
    auto it = state.queue.begin();
    for (; it != state.queue.end() && reserved < options_.depth; ++it)
      if (!try_start(*it)) reserve(*it);
    fit_now_.assign(profile_);
    if (indexed() && !only_new && index_.follow(state.queue) && index_.prefix_rule_holds()) {
      backfill_shortest_first(state, it, decision);
      arrived_.clear();
      other_event_ = false;
      return;
    }
    for (it = next_fitting(it); it != state.queue.end(); it = next_fitting(std::next(it))) {
      if (!may_backfill(*it) || !fits_now(*it)) continue;
      if (options_.backfill == Options::Backfill::kFirstFit) {
        start_now(*it);  // queue order is the backfill order: no list needed
      } else {
        candidates_.push_back(&*it);
      }
    }
  } else {
    // Highest expansion factor (wait + p) / p first, ties in queue order (the queue's entries lie in its order in
    // memory); the factors compared exactly, as products of 128 bits (a division per job per call was most of the
    // time at high load).
    const auto factor = [now](const WaitingJob& w) {
      const int64_t p = std::max<int64_t>(w.remaining(), 1);
      return Factor{now - w.submit + p, p, &w};
    };
    const auto before = [](const Factor& a, const Factor& b) {
      const Int128 l = static_cast<Int128>(a.wait_plus_p) * b.p, r = static_cast<Int128>(b.wait_plus_p) * a.p;
      return l > r || (l == r && a.job < b.job);
    };
    // The jobs to reserve, in that order: each is the first after the last one taken. Usually the first does not
    // fit and is the only one, and a scan of the queue finds it without ranking the others; past a few, a heap.
    Factor last{};
    bool taken = false, exhausted = false;
    const auto after_last = [&](const Factor& f) { return !taken || before(last, f); };
    const auto take = [&](const Factor& f) {
      last = f;
      taken = true;
      if (!try_start(*f.job)) reserve(*f.job);
    };
    for (int scan = 0; reserved < options_.depth && scan < 4 && !exhausted; ++scan) {
      Factor best{};
      bool found = false;
      for (const WaitingJob& w : state.queue) {
        const Factor f = factor(w);
        if (after_last(f) && (!found || before(f, best))) {
          best = f;
          found = true;
        }
      }
      exhausted = !found;
      if (found) take(best);
    }
    if (reserved < options_.depth && !exhausted) {
      ranked_.clear();
      for (const WaitingJob& w : state.queue)
        if (const Factor f = factor(w); after_last(f)) ranked_.push_back(f);
      const auto heap_order = [&before](const Factor& a, const Factor& b) { return before(b, a); };
      std::make_heap(ranked_.begin(), ranked_.end(), heap_order);
      for (auto end = ranked_.end(); end != ranked_.begin() && reserved < options_.depth; --end) {
        std::pop_heap(ranked_.begin(), end, heap_order);
        take(*std::prev(end));
      }
    }
    fit_now_.assign(profile_);
    for (auto it = next_fitting(state.queue.begin()); it != state.queue.end(); it = next_fitting(std::next(it)))
      if (may_backfill(*it) && after_last(factor(*it)) && fits_now(*it)) candidates_.push_back(&*it);
    std::sort(candidates_.begin(), candidates_.end(),
              [&](const WaitingJob* a, const WaitingJob* b) { return before(factor(*a), factor(*b)); });
  }
  switch (options_.backfill) {
    case Options::Backfill::kFirstFit:
      break;
    case Options::Backfill::kBestFit:
      std::stable_sort(candidates_.begin(), candidates_.end(),
                       [](const WaitingJob* a, const WaitingJob* b) { return a->procs > b->procs; });
      break;
    case Options::Backfill::kShortest:
      std::stable_sort(candidates_.begin(), candidates_.end(),
                       [](const WaitingJob* a, const WaitingJob* b) { return a->remaining() < b->remaining(); });
      break;
  }
  for (const WaitingJob* w : candidates_) {
    if (fit_now_.free() == 0) break;
    if (fits_now(*w)) start_now(*w);
  }
  arrived_.clear();
  other_event_ = false;
}

// The walk of the sorted candidates of backfill=shortest without gathering them, as easy-sjbf's (src/sim/easy.cc):
// in the index's order (prediction, queue order) the jobs fall in FitNow's levels by their duration, a prefix per
// level, and a job fits iff its size is at most its level's processors. So the next job to start is the first
// that fits the current level's processors if it falls in that level; else the jobs before that one are too wide
// for this level and so for every later one (they have fewer processors), and the walk goes on from it, at its
// level. The jobs placed before the backfill in queue order (`after` and every job after it are the candidates) are
// passed over. O((levels + starts) log Q) per call.
void MauiScheduler::backfill_shortest_first(const SimState& state, WaitQueue::const_iterator after,
                                            Decision& decision) {
  using Key = ShortestFirstIndex::Key;
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  if (after == state.queue.end()) return;
  const int64_t first_seq = index_.seq_of(after->id);
  Key from{kMin, kMin};
  size_t level = 0;
  while (fit_now_.free() > 0) {
    const auto k = index_.first_fit(from, fit_now_.level_free(level));
    if (k == index_.end()) return;  // the later levels have fewer processors
    const int64_t d = std::max<int64_t>(k->prediction, 1);
    if (d > fit_now_.level_limit(level)) {  // a later level's: the jobs before it are too wide for any level left
      from = Key{k->prediction, kMin};
      level = fit_now_.level_of(d);
      continue;
    }
    from = Key{k->prediction, k->seq + 1};
    if (k->seq < first_seq) continue;
    fit_now_.take(k->procs, d);
    decision.start.push_back(k->id);
    level = fit_now_.level_of(std::max<int64_t>(from.prediction, 1));  // the levels merge as jobs start
  }
}

}  // namespace schedlab::sim
