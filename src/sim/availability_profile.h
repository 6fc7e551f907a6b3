// Availability profile: the number of free processors as a step function of time, used by
// reservation-based schedulers (conservative backfilling) to place jobs in the future.
//
// Representation: a vector of steps (t_0, f_0), (t_1, f_1), ... with strictly increasing times; f_k
// processors are free on [t_k, t_{k+1}) and the last step extends to +infinity. Adjacent steps never
// carry the same value (they are merged as soon as they appear), so the number of steps is at most
// 2 × (number of intervals reserved) + 1.
//
// Intervals are half-open [start, end): a job reserved on [10, 20) holds its processors at time 10
// and gives them back at time 20, so another job may be reserved from 20.
//
// Costs, with n = number of steps:
//   free_at, fits ........................ O(log n + steps covered)
//   earliest_fit ......................... O(log n + steps scanned), at most O(n)
//   earliest_fit_before .................. O(log n + steps before the limit)
//   earliest_fit_overlapping ............. O(log n + (runs met + 1) × scan), scans skipping blocks of steps
//   min_free, max_free ................... O(log n + steps covered)
//   reserve, release ..................... O(n) worst case (vector insertion of at most two steps;
//                                          values in the interval are updated in place); the block
//                                          bounds after the change go stale and are recomputed by the
//                                          next scans, only as far as they read
//   advance .............................. O(steps dropped + n) (one erase at the front)
//   assign ............................... O(k log k) for k busy intervals
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
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace schedlab::sim {

class AvailabilityProfile {
 public:
  using Time = int64_t;
  static constexpr Time kInfinity = std::numeric_limits<Time>::max();

  struct Step {
    Time time = 0;     // the step starts here
    int64_t free = 0;  // processors free from `time` until the next step's time
    friend bool operator==(const Step&, const Step&) = default;
  };

  // A machine of `capacity` processors (> 0), all free from `origin` on. Queries before the origin
  // (or before the time given to the last advance()) are errors.
  explicit AvailabilityProfile(int64_t capacity, Time origin = 0);

  // Replaces the whole profile in O(k log k) for k entries: origin `origin`; each entry (until, procs)
  // holds `procs` processors busy on [origin, until). Entries with until <= origin hold nothing. Throws
  // std::logic_error (profile unchanged) if the entries together hold more than the capacity.
  void assign(Time origin, std::vector<std::pair<Time, int64_t>> busy_until);

  int64_t capacity() const { return capacity_; }
  Time origin() const { return steps_.front().time; }
  const std::vector<Step>& steps() const { return steps_; }

  // Free processors at time t (t >= origin()).
  int64_t free_at(Time t) const;

  // Smallest number of free processors over [start, end); capacity() when the interval is empty.
  int64_t min_free(Time start, Time end) const;

  // Largest number of free processors over [start, end); 0 when the interval is empty.
  int64_t max_free(Time start, Time end) const;

  // True if `procs` processors are free during the whole of [start, start + duration).
  bool fits(Time start, int64_t procs, Time duration) const;

  // The earliest t >= from such that `procs` processors are free during [t, t + duration).
  // Requires 0 <= procs <= capacity() (throws std::invalid_argument otherwise: such a job never fits)
  // and duration >= 0. A zero duration needs no processors at any time and fits at `from`.
  // The answer is always from or the time of a step (free processors only ever increase at a step).
  Time earliest_fit(Time from, int64_t procs, Time duration) const;

  // Reserves `procs` processors on [t, t + duration) at t = earliest_fit(from, procs, duration), and returns
  // t: one search instead of the two an earliest_fit and a reserve would make. Same requirements and errors
  // as earliest_fit; O(log n + steps scanned + steps covered + n) (the insertion).
  Time reserve_earliest(Time from, int64_t procs, Time duration);

  // For a job that already holds `procs` processors on [limit, limit + duration) in this profile: the
  // earliest t in [from, limit) where it could start instead, i.e. with `procs` processors free on
  // [t, min(t + duration, limit)) (from `limit` on its own hold covers the rest of the window); `limit`
  // when there is none. Read-only, and the scan stops at `limit`: O(log n + steps in [from, limit)).
  Time earliest_fit_before(Time from, int64_t procs, Time duration, Time limit) const;

  // The start of the first run of steps with `procs` processors free (cut at `from`, before `limit`) that
  // overlaps [lo, hi) and either lasts `duration` or reaches `limit`; `limit` when there is none. For a
  // job holding `procs` processors from `limit` on (so that a run reaching `limit` is a window for it)
  // that had no earlier window before processors were given back on [lo, hi), this is its earliest
  // start: a new window must overlap the span. O(log n + (runs met + 1) × scan), a scan being linear on
  // short profiles and skipping blocks of steps on long ones.
  Time earliest_fit_overlapping(Time from, Time lo, Time hi, int64_t procs, Time duration, Time limit) const;

  // Takes `procs` processors during [start, end). Throws std::logic_error (leaving the profile
  // unchanged) if they are not free during the whole interval. An empty interval is a no-op.
  void reserve(Time start, Time end, int64_t procs);

  // Gives back `procs` processors during [start, end) (the inverse of reserve). Throws
  // std::logic_error (profile unchanged) if that would exceed the capacity somewhere. Returns the fewest and the
  // most processors free on the interval before (what min_free and max_free said; {capacity, 0} when empty), which
  // the same scan finds.
  struct FreeRange {
    int64_t least = 0, most = 0;
  };
  FreeRange release(Time start, Time end, int64_t procs);

  // Forgets the past: afterwards origin() == now and free_at(now) is unchanged. `now` must not be
  // earlier than origin(). Keeps the vector short during a long simulation.
  void advance(Time now);

  // Checks the representation (sorted strictly increasing times, 0 <= free <= capacity, no two adjacent
  // equal values). Returns an empty string when valid, else a description of the first violation.
  std::string check() const;

  // "[t0,f0) [t1,f1) ..." for test failure messages.
  std::string to_string() const;

 private:
  // Index of the step containing t (t >= origin()).
  size_t index_of(Time t) const;
  // earliest_fit, also giving the index of the step containing the answer (for duration > 0).
  Time earliest_fit_at(Time from, int64_t procs, Time duration, size_t& index) const;
  // Adds delta to every step in [start, end), after the caller checked the bounds on the way to
  // i = index_of(start) and j = the first step with time >= end (steps_.size() if none).
  void add(Time start, Time end, int64_t delta, size_t i, size_t j);
  // Merges step i with its predecessor if they have the same value.
  void merge_with_previous(size_t i);
  // Records that steps from `index` on changed (values or positions): their block maxima are stale.
  void touched(size_t index);
  // The first step index >= k with free >= procs (next_at_least) or < procs (next_below) and time
  // < until, or steps_.size() if there is none before `until` (later steps are not looked at). Long
  // profiles skip whole blocks of kBlock steps through the blocks' maxima and minima (recomputed lazily from
  // the first changed step, only as far as scans read): a scan costs O(stretch / kBlock + kBlock).
  size_t next_at_least(size_t k, int64_t procs, Time until) const;
  size_t next_below(size_t k, int64_t procs, Time until) const;
  // The last step index < k with free < procs, or steps_.size() if none.
  size_t prev_below(size_t k, int64_t procs) const;
  // Makes the bounds of blocks [0, b] valid (b < the number of blocks).
  void refresh_blocks(size_t b) const;

  static constexpr size_t kBlock = 16;
  // Shorter profiles are scanned step by step, and a scan that reaches stale block bounds recomputes two
  // blocks at a time (the thresholds were chosen by measurement: docs/performance.md).
  static constexpr size_t kLinearBelow = 256;
  static constexpr size_t kRefreshAhead = 2;  // blocks recomputed at a time when a scan reaches stale ones

  int64_t capacity_;
  std::vector<Step> steps_;
  mutable std::vector<int64_t> block_max_;  // max free of steps [b*kBlock, (b+1)*kBlock)
  mutable std::vector<int64_t> block_min_;  // min free of the same steps
  mutable size_t valid_blocks_ = 0;         // blocks [0, valid_blocks_) have valid bounds
};

}  // namespace schedlab::sim
