// Availability profile: the number of free processors as a step function of time, used by
// reservation-based schedulers (conservative backfilling) to place jobs in the future.
//
// The function: steps (t_0, f_0), (t_1, f_1), ... with strictly increasing times; f_k processors are free
// on [t_k, t_{k+1}) and the last step extends to +infinity. Adjacent steps never carry the same value (they
// are merged as soon as they appear), so the number of steps is at most 2 × (number of intervals reserved) + 1.
//
// Intervals are half-open [start, end): a job reserved on [10, 20) holds its processors at time 10
// and gives them back at time 20, so another job may be reserved from 20.
//
// Two representations of the same function, chosen by the number of steps (the answers never depend on it):
// up to a few thousand steps — the profiles of the shared logs — one sorted vector (sim/flat_profile.h:
// contiguous scans and memmove beat any tree there); beyond, blocks of steps with pending additions and
// bounds (sim/blocked_profile.h: with tens of thousands of jobs running at once, every end of a job changes
// the profile from now to its expected end, which the vector pays in full). The profile switches to blocks
// above kToBlocked steps and back below kToFlat: the switch back copies fewer than kToFlat steps, and a switch to
// blocks comes at least (kToBlocked - kToFlat) / 2 changes after it (a change adds at most two steps).
// Costs are in the two headers.
//
// The profile knows nothing of jobs: the caller (a scheduler) is responsible for releasing exactly what
// it reserved. reserve() refuses (throws) to take processors that are not free, and release() refuses to
// free more than the capacity, so a bookkeeping error shows up at once instead of as a silently
// over-committed machine.
//
// Threads: a plain value, cheap to copy (one per simulation). The searches are const but recompute stale
// block bounds into mutable members, so one profile must not be read from two threads at once.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "sim/blocked_profile.h"
#include "sim/flat_profile.h"
#include "sim/profile_step.h"

namespace schedlab::sim {

class AvailabilityProfile {
  // Calls f with the representation in use (defined first: the members below deduce their types from it).
  template <class F>
  decltype(auto) visit(F&& f) const {
    if (const auto* flat = std::get_if<FlatProfile>(&impl_)) return f(*flat);
    return f(*std::get_if<BlockedProfile>(&impl_));
  }
  template <class F>
  decltype(auto) visit(F&& f) {
    if (auto* flat = std::get_if<FlatProfile>(&impl_)) return f(*flat);
    return f(*std::get_if<BlockedProfile>(&impl_));
  }

 public:
  using Time = int64_t;
  static constexpr Time kInfinity = kProfileInfinity;
  using Step = ProfileStep;
  using FreeRange = ProfileFreeRange;

  // A machine of `capacity` processors (> 0), all free from `origin` on. Queries before the origin
  // (or before the time given to the last advance()) are errors.
  // `layout` chooses the representation: kAuto (the default) switches by the number of steps; kFlat and
  // kBlocked keep one (tests and measurements).
  enum class Layout { kAuto, kFlat, kBlocked };
  explicit AvailabilityProfile(int64_t capacity, Time origin = 0, Layout layout = Layout::kAuto);

  // Replaces the whole profile in O(k log k) for k entries: origin `origin`; each entry (until, procs)
  // holds `procs` processors busy on [origin, until). Entries with until <= origin hold nothing. Throws
  // std::logic_error (profile unchanged) if the entries together hold more than the capacity.
  void assign(Time origin, std::vector<std::pair<Time, int64_t>> busy_until);

  int64_t capacity() const { return visit([](const auto& p) { return p.capacity(); }); }
  Time origin() const { return visit([](const auto& p) { return p.origin(); }); }
  // Every step, in order (a copy, O(n): for checks and tests, and sim/fit_now.h's one read per call).
  std::vector<Step> steps() const {
    return visit([](const auto& p) { return std::vector<Step>(p.steps()); });
  }
  size_t step_count() const { return visit([](const auto& p) { return p.step_count(); }); }
  // Whether the blocks are in use (tests and measurements).
  bool blocked() const { return impl_.index() == 1; }

  // Free processors at time t (t >= origin()).
  int64_t free_at(Time t) const {
    return visit([&](const auto& p) { return p.free_at(t); });
  }

  // Smallest number of free processors over [start, end); capacity() when the interval is empty.
  int64_t min_free(Time start, Time end) const {
    return visit([&](const auto& p) { return p.min_free(start, end); });
  }

  // Largest number of free processors over [start, end); 0 when the interval is empty.
  int64_t max_free(Time start, Time end) const {
    return visit([&](const auto& p) { return p.max_free(start, end); });
  }

  // True if `procs` processors are free during the whole of [start, start + duration).
  bool fits(Time start, int64_t procs, Time duration) const {
    return visit([&](const auto& p) { return p.fits(start, procs, duration); });
  }

  // The earliest t >= from such that `procs` processors are free during [t, t + duration).
  // Requires 0 <= procs <= capacity() (throws std::invalid_argument otherwise: such a job never fits)
  // and duration >= 0. A zero duration needs no processors at any time and fits at `from`.
  // The answer is always from or the time of a step (free processors only ever increase at a step).
  Time earliest_fit(Time from, int64_t procs, Time duration) const {
    check_fit(procs, duration);
    return visit([&](const auto& p) { return p.earliest_fit(from, procs, duration); });
  }

  // Reserves `procs` processors on [t, t + duration) at t = earliest_fit(from, procs, duration), and returns
  // t: one search instead of the two an earliest_fit and a reserve would make. Same requirements and errors
  // as earliest_fit.
  Time reserve_earliest(Time from, int64_t procs, Time duration) {
    check_fit(procs, duration);
    const Time t = visit([&](auto& p) { return p.reserve_earliest(from, procs, duration); });
    adapt();
    return t;
  }

  // For a job that already holds `procs` processors on [limit, limit + duration) in this profile: the
  // earliest t in [from, limit) where it could start instead, i.e. with `procs` processors free on
  // [t, min(t + duration, limit)) (from `limit` on its own hold covers the rest of the window); `limit`
  // when there is none. Read-only, and the scan stops at `limit`: O(log n + steps in [from, limit)).
  Time earliest_fit_before(Time from, int64_t procs, Time duration, Time limit) const {
    return visit([&](const auto& p) { return p.earliest_fit_before(from, procs, duration, limit); });
  }

  // The start of the first run of steps with `procs` processors free (cut at `from`, before `limit`) that
  // overlaps [lo, hi) and either lasts `duration` or reaches `limit`; `limit` when there is none. For a
  // job holding `procs` processors from `limit` on (so that a run reaching `limit` is a window for it)
  // that had no earlier window before processors were given back on [lo, hi), this is its earliest
  // start: a new window must overlap the span. O(log n + (runs met + 1) × scan), a scan being linear on
  // short profiles and skipping blocks of steps on long ones.
  Time earliest_fit_overlapping(Time from, Time lo, Time hi, int64_t procs, Time duration, Time limit) const {
    return visit([&](const auto& p) { return p.earliest_fit_overlapping(from, lo, hi, procs, duration, limit); });
  }

  // Takes `procs` processors during [start, end). Throws std::logic_error (leaving the profile
  // unchanged) if they are not free during the whole interval. An empty interval is a no-op.
  void reserve(Time start, Time end, int64_t procs) {
    if (end <= start || procs == 0) return;
    if (procs < 0) throw std::invalid_argument("AvailabilityProfile::reserve: negative processors");
    visit([&](auto& p) { p.reserve(start, end, procs); });
    adapt();
  }

  // Gives back `procs` processors during [start, end) (the inverse of reserve). Throws
  // std::logic_error (profile unchanged) if that would exceed the capacity somewhere. Returns the fewest and the
  // most processors free on the interval before (what min_free and max_free said; {capacity, 0} when empty), which
  // the same scan finds.
  FreeRange release(Time start, Time end, int64_t procs) {
    if (end <= start || procs == 0) return {min_free(start, end), max_free(start, end)};
    if (procs < 0) throw std::invalid_argument("AvailabilityProfile::release: negative processors");
    const FreeRange r = visit([&](auto& p) { return p.release(start, end, procs); });
    adapt();
    return r;
  }

  // Forgets the past: afterwards origin() == now and free_at(now) is unchanged. `now` must not be
  // earlier than origin(). Keeps the profile short during a long simulation.
  void advance(Time now) {
    visit([&](auto& p) { p.advance(now); });
    adapt();
  }

  // Checks the representation (sorted strictly increasing times, 0 <= free <= capacity, no two adjacent
  // equal values; in blocks also their sizes, bounds and first times). Returns an empty string when valid, else a
  // description of the first violation.
  std::string check() const {
    return visit([](const auto& p) { return p.check(); });
  }

  // "[t0,f0) [t1,f1) ..." for test failure messages.
  std::string to_string() const;

 private:
  // Thresholds measured in docs/performance.md ("Fourth pass: conservative's profile in blocks when many jobs run at
  // once").
  static constexpr size_t kToBlocked = 4096;
  static constexpr size_t kToFlat = 1024;

  // Switches the representation when the number of steps crossed a threshold (Layout::kAuto only).
  void adapt() {
    if (layout_ != Layout::kAuto) return;
    const size_t n = step_count();
    if (blocked() ? n < kToFlat : n > kToBlocked) switch_layout();
  }
  void switch_layout();
  // Throws std::invalid_argument for a job that never fits (earliest_fit's requirements).
  void check_fit(int64_t procs, Time duration) const;

  Layout layout_;
  std::variant<FlatProfile, BlockedProfile> impl_;
};

}  // namespace schedlab::sim
