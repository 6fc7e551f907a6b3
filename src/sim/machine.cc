#include "schedlab/sim/machine.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/core.h>

namespace schedlab::sim {

int64_t proc_count(const ProcSet& set) {
  int64_t n = 0;
  for (const ProcRange& r : set) n += r.size();
  return n;
}

bool overlaps(const ProcSet& a, const ProcSet& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i].hi <= b[j].lo) {
      ++i;
    } else if (b[j].hi <= a[i].lo) {
      ++j;
    } else {
      return true;
    }
  }
  return false;
}

ProcSet proc_union(const ProcSet& a, const ProcSet& b) {
  ProcSet all(a);
  all.insert(all.end(), b.begin(), b.end());
  std::sort(all.begin(), all.end(), [](const ProcRange& x, const ProcRange& y) { return x.lo < y.lo; });
  ProcSet out;
  for (const ProcRange& r : all) {
    if (r.lo >= r.hi) continue;
    if (!out.empty() && out.back().hi >= r.lo) {
      out.back().hi = std::max(out.back().hi, r.hi);  // overlapping or adjacent: one range
    } else {
      out.push_back(r);
    }
  }
  return out;
}

// Appends [lo, hi) to a sorted set, merging with the last range when adjacent.
static void append(ProcSet& set, int32_t lo, int32_t hi) {
  if (lo >= hi) return;
  if (!set.empty() && set.back().hi == lo) {
    set.back().hi = hi;
  } else {
    set.push_back({lo, hi});
  }
}

static void normalize(ProcSet& set) {
  std::sort(set.begin(), set.end(), [](const ProcRange& a, const ProcRange& b) { return a.lo < b.lo; });
  ProcSet out;
  out.reserve(set.size());
  for (const ProcRange& r : set) append(out, r.lo, r.hi);
  set = std::move(out);
}

Machine::Machine(int64_t procs, bool track_processors) : total_(procs), free_(procs), track_(track_processors) {
  if (procs <= 0) throw std::invalid_argument(fmt::format("machine size must be positive, got {}", procs));
  if (track_) {
    if (procs > std::numeric_limits<int32_t>::max()) {
      throw std::invalid_argument(fmt::format("machine of {} processors is too large to track processors", procs));
    }
    free_ranges_.emplace(0, static_cast<int32_t>(procs));
  }
}

void Machine::take(int32_t lo, int32_t hi) {
  auto it = std::prev(free_ranges_.upper_bound(lo));
  const int32_t flo = it->first, fhi = it->second;
  free_ranges_.erase(it);
  if (flo < lo) free_ranges_.emplace(flo, lo);
  if (hi < fhi) free_ranges_.emplace(hi, fhi);
}

Allocation Machine::allocate(JobId job, int64_t procs, const ProcSet& avoid) {
  if (procs < 0 || procs > free_) {
    throw std::logic_error(fmt::format("processors over-committed: job {} needs {} processors, {} of {} free",
                                       job, procs, free_, total_));
  }
  Allocation a{job, procs, {}};
  free_ -= procs;
  if (!track_ || procs == 0) return a;
  // Pass 1 takes free processors outside `avoid`, pass 2 (only if needed) the avoided ones, lowest first.
  int64_t need = procs;
  for (int pass = 0; pass < 2 && need > 0; ++pass) {
    ProcSet taken;
    for (const auto& [flo, fhi] : free_ranges_) {
      int32_t lo = flo;
      size_t k = 0;
      while (lo < fhi && need > 0) {
        while (pass == 0 && k < avoid.size() && avoid[k].hi <= lo) ++k;  // the next avoided range after lo
        if (pass == 0 && k < avoid.size() && avoid[k].lo <= lo) {          // lo is avoided: skip past it
          lo = std::min(fhi, avoid[k].hi);
          continue;
        }
        const int32_t hi = pass == 0 && k < avoid.size() ? std::min(fhi, avoid[k].lo) : fhi;
        const auto take_hi = static_cast<int32_t>(std::min<int64_t>(hi, lo + need));
        taken.push_back({lo, take_hi});
        need -= take_hi - lo;
        lo = take_hi;
      }
      if (need == 0) break;
    }
    // Taken only now: the loop above must not see the free ranges change under it.
    for (const ProcRange& r : taken) take(r.lo, r.hi);
    a.ranges.insert(a.ranges.end(), taken.begin(), taken.end());
  }
  normalize(a.ranges);
  if (need != 0) throw std::logic_error("internal error: free processor count and ranges disagree");
  return a;
}

bool Machine::all_free(const ProcSet& set) const {
  for (const ProcRange& r : set) {
    auto it = free_ranges_.upper_bound(r.lo);
    if (it == free_ranges_.begin()) return false;
    --it;
    if (it->second < r.hi) return false;
  }
  return true;
}

Allocation Machine::allocate_exactly(JobId job, const ProcSet& set) {
  if (!track_) throw std::logic_error("allocate_exactly needs a machine that tracks processors");
  if (!all_free(set)) {
    throw std::logic_error(fmt::format("processors over-committed: job {} must resume on processors that are busy", job));
  }
  for (const ProcRange& r : set) take(r.lo, r.hi);
  const int64_t n = proc_count(set);
  free_ -= n;
  return Allocation{job, n, set};
}

void Machine::release(const Allocation& allocation) {
  if (allocation.procs < 0 || free_ + allocation.procs > total_) {
    throw std::logic_error(fmt::format("job {} releases {} processors but only {} are in use", allocation.job,
                                       allocation.procs, total_ - free_));
  }
  if (track_) {
    if (proc_count(allocation.ranges) != allocation.procs) {
      throw std::logic_error(fmt::format("job {} releases an allocation without its processors", allocation.job));
    }
    for (const ProcRange& r : allocation.ranges) {
      int32_t lo = r.lo, hi = r.hi;
      auto next = free_ranges_.lower_bound(lo);
      if (next != free_ranges_.end() && next->first < hi) {
        throw std::logic_error(fmt::format("job {} releases processor {} which is already free", allocation.job,
                                           next->first));
      }
      if (next != free_ranges_.begin()) {
        auto prev = std::prev(next);
        if (prev->second > lo) {
          throw std::logic_error(fmt::format("job {} releases processor {} which is already free", allocation.job, lo));
        }
        if (prev->second == lo) {
          lo = prev->first;
          free_ranges_.erase(prev);
        }
      }
      if (next != free_ranges_.end() && next->first == hi) {
        hi = next->second;
        free_ranges_.erase(next);
      }
      free_ranges_.emplace(lo, hi);
    }
  }
  free_ += allocation.procs;
}

}  // namespace schedlab::sim
