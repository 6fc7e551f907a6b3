// A private header (src/sim): what processors given back to an availability profile can do for a job that had no
// window before its reservation — the certificate that lets conservative's and flex's compression passes dismiss
// most jobs in O(1) instead of scanning the profile for each (src/sim/conservative.h states the argument).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace schedlab::sim {

// Bounds on a set of gains (processors given back on [start, end)): all lie within [lo, hi), no point of them has
// had more than `most` processors free since (losses only lower it; a later gain records its own bound), and none
// had fewer than `least` before. Empty: lo > hi.
struct GainBounds {
  int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
  int64_t most = 0, least = std::numeric_limits<int64_t>::max();

  // A gain on [start, end) leaving at most `most_after` free there, where at least `least_before` were free.
  void add(int64_t start, int64_t end, int64_t most_after, int64_t least_before) {
    lo = std::min(lo, start);
    hi = std::max(hi, end);
    most = std::max(most, most_after);
    least = std::min(least, least_before);
  }
  void add(const GainBounds& b) {
    lo = std::min(lo, b.lo);
    hi = std::max(hi, b.hi);
    most = std::max(most, b.most);
    least = std::min(least, b.least);
  }

  // Whether these gains can have opened a window starting before `start` (and at or after `now`) for a job of
  // `procs` processors that had none: a new window must contain a point the gains lifted from below `procs` to
  // at least `procs`. Only then need the runs of free processors overlapping [lo, hi) be looked at
  // (AvailabilityProfile::earliest_fit_overlapping).
  bool may_open(int64_t procs, int64_t start, int64_t now) const {
    return lo < start && hi > now && most >= procs && least < procs;
  }
};

// out[i] = the bounds of gains[i, end), for i = 0 .. gains.size() (out.back() empty): what a job that last looked
// at gain number i has seen since, in O(1) per question.
inline void suffix_bounds(const std::vector<GainBounds>& gains, std::vector<GainBounds>& out) {
  out.assign(gains.size() + 1, GainBounds{});
  for (size_t i = gains.size(); i-- > 0;) {
    out[i] = out[i + 1];
    out[i].add(gains[i]);
  }
}

}  // namespace schedlab::sim
