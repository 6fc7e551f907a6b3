// A private header (src/sim): a lower bound on a job's earliest fit from the fits found before it, while
// reservations are added to one profile and never removed (a schedule built job by job, as easy-preemptive
// rebuilds its own at every call).
//
// Why it holds: reservations only lower the free processors. If a job of p processors for d seconds found its
// earliest fit at t, a later job of p' >= p processors for d' >= d seconds cannot fit before t: a window for it
// would have been one for the earlier job too. Its search can start at t instead of now, skipping every run of
// free processors before t — and it finds the same answer, its earliest fit being at or after t.
//
// Kept exact in both values this would be a two-dimensional dominance query. Sizes are grouped instead in
// classes, two per octave (1, 2, 3, 4, 6, 8, 12, ...): a fit is recorded in the class at or above its size and
// read from the classes at or below the query's, so the bound never exceeds the exact one (it stays valid), and
// is exact for sizes that are class bounds (powers of two are). Durations stay exact: run times left are spread
// over every value, and classes of them lost most of the bound (on the first 40,000 jobs of CTC-SP2, the exact
// bound is above now for 76% of the searches, with sizes in classes 73%, with durations in classes 9%). Each
// class keeps its fits as a staircase: durations increasing, fits increasing (a fit no later than one of a
// shorter job is dropped). Cost: a query is a binary search in each class up to the job's whose latest fit could
// raise the bound, going down from the job's class and stopping where no class below could (O(1) for the others);
// a record, a binary search, an insertion and an update of the classes above it whose bound it raises. One
// FitFloor per profile: a new profile, a new FitFloor.
#pragma once

#include <algorithm>
#include <iterator>
#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

namespace schedlab::sim {

class FitFloor {
 public:
  static constexpr int64_t kNone = std::numeric_limits<int64_t>::min();  // no fit recorded

  // The largest class whose bound is at most v (v >= 1); bounds 1, 2, 3, 4, 6, 8, 12, ...
  static int floor_class(int64_t v) {
    const int k = static_cast<int>(std::bit_width(static_cast<uint64_t>(v))) - 1;
    if (k == 0) return 0;
    return v >= (int64_t{3} << (k - 1)) ? 2 * k : 2 * k - 1;
  }
  // The bound of class c.
  static int64_t class_bound(int c) {
    if (c == 0) return 1;
    const int k = (c + 1) / 2;
    return c % 2 == 1 ? int64_t{1} << k : int64_t{3} << (k - 1);
  }
  // The smallest class whose bound is at least v (v >= 1).
  static int ceil_class(int64_t v) {
    const int c = floor_class(v);
    return class_bound(c) == v ? c : c + 1;
  }

  // For jobs of 1 .. max_procs processors.
  explicit FitFloor(int64_t max_procs)
      : rows_(static_cast<size_t>(floor_class(std::max<int64_t>(max_procs, 1))) + 1),
        latest_upto_(rows_.size(), kNone) {}

  // The latest fit recorded for a job no larger and no longer than `procs` x `duration`; kNone if none.
  int64_t floor(int64_t procs, int64_t duration) const {
    if (procs < 1 || duration < 1) return kNone;  // (no such job is simulated; nothing to bound)
    const size_t last_row = std::min(static_cast<size_t>(floor_class(procs)), rows_.size() - 1);
    int64_t t = kNone;
    // From the largest class down (larger jobs tend to fit later), and a row searched only when its latest fit
    // could raise t and its shortest job is no longer than `duration`: most rows are then passed in O(1).
    for (size_t a = last_row + 1; a-- > 0;) {
      if (latest_upto_[a] <= t) break;  // no class from here down has a later fit
      const Row& row = rows_[a];
      if (row.empty() || row.back().time <= t || row.front().duration > duration) continue;
      // The last step of the staircase no longer than `duration` has the latest fit among them.
      const auto it = std::upper_bound(row.begin(), row.end(), duration,
                                       [](int64_t d, const Fit& f) { return d < f.duration; });
      t = std::max(t, std::prev(it)->time);
    }
    return t;
  }

  // A job of `procs` x `duration` found its earliest fit at t (sizes above max_procs, or below 1, are not kept).
  void record(int64_t procs, int64_t duration, int64_t t) {
    if (procs < 1 || duration < 1) return;
    const auto a = static_cast<size_t>(ceil_class(procs));
    if (a >= rows_.size()) return;
    Row& row = rows_[a];
    auto it = std::lower_bound(row.begin(), row.end(), duration,
                               [](const Fit& f, int64_t d) { return f.duration < d; });
    if (it != row.begin() && std::prev(it)->time >= t) return;  // a shorter job already fits as late
    if (it != row.end() && it->duration == duration && it->time >= t) return;
    // Longer jobs' fits no later than t are now implied by this one.
    auto last = it;
    while (last != row.end() && last->time <= t) ++last;
    it = row.erase(it, last);
    row.insert(it, Fit{duration, t});
    // The row's latest fit is now at least t (the fits it dropped were no later).
    for (size_t b = a; b < latest_upto_.size() && latest_upto_[b] < t; ++b) latest_upto_[b] = t;
  }

 private:
  struct Fit {
    int64_t duration, time;
  };
  using Row = std::vector<Fit>;  // durations increasing, times increasing
  std::vector<Row> rows_;        // by size class
  // The latest fit in any class up to each (non-decreasing): a query going down the classes stops where nothing
  // below can raise its bound. On CEA-Curie (34 classes), walking every class was a tenth of easy-preemptive.
  std::vector<int64_t> latest_upto_;
};

}  // namespace schedlab::sim
