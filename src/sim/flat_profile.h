// A private header (src/sim): the availability profile as one sorted vector of steps — the representation
// for short profiles (sim/availability_profile.h has the contract and chooses between the two).
//
// Representation: a vector of steps (t_0, f_0), (t_1, f_1), ... with strictly increasing times. Profiles of
// 256 steps or more keep the least and most free of every block of 16 steps, recomputed lazily from the
// first changed step, only as far as scans read.
//
// Costs, with n = number of steps:
//   free_at .............................. O(log n)
//   fits ................................. O(log n + steps covered / kBlock + kBlock), skipping blocks
//   earliest_fit ......................... O(log n + steps scanned), at most O(n)
//   earliest_fit_before .................. O(log n + steps before the limit)
//   earliest_fit_overlapping ............. O(log n + (runs met + 1) × scan), scans skipping blocks of steps
//   min_free, max_free ................... O(log n + steps covered)
//   reserve, release ..................... O(n) worst case (vector insertion of at most two steps;
//                                          values in the interval are updated in place); the block
//                                          bounds after the change go stale and are recomputed by the
//                                          next scans, only as far as they read
//   advance .............................. O(steps dropped + n) (one erase at the front)
// The searches are const but recompute stale block bounds into mutable members.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/profile_step.h"

namespace schedlab::sim {

class FlatProfile {
 public:
  using Time = int64_t;
  static constexpr Time kInfinity = kProfileInfinity;
  using Step = ProfileStep;
  using FreeRange = ProfileFreeRange;

  // The contract of each member is AvailabilityProfile's (sim/availability_profile.h).
  explicit FlatProfile(int64_t capacity, Time origin = 0);
  // A profile holding these steps (valid: increasing times, merged, the last fully free).
  FlatProfile(int64_t capacity, std::vector<Step> steps);
  int64_t capacity() const { return capacity_; }
  Time origin() const { return steps_.front().time; }
  const std::vector<Step>& steps() const { return steps_; }
  size_t step_count() const { return steps_.size(); }
  int64_t free_at(Time t) const;
  int64_t min_free(Time start, Time end) const;
  int64_t max_free(Time start, Time end) const;
  bool fits(Time start, int64_t procs, Time duration) const;
  Time earliest_fit(Time from, int64_t procs, Time duration) const;
  Time reserve_earliest(Time from, int64_t procs, Time duration);
  Time earliest_fit_before(Time from, int64_t procs, Time duration, Time limit) const;
  Time earliest_fit_overlapping(Time from, Time lo, Time hi, int64_t procs, Time duration, Time limit) const;
  void reserve(Time start, Time end, int64_t procs);
  FreeRange release(Time start, Time end, int64_t procs);
  void advance(Time now);
  std::string check() const;

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
