#include "sim/conservative.h"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

#include <fmt/core.h>

namespace schedlab::sim {

namespace {

// A job is placed for max(prediction, 1) seconds (see the header).
int64_t held(int64_t prediction) { return std::max<int64_t>(prediction, 1); }

}  // namespace

ConservativeScheduler::Slot& ConservativeScheduler::slot(JobId id) {
  if (id < 0) throw std::logic_error(fmt::format("conservative: negative job id {}", id));
  if (id < slot_base_) {  // an older job than any in the window (a state rebuilt from elsewhere)
    const auto more = static_cast<size_t>(slot_base_ - id);
    slots_.insert(slots_.begin(), more, Slot{});
    slot_base_ = id;
    used_ += more;
    dead_front_ = 0;
  }
  const auto i = static_cast<size_t>(id - slot_base_);
  if (i >= slots_.size()) slots_.resize(std::max(i + 1, slots_.size() * 2));
  used_ = std::max(used_, i + 1);
  // A job arriving after later jobs are done (feedback: it follows one that just ended) ends the dead prefix.
  dead_front_ = std::min(dead_front_, i);
  return slots_[i];
}

void ConservativeScheduler::drop_done_slots() {
  // Each slot is passed once as it becomes done; erased in batches of at least half the window, so the
  // erase costs O(1) per job.
  while (dead_front_ < used_ && slots_[dead_front_].status == Status::kNone) ++dead_front_;
  if (dead_front_ < 1024 || dead_front_ * 2 < used_) return;
  slots_.erase(slots_.begin(), slots_.begin() + static_cast<std::ptrdiff_t>(dead_front_));
  slot_base_ += static_cast<JobId>(dead_front_);
  used_ -= dead_front_;
  dead_front_ = 0;
}

std::optional<int64_t> ConservativeScheduler::reservation(JobId job) const {
  if (job < slot_base_ || static_cast<size_t>(job - slot_base_) >= slots_.size()) return std::nullopt;
  const Slot& s = at(job);
  if (s.status != Status::kPlaced) return std::nullopt;
  return s.start;
}

void ConservativeScheduler::on_arrival(const SimState& /*state*/, const WaitingJob& job) {
  Slot& s = slot(job.id);
  if (s.status != Status::kNone) {
    desync_ = true;
    return;
  }
  s = Slot{};
  s.procs = job.procs;
  s.status = Status::kWaiting;
  s.seq = next_seq_++;
  unplaced_.push_back(job.id);
  ++waiting_;
}

void ConservativeScheduler::on_start(const SimState& state, const RunningJob& job) {
  Slot& s = slot(job.id);
  if (s.status != Status::kPlaced || s.start != state.now || s.procs != job.procs) {
    desync_ = true;
    return;
  }
  // The hold [now, now + held(prediction)) stays: it is exactly the running job's expected occupation.
  s.status = Status::kRunning;
  --waiting_;
  ++running_;
}

void ConservativeScheduler::on_termination(const SimState& state, const RunningJob& job) {
  Slot& s = slot(job.id);
  if (s.status != Status::kRunning) {
    desync_ = true;
    return;
  }
  if (initialized_ && !desync_ && s.end > state.now) {
    give_back(state.now, s.end, s.procs);  // ended early: give the rest back
  }
  s.status = Status::kNone;
  --running_;
}

void ConservativeScheduler::on_prediction_change(const SimState& /*state*/, JobId /*job*/,
                                                 int64_t /*old_prediction*/) {
  predictions_changed_ = true;
}

void ConservativeScheduler::unplace(JobId id, int64_t now) {
  Slot& s = at(id);
  const int64_t from = std::max(s.start, now);
  if (s.end > from) {
    give_back(from, s.end, s.procs);
  }
  s.status = Status::kWaiting;
  unplaced_.push_back(id);
  if (!s.forced) forced_ids_.push_back(id);
  s.forced = true;
  s.previous = s.start;
  ++stats_.released;
}

void ConservativeScheduler::reserved(JobId id) {
  due_.emplace_back(at(id).start, id);
  std::push_heap(due_.begin(), due_.end(), std::greater<>{});
}

void ConservativeScheduler::give_back(int64_t start, int64_t end, int64_t procs, int64_t mover) {
  // The most processors free on the region now that it has them back: no point of it has more until a
  // later gain covers it again (and that gain records its own bound). And the fewest free before it
  // came: a job no larger than that had its processors on the whole region already, so for it nothing
  // changed there. (The release's own scan gives both.)
  const AvailabilityProfile::FreeRange before = profile_.release(start, end, procs);
  const Gain g{start, end, before.most + procs, before.least, mover};
  fresh_.add(g.start, g.end, g.most, g.least);
  ++fresh_count_;
  if (mover >= 0) moves_.push_back(g);
}

void ConservativeScheduler::end_pass() {
  // The moves of this pass are news to the jobs visited before each mover (those after it saw them):
  // kept, in queue order, with the bounds of every suffix, for the next pass.
  carried_.swap(moves_);
  moves_.clear();
  carried_suffix_.assign(carried_.size() + 1, Bounds{});
  for (size_t k = carried_.size(); k-- > 0;) {
    carried_suffix_[k] = carried_suffix_[k + 1];
    carried_suffix_[k].add(carried_[k].start, carried_[k].end, carried_[k].most, carried_[k].least);
  }
  fresh_ = Bounds{};
  fresh_count_ = 0;
}

ConservativeScheduler::Bounds ConservativeScheduler::gains_since_last_look(uint64_t seq) {
  while (carried_cursor_ < carried_.size() && static_cast<uint64_t>(carried_[carried_cursor_].mover) <= seq) {
    ++carried_cursor_;
  }
  Bounds b = fresh_;
  if (carried_cursor_ < carried_.size()) b.add(carried_suffix_[carried_cursor_]);
  return b;
}

int64_t ConservativeScheduler::earliest_start(const Slot& s, const Bounds& b, int64_t now) const {
  const int64_t d = s.end - s.start;
  if (!s.certified) return profile_.earliest_fit_before(now, s.procs, d, s.start);
  // The job had no earlier window at its last look, and losses never open one: a new window must
  // contain a point where processors given back since lifted the free count from below the job's size to
  // at least its size. All such points lie within [b.lo, b.hi), had more than b.least free before and
  // have at most b.most now. So the job stays unless that span lies before its reservation and its size
  // is in (b.least, b.most]; then only the runs of enough free processors that overlap the span are
  // looked at.
  if (!b.may_open(s.procs, s.start, now)) return s.start;
  return profile_.earliest_fit_overlapping(now, b.lo, b.hi, s.procs, d, s.start);
}

int64_t ConservativeScheduler::no_window_before(int64_t procs, int64_t duration, int64_t limit, int64_t now) const {
  int64_t from = now;
  // Branch-free (which entries cover a job is unpredictable): a mask of all ones for an entry that covers it.
  for (size_t k = 0; k < kFailures; ++k) {
    const int64_t covers = -static_cast<int64_t>((failures_.procs[k] <= procs) & (failures_.duration[k] <= duration) &
                                                 (failures_.limit[k] <= limit));
    from = std::max(from, (failures_.limit[k] & covers) | (now & ~covers));
  }
  return from;
}

void ConservativeScheduler::failed(int64_t procs, int64_t duration, int64_t limit) {
  failures_.procs[failure_next_] = procs;
  failures_.duration[failure_next_] = duration;
  failures_.limit[failure_next_] = limit;
  failure_next_ = (failure_next_ + 1) % kFailures;
}

void ConservativeScheduler::forget_failures() {
  std::fill(std::begin(failures_.procs), std::end(failures_.procs), kNoFailure);
  failure_next_ = 0;
}

void ConservativeScheduler::forget_failures_after(int64_t gain_start) {
  for (size_t k = 0; k < kFailures; ++k) {
    if (failures_.limit[k] > gain_start) failures_.procs[k] = kNoFailure;
  }
}

void ConservativeScheduler::try_earlier(JobId id, Slot& s, int64_t now) {
  const int64_t d = s.end - s.start;
  const Bounds gains = gains_since_last_look(s.seq);
  // The O(1) test first (earliest_start()), then earlier failures: one of a smaller, shorter job reserved no
  // later means no window before its limit, so a search starts there (every answer is the same: a window of
  // this job starting earlier would be one of that job too), or is not made at all.
  int64_t t = s.start;
  const bool looked = !s.certified || gains.may_open(s.procs, s.start, now);
  if (looked) {
    const int64_t from = options_.remember_failures ? no_window_before(s.procs, d, s.start, now) : now;
    if (from >= s.start) {
      ++stats_.failure_skips;
    } else {
      if (from > now) ++stats_.failure_narrowed;
      t = earliest_start(s, gains, from);
    }
  }
  s.certified = true;  // looked at: it has no earlier window now (after the move below, none either)
  if (t >= s.start) {
    if (looked) failed(s.procs, d, s.start);
    return;
  }
  // The new hold [t, t + d) ends before the old one [start, end) does (t < start); where they overlap
  // nothing changes. So only [max(start, t + d), end) is given back (the gain other jobs may use), and
  // only [t, min(t + d, start)) taken: narrower gains let fewer jobs through the test above.
  const int64_t freed = std::max(s.start, t + d);
  const int64_t old_end = s.end;
  profile_.reserve(t, std::min(t + d, s.start), s.procs);  // (before the gain: [t, start) is not in it)
  give_back(freed, old_end, s.procs, static_cast<int64_t>(s.seq));
  s.start = t;
  s.end = t + d;
  // The profile gained processors on [freed, old_end): a failure says nothing of windows there, but one with a
  // limit no later than `freed` still holds (its windows lie before its limit).
  forget_failures_after(freed);
  reserved(id);
  ++stats_.moved_earlier;
}

void ConservativeScheduler::make_room(const SimState& state, int64_t from, int64_t to, int64_t procs) {
  if (profile_.min_free(from, to) >= procs) return;
  const auto& queue = state.queue;
  for (auto k = queue.rbegin(); k != queue.rend(); ++k) {
    const Slot& s = at(k->id);
    if (s.status != Status::kPlaced || s.start >= to || s.end <= from) continue;
    unplace(k->id, state.now);
    if (profile_.min_free(from, to) >= procs) return;
  }
  throw std::logic_error(fmt::format("conservative: cannot hold {} processors on [{},{}) at t={} even without "
                                     "reservations (running jobs over-commit the profile)",
                                     procs, from, to, state.now));
}

void ConservativeScheduler::rebuild(const SimState& state) {
  ++stats_.rebuilds;
  const int64_t now = state.now;
  for (Slot& s : slots_) s = Slot{};
  dead_front_ = 0;
  forced_ids_.clear();
  due_.clear();
  unplaced_.clear();
  profile_ = AvailabilityProfile(state.machine.total(), now);
  std::vector<std::pair<int64_t, int64_t>> busy;
  busy.reserve(state.running.size());
  for (const RunningJob& r : state.running) {
    Slot& s = slot(r.id);
    s.start = r.start;
    s.end = std::max(r.predicted_end(), now + 1);
    s.procs = r.procs;
    s.status = Status::kRunning;
    busy.emplace_back(s.end, r.procs);
  }
  profile_.assign(now, std::move(busy));
  for (const WaitingJob& w : state.queue) {
    Slot& s = slot(w.id);
    s.procs = w.procs;
    s.status = Status::kWaiting;
    s.forced = true;  // a rebuild may move anything
    s.seq = next_seq_++;
    unplaced_.push_back(w.id);
    forced_ids_.push_back(w.id);
  }
  waiting_ = state.queue.size();
  running_ = state.running.size();
  initialized_ = true;
  desync_ = false;
  fresh_ = Bounds{};
  fresh_count_ = 0;
  moves_.clear();
  carried_.clear();
  carried_suffix_.assign(1, Bounds{});
  predictions_changed_ = false;
}

// The profile moved on to now: reservations that passed without the job starting are released, and
// overdue running jobs hold their processors until now + 1.
void ConservativeScheduler::catch_up(const SimState& state) {
  const int64_t now = state.now;
  profile_.advance(now);
  // Reservations whose time passed without the job starting (only after an overrun): release them.
  // (In any order: each only gives processors back.)
  auto later = std::greater<>{};
  while (!due_.empty() && due_.front().first < now) {
    const auto [t, id] = due_.front();
    std::pop_heap(due_.begin(), due_.end(), later);
    due_.pop_back();
    const Slot& s = at(id);
    if (s.status == Status::kPlaced && s.start == t) unplace(id, now);
  }
  // Overdue running jobs hold their processors until now + 1 (they are busy now).
  for (const RunningJob& r : state.running) {
    if (r.predicted_end() > now) break;  // running is ordered by predicted end: the rest is not overdue
    Slot& s = at(r.id);
    if (s.end > now) continue;
    make_room(state, now, now + 1, r.procs);
    profile_.reserve(now, now + 1, r.procs);
    s.end = now + 1;
  }
}

// Holds follow the running and waiting jobs' new predictions: shorter ones give processors back (a gain),
// longer ones take room, and a waiting job whose own need grew past its window is placed again.
void ConservativeScheduler::follow_prediction_changes(const SimState& state) {
  const int64_t now = state.now;
  for (const RunningJob& r : state.running) {
    Slot& s = at(r.id);
    const int64_t want = std::max(r.predicted_end(), now + 1);
    // A hold that ended before now is gone from the profile (it moved on to now): a job that was overdue without a
    // call since (a deadline miss that changes no prediction calls no one) and whose prediction has now grown.
    const int64_t have = std::max(s.end, now);
    if (want < have) {
      give_back(want, have, s.procs);
    } else if (want > have) {
      make_room(state, have, want, s.procs);
      profile_.reserve(have, want, s.procs);
    }
    s.end = want;
  }
  for (const WaitingJob& w : state.queue) {
    Slot& s = at(w.id);
    if (s.status != Status::kPlaced) continue;
    const int64_t want = s.start + held(w.prediction);
    if (want != s.end) s.certified = false;  // its windows changed length
    if (want < s.end) {
      give_back(want, s.end, s.procs);
      s.end = want;
    } else if (want > s.end) {
      if (profile_.min_free(s.end, want) >= s.procs) {
        profile_.reserve(s.end, want, s.procs);
        s.end = want;
      } else {
        unplace(w.id, now);  // its own need grew: it alone moves
      }
    }
  }
}

void ConservativeScheduler::place(const WaitingJob& w, Slot& s, int64_t now) {
  const int64_t d = held(w.prediction);
  const int64_t t = profile_.reserve_earliest(now, w.procs, d);
  s.certified = true;
  if (s.forced && t > s.previous) ++stats_.forced_later;
  s.start = t;
  s.end = t + d;
  s.status = Status::kPlaced;
  reserved(w.id);
  ++stats_.placed;
}

void ConservativeScheduler::compress_and_place(const WaitQueue& queue, int64_t now) {
  // Compression (Mu'alem & Feitelson): when processors were given back, one pass over the queue in order
  // moves each job to its earliest start if that is earlier, and places the jobs without a reservation.
  // A job looks at the profile only through earliest_start(): it sat at its earliest fit when it last
  // looked (placed, moved, or found unable to move), so only gains since then can open a window for it —
  // this call's, and the moves of the last pass by jobs behind it in the queue (it was visited before
  // they moved: those windows wait for the next pass, as in one pass of the textbook algorithm).
  if (fresh_count_ == 0) {
    // Nothing was given back: no compression, only the jobs without a reservation are placed, in queue
    // order (arrival numbers), without going through the whole queue.
    std::sort(unplaced_.begin(), unplaced_.end(), [&](JobId a, JobId b) {
      return at(a).seq < at(b).seq;
    });
    for (JobId id : unplaced_) {
      Slot& s = at(id);
      const WaitingJob* w = s.status == Status::kWaiting ? queue.find(id) : nullptr;
      if (w) place(*w, s, now);
    }
  } else {
    // With Options::fixpoint, passes repeat while a job moves: a pass sees the moves of the one before
    // behind each job (carried_), so it is the same test, and the last pass leaves nothing carried.
    do {
      ++stats_.passes;
      carried_cursor_ = 0;
      forget_failures();
      for (const WaitingJob& w : queue) {
        Slot& s = at(w.id);
        if (s.status == Status::kWaiting) {
          place(w, s, now);
        } else if (s.start > now) {
          try_earlier(w.id, s, now);
        }
      }
      end_pass();
    } while (options_.fixpoint && !carried_.empty());
  }
  unplaced_.clear();
}

// Starts the jobs whose reservation is now, in queue order; returns their processors.
int64_t ConservativeScheduler::start_due_jobs(const WaitQueue& queue, int64_t now, Decision& decision) {
  auto later = std::greater<>{};
  starting_.clear();
  while (!due_.empty() && due_.front().first <= now) {  // (none is < now: every reservation is >= now)
    const JobId id = due_.front().second;
    std::pop_heap(due_.begin(), due_.end(), later);
    due_.pop_back();
    Slot& s = at(id);
    if (s.status == Status::kPlaced && s.start == now && s.listed != stats_.calls) {
      s.listed = stats_.calls;
      starting_.emplace_back(s.seq, id);
    }
  }
  std::sort(starting_.begin(), starting_.end());
  int64_t starting = 0;
  for (const auto& [seq, id] : starting_) {
    decision.start.push_back(id);
    starting += at(id).procs;
  }
  // Stale entries (of jobs that moved or started) go when their time passes; if they pile up (many moves
  // far ahead), the heap is rebuilt from the queue: O(Q), at most once per 4Q reservations given.
  if (due_.size() > 4 * queue.size() + 1024) {
    due_.clear();
    for (const WaitingJob& w : queue) due_.emplace_back(at(w.id).start, w.id);
    std::make_heap(due_.begin(), due_.end(), later);
  }
  return starting;
}

void ConservativeScheduler::request_wake_up_and_report(const SimState& state, Decision& decision) {
  const int64_t now = state.now;
  const auto& queue = state.queue;
  auto later = std::greater<>{};
  // Be called at the next reservation even if no termination or arrival comes then: after one pass a
  // reservation can rest on a hold that has since moved away (the heap's stale entries go first). Not
  // while a running job is overdue: then the reservations rest on its ending "now + 1", no promise,
  // and waking every second until it ends would only shuffle them; its termination calls us anyway.
  // (At a fixpoint every reservation is the end of a hold or now, so an event comes.)
  const bool overdue = !state.running.empty() && state.running.front().predicted_end() <= now;
  // (Entries at `now` are of the jobs starting now — the heap may have been rebuilt from the queue above —
  // and go too: a wake-up is for a later time.)
  while (!options_.fixpoint && !overdue && !due_.empty()) {
    const auto [t, id] = due_.front();
    const Slot& s = at(id);
    if (t > now && s.status == Status::kPlaced && s.start == t) {
      decision.wake_at = t;
      break;
    }
    std::pop_heap(due_.begin(), due_.end(), later);
    due_.pop_back();
  }
  const bool report = decision.wants_reservations && !overdue;
  if (report) {
    for (const WaitingJob& w : queue) {
      const Slot& s = at(w.id);
      if (s.start != now) decision.reservations.push_back({w.id, s.start});
    }
  }
}

void ConservativeScheduler::schedule(const SimState& state, Decision& decision) {
  ++stats_.calls;
  const int64_t now = state.now;
  for (JobId id : forced_ids_) at(id).forced = false;
  forced_ids_.clear();
  drop_done_slots();

  if (!initialized_ || desync_ || waiting_ != state.queue.size() || running_ != state.running.size() ||
      profile_.capacity() != state.machine.total() || profile_.origin() > now) {
    rebuild(state);
  } else {
    catch_up(state);
    if (predictions_changed_) {
      predictions_changed_ = false;
      follow_prediction_changes(state);
    }
  }
  compress_and_place(state.queue, now);
  const int64_t starting = start_due_jobs(state.queue, now, decision);
  request_wake_up_and_report(state, decision);

  // Never over-commit: what the profile leaves free now plus what starts now is what the machine has free.
  if (profile_.free_at(now) + starting != state.machine.free()) {
    throw std::logic_error(fmt::format("conservative: profile out of step with the machine at t={}: {} free in the "
                                       "profile + {} starting != {} free on the machine",
                                       now, profile_.free_at(now), starting, state.machine.free()));
  }
  if (options_.self_check || decision.wants_reservations) self_check(state, decision);
}

void ConservativeScheduler::self_check(const SimState& state, const Decision& decision) {
  const int64_t now = state.now;
  auto fail = [&](const std::string& what) {
    throw std::logic_error(fmt::format("conservative self-check failed at t={}: {}", now, what));
  };
  if (std::string err = profile_.check(); !err.empty()) fail("profile: " + err);

  // The profile must be exactly the sum of the holds.
  std::vector<std::pair<int64_t, int64_t>> deltas;
  deltas.reserve(2 * (state.queue.size() + state.running.size()));
  for (const RunningJob& r : state.running) {
    const Slot& s = at(r.id);
    if (s.status != Status::kRunning || s.end <= now) fail(fmt::format("running job {} has no hold after now", r.id));
    deltas.emplace_back(now, -s.procs);
    deltas.emplace_back(s.end, s.procs);
  }
  const size_t ids = static_cast<size_t>(slot_base_) + slots_.size();
  if (last_start_.size() < ids) last_start_.resize(ids, -1);
  bool first = true;
  uint64_t seq = 0;
  for (const WaitingJob& w : state.queue) {
    const Slot& s = at(w.id);
    // Jobs are started in the order of their arrival numbers: that must be the queue order.
    if (!first && s.seq <= seq) fail(fmt::format("waiting job {} out of arrival order", w.id));
    first = false;
    seq = s.seq;
    if (s.status != Status::kPlaced || s.start < now || s.end <= s.start) {
      fail(fmt::format("waiting job {} has no valid reservation", w.id));
    }
    deltas.emplace_back(s.start, -s.procs);
    deltas.emplace_back(s.end, s.procs);
    // Never later, unless forced by lost capacity during this call.
    int64_t& last = last_start_[static_cast<size_t>(w.id)];
    if (last >= 0 && s.start > last && !s.forced) {
      fail(fmt::format("reservation of job {} moved later, from {} to {}", w.id, last, s.start));
    }
    last = s.start;
  }
  std::sort(deltas.begin(), deltas.end());
  std::vector<AvailabilityProfile::Step> expect{{now, profile_.capacity()}};
  for (const auto& [t, d] : deltas) {
    if (t == expect.back().time) {
      expect.back().free += d;
    } else {
      expect.push_back({t, expect.back().free + d});
    }
  }
  std::vector<AvailabilityProfile::Step> merged;
  for (const auto& step : expect) {
    if (step.free < 0) fail(fmt::format("over-committed at {}: {} free", step.time, step.free));
    if (merged.empty() || merged.back().free != step.free) merged.push_back(step);
  }
  if (merged != profile_.steps()) fail("profile differs from the holds: " + profile_.to_string());

  // The wake-up (one pass, no job overdue): the earliest reservation after now, or none.
  const bool overdue = !state.running.empty() && state.running.front().predicted_end() <= now;
  if (!options_.fixpoint && !overdue) {
    int64_t next = -1;
    for (const WaitingJob& w : state.queue) {
      const int64_t t = at(w.id).start;
      if (t > now && (next < 0 || t < next)) next = t;
    }
    if (decision.wake_at != next) {
      fail(fmt::format("asks to be woken at {}, but the earliest reservation after now is {}", decision.wake_at, next));
    }
  }

  // The certificates (earliest_start()): a waiting job with a window before its reservation must be one
  // that the gains since its last look reveal, at the same start, to the next pass. Every job when the
  // queue is short, else 64 of them in turn (a full scan each).
  const size_t queued = state.queue.size();
  const size_t stride = (queued + 63) / 64;
  size_t i = 0;
  for (const WaitingJob& w : state.queue) {
    const Slot& s = at(w.id);
    if (stride > 1 && i++ % stride != static_cast<size_t>(stats_.calls) % stride) continue;
    if (!s.certified) continue;
    Bounds b = fresh_;
    for (const Gain& g : carried_) {
      if (static_cast<uint64_t>(g.mover) > s.seq) b.add(g.start, g.end, g.most, g.least);
    }
    const int64_t full = profile_.earliest_fit_before(now, s.procs, s.end - s.start, s.start);
    const int64_t seen = earliest_start(s, b, now);
    if (full != seen) {
      fail(fmt::format("waiting job {} (reserved at {}) could start at {}, but its certificate says {}", w.id, s.start,
                       full, seen));
    }
  }
}

}  // namespace schedlab::sim
