// A private header (src/sim): what a job starting now sees of an availability profile, for the backfilling walks
// that test many waiting jobs against one profile at one instant (maui's rules other than EASY's).
//
// A job of p processors for d seconds fits now iff p <= the fewest processors free on [now, now + d). That minimum
// falls with d: kept as the staircase of the instants where it drops (levels strictly decreasing, the first at
// now), the test is a binary search. Starting the job takes p from every level before now + d and caps the later
// ones at the level just before now + d (the new minimum of every window reaching past it); levels no longer below
// their predecessor merge away. That is all a profile's reserve() would change for later jobs starting now, so the
// walk needs neither the profile's own O(n)-step search per job nor its O(n) insertion per start.
// Costs for s levels (s <= the profile's steps): assign O(n), fits O(log s), take O(s).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "sim/availability_profile.h"

namespace schedlab::sim {

class FitNow {
 public:
  // From the profile's origin ("now"), in O(n): one copy of its steps.
  void assign(const AvailabilityProfile& profile) {
    levels_.clear();
    for (const ProfileStep& s : profile.steps())
      if (levels_.empty() || s.free < levels_.back().free) levels_.push_back(s);
  }
  int64_t free() const { return levels_.front().free; }
  // Whether `procs` processors are free on [now, now + duration), duration >= 1.
  bool fits(int64_t procs, int64_t duration) const { return procs <= level_before(duration)->free; }
  // Takes `procs` processors on [now, now + duration) (they must fit).
  void take(int64_t procs, int64_t duration) {
    auto end = level_before(duration) + 1;  // the first level at or after now + duration
    if (procs > std::prev(end)->free) throw std::logic_error("FitNow::take: the job does not fit now");
    for (auto l = levels_.begin(); l != end; ++l) l->free -= procs;
    const int64_t cap = std::prev(end)->free;
    levels_.erase(end, std::find_if(end, levels_.end(), [cap](const ProfileStep& l) { return l.free < cap; }));
  }
  // For WaitQueue::next_backfill, a superset of the jobs that fit: every job that fits has procs <= free() and
  // either procs <= second_free() or remaining time <= first_drop() (it ends before the minimum first drops).
  int64_t second_free() const { return levels_.size() > 1 ? levels_[1].free : free(); }
  int64_t first_drop() const {
    return levels_.size() > 1 ? levels_[1].time - levels_[0].time : std::numeric_limits<int64_t>::max();
  }
  // The levels by index: a job of duration d falls in level k when the limits of the levels before it are below d
  // and limit(k) >= d; it fits iff its size <= level_free(k).
  size_t level_of(int64_t duration) const {
    return static_cast<size_t>(level_before(duration) - levels_.begin());
  }
  int64_t level_free(size_t k) const { return levels_[k].free; }
  int64_t level_limit(size_t k) const {  // the longest duration that ends by the next level
    return k + 1 < levels_.size() ? levels_[k + 1].time - levels_[0].time : std::numeric_limits<int64_t>::max();
  }

 private:
  std::vector<ProfileStep>::iterator level_before(int64_t duration) {
    const int64_t end = levels_.front().time + duration;
    return std::prev(std::partition_point(levels_.begin(), levels_.end(),
                                          [end](const ProfileStep& l) { return l.time < end; }));
  }
  std::vector<ProfileStep>::const_iterator level_before(int64_t duration) const {
    return const_cast<FitNow*>(this)->level_before(duration);
  }
  std::vector<ProfileStep> levels_;  // (instant, fewest processors free from now until the next level's instant)
};

}  // namespace schedlab::sim
