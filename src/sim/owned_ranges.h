// A private header (src/sim): the processors of the running jobs as one list of ranges sorted by their first
// processor, each with a value of its holder's (its id, its expected end), and the look-up the preemptive schedulers
// need: which holders a suspended job's processors belong to. Running jobs hold disjoint processors, so the ranges
// are disjoint and, sorted by their first processor, sorted by their last too: a look-up is a galloping search per
// range of the set asked about (a suspended job's ranges are sorted as well, and usually near each other), or one
// merge for many sets' ranges sorted together (largest_overlapping). Built once per scheduler call that needs it:
// O(P) for P ranges (radix from 256 ranges), then O(ranges asked × log P) per look-up.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
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
  // Call once every holder is added, before the look-ups. Built at every call of a preemptive scheduler (800 ranges
  // on average on CEA-Curie), so many ranges are sorted by a radix sort of their first processor, in as few passes
  // of at most 11 bits as the largest needs (two of 9 bits on 93,312 processors): twice as fast as std::sort from
  // 300 ranges on, slower below 200. Ranges are disjoint, so their first processors differ and any sort gives the
  // same order.
  void sort() {
    const auto by_lo = [](const Range& a, const Range& b) { return a.lo < b.lo; };
    uint32_t top = 0;
    bool negative = false;
    for (const Range& r : ranges_) {
      negative |= r.lo < 0;
      top = std::max(top, static_cast<uint32_t>(r.lo));
    }
    if (ranges_.size() < kRadixFrom || negative) {  // (a processor is never negative: only a caller's error)
      std::sort(ranges_.begin(), ranges_.end(), by_lo);
      return;
    }
    const int bits = std::bit_width(top);
    const int passes = (bits + kMaxDigitBits - 1) / kMaxDigitBits;
    const int width = passes == 0 ? 0 : (bits + passes - 1) / passes;
    const uint32_t mask = (uint32_t{1} << width) - 1;
    scratch_.resize(ranges_.size());
    std::array<uint32_t, (size_t{1} << kMaxDigitBits) + 1> start;
    for (int pass = 0; pass < passes; ++pass) {
      const int shift = pass * width;
      const auto digit = [&](const Range& r) { return (static_cast<uint32_t>(r.lo) >> shift) & mask; };
      std::fill(start.begin(), start.begin() + mask + 2, 0u);
      for (const Range& r : ranges_) ++start[digit(r) + 1];
      for (size_t b = 1; b <= mask + 1; ++b) start[b] += start[b - 1];
      for (const Range& r : ranges_) scratch_[start[digit(r)]++] = r;
      ranges_.swap(scratch_);
    }
  }

  // For ranges sorted by their first processor (`lo`, `hi` members; they may overlap each other): calls
  // f(asked, largest value) for each asked range that shares a processor with an owned one, the largest value of
  // those owned ranges, in the order of the asked ranges. One merge of the two lists, O(asked + owned + pairs
  // met): easy-preemptive asks for all of the suspended jobs' ranges at once (about 2,900 per call on CEA-Curie,
  // 87% of them meeting a running range), where a galloping search per range cost more. (Block maxima with a
  // binary search per asked range were slower still: docs/performance.md.)
  template <class Asked, class F>
  void largest_overlapping(const std::vector<Asked>& asked, F&& f) const {
    if (ranges_.empty()) return;
    const size_t n = ranges_.size();
    size_t first = 0;  // the first owned range ending after the asked one's start (which only grows)
    for (const Asked& a : asked) {
      while (first < n && ranges_[first].hi <= a.lo) ++first;
      if (first == n || ranges_[first].lo >= a.hi) continue;
      V largest = ranges_[first].value;
      for (size_t k = first + 1; k < n && ranges_[k].lo < a.hi; ++k) largest = std::max(largest, ranges_[k].value);
      f(a, largest);
    }
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
  static constexpr size_t kRadixFrom = 256;   // fewer ranges: std::sort
  static constexpr int kMaxDigitBits = 11;
  std::vector<Range> ranges_;
  std::vector<Range> scratch_;  // the radix sort's other buffer
};

}  // namespace schedlab::sim
