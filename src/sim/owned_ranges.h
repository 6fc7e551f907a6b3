// A private header (src/sim): the processors of the running jobs as one list of ranges sorted by their first
// processor, each with a value of its holder's (its id, its expected end), and the look-up the preemptive schedulers
// need: which holders a suspended job's processors belong to. Running jobs hold disjoint processors, so the ranges
// are disjoint and, sorted by their first processor, sorted by their last too: a look-up is a galloping search per
// range of the set asked about (a suspended job's ranges are sorted as well, and usually near each other).
// Built once per scheduler call that needs it: O(P log P) for P ranges, then O(ranges asked × log P) per look-up.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "schedlab/sim/machine.h"

namespace schedlab::sim {

template <class V>
class OwnedRanges {
 public:
  void clear() { ranges_.clear(); }
  // The processors of one holder (disjoint from every other holder's).
  void add(const ProcSet& set, V value) {
    for (const ProcRange& r : set) ranges_.push_back({r.lo, r.hi, value});
  }
  // Call once every holder is added, before the look-ups.
  void sort() {
    std::sort(ranges_.begin(), ranges_.end(), [](const Range& a, const Range& b) { return a.lo < b.lo; });
  }

  // Calls f(value) for each range that shares a processor with `set` (sorted, disjoint), once, in order of
  // processors, until f returns true; returns whether one did. A holder with several such ranges is met once each.
  template <class F>
  bool any_overlapping(const ProcSet& set, F&& f) const {
    const auto end = ranges_.end();
    auto it = ranges_.begin();
    for (const ProcRange& p : set) {
      // The first range ending after p.lo, at or after the first one the previous range of `set` left unread:
      // galloping from there, then a binary search in the last stride. (A range that reaches past one range of
      // `set` into the next was reported for the first already.)
      std::ptrdiff_t step = 1;
      auto lo = it;
      while (end - lo > step && (lo + step)->hi <= p.lo) {
        lo += step;
        step *= 2;
      }
      const auto hi = end - lo > step ? lo + step + 1 : end;
      it = std::partition_point(lo, hi, [&](const Range& r) { return r.hi <= p.lo; });
      for (; it != end && it->lo < p.hi; ++it)
        if (f(it->value)) return true;
    }
    return false;
  }

 private:
  struct Range {
    int32_t lo, hi;
    V value;
  };
  std::vector<Range> ranges_;
};

}  // namespace schedlab::sim
