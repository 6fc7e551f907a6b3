#include "sim/flat_profile.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace schedlab::sim {

FlatProfile::FlatProfile(int64_t capacity, Time origin) : capacity_(capacity) {
  if (capacity <= 0) throw std::invalid_argument("AvailabilityProfile: capacity must be > 0");
  steps_.push_back(Step{origin, capacity});
}

FlatProfile::FlatProfile(int64_t capacity, std::vector<Step> steps) : capacity_(capacity), steps_(std::move(steps)) {
  touched(0);
}

size_t FlatProfile::index_of(Time t) const {
  if (t < steps_.front().time) {
    throw std::out_of_range("AvailabilityProfile: time " + std::to_string(t) + " before origin " +
                            std::to_string(steps_.front().time));
  }
  // Most look-ups of a scheduler start at the origin (now): no search.
  if (steps_.size() < 2 || t < steps_[1].time) return 0;
  // The last step with time <= t, branch-free (conditional moves: the searches of a scheduler land at
  // unpredictable places).
  const Step* base = steps_.data();
  size_t len = steps_.size();
  while (len > 1) {
    const size_t half = len / 2;
    base = base[half].time <= t ? base + half : base;
    len -= half;
  }
  return static_cast<size_t>(base - steps_.data());
}

int64_t FlatProfile::free_at(Time t) const { return steps_[index_of(t)].free; }

int64_t FlatProfile::min_free(Time start, Time end) const {
  if (end <= start) return capacity_;
  int64_t lowest = capacity_;
  for (size_t i = index_of(start); i < steps_.size() && steps_[i].time < end; ++i) {
    lowest = std::min(lowest, steps_[i].free);
  }
  return lowest;
}

int64_t FlatProfile::max_free(Time start, Time end) const {
  if (end <= start) return 0;
  int64_t highest = 0;
  for (size_t i = index_of(start); i < steps_.size() && steps_[i].time < end; ++i) {
    highest = std::max(highest, steps_[i].free);
  }
  return highest;
}

bool FlatProfile::fits(Time start, int64_t procs, Time duration) const {
  if (duration <= 0) return true;
  // The step holding `start`, then a scan that skips blocks to the first step in the window with too few.
  const size_t i = index_of(start);
  if (steps_[i].free < procs) return false;
  return next_below(i + 1, procs, duration > kInfinity - start ? kInfinity : start + duration) >= steps_.size();
}

FlatProfile::Time FlatProfile::earliest_fit(Time from, int64_t procs, Time duration) const {
  size_t index = 0;
  return earliest_fit_at(from, procs, duration, index);
}

FlatProfile::Time FlatProfile::earliest_fit_at(Time from, int64_t procs, Time duration, size_t& index) const {
  if (duration == 0) return from;  // (the arguments were checked by AvailabilityProfile)
  const size_t n = steps_.size();
  size_t k = index_of(from);
  Time candidate = from;
  index = k;
  while (true) {
    if (steps_[k].free < procs) {
      k = next_at_least(k + 1, procs, kInfinity);
      // Every reservation is finite, so the last step is fully free; n means a corrupted profile.
      if (k >= n) throw std::logic_error("AvailabilityProfile: last step is not free enough");
      candidate = steps_[k].time;
      index = k;
    }
    // steps_[k] has enough: the window lasts until the next step that has not.
    // (Only a step before the window's end matters.)
    k = next_below(k + 1, procs, duration > kInfinity - candidate ? kInfinity : candidate + duration);
    if (k >= n) return candidate;
  }
}

FlatProfile::Time FlatProfile::reserve_earliest(Time from, int64_t procs, Time duration) {
  size_t i = 0;
  const Time t = earliest_fit_at(from, procs, duration, i);
  if (duration == 0 || procs == 0) return t;
  const Time end = duration > kInfinity - t ? kInfinity : t + duration;
  // The window was just checked: only its last step is left to find (a binary search: long holds cover many steps).
  const auto past = std::partition_point(steps_.begin() + static_cast<std::ptrdiff_t>(i), steps_.end(),
                                         [end](const Step& s) { return s.time < end; });
  const auto j = static_cast<size_t>(past - steps_.begin());
  add(t, end, -procs, i, j);
  return t;
}

FlatProfile::Time FlatProfile::earliest_fit_before(Time from, int64_t procs, Time duration, Time limit) const {
  if (from >= limit) return limit;
  if (duration <= 0) return from;
  const size_t n = steps_.size();
  size_t k = index_of(from);
  Time candidate = from;
  while (true) {
    if (steps_[k].free < procs) {
      k = next_at_least(k + 1, procs, limit);  // (n: none before the limit)
      if (k >= n) return limit;
      candidate = steps_[k].time;
    }
    // Fits for the whole window, or up to the limit where the job's own hold takes over.
    k = next_below(k + 1, procs, std::min(limit, duration > kInfinity - candidate ? kInfinity : candidate + duration));
    if (k >= n) return candidate;
  }
}

FlatProfile::Time FlatProfile::earliest_fit_overlapping(Time from, Time lo, Time hi, int64_t procs,
                                                        Time duration, Time limit) const {
  lo = std::max(lo, from);
  hi = std::min(hi, limit);
  if (lo >= hi || duration <= 0) return limit;
  const size_t n = steps_.size();
  size_t k = index_of(lo);
  while (true) {
    // The first step from k on, before hi, with enough free processors: a run of them starts there or
    // earlier.
    Time run = 0;
    if (steps_[k].free < procs) {
      k = next_at_least(k + 1, procs, hi);
      if (k >= n) return limit;
      run = std::max(steps_[k].time, from);  // (the step before k is below procs)
    } else {
      // The run's first step: the one after the last step below procs before k (the origin if none).
      const size_t below = prev_below(k, procs);
      run = std::max(below == n ? steps_.front().time : steps_[below + 1].time, from);
    }
    // Its end: a step below procs before the window [run, run + duration) ends and before the limit
    // (from the limit on the job's own hold covers it); none means the window fits.
    const Time window_end = duration > kInfinity - run ? kInfinity : run + duration;
    k = next_below(k + 1, procs, std::min(window_end, limit));
    if (k >= n) return run;
    if (steps_[k].time >= hi) return limit;  // the next run starts after the span
  }
}

void FlatProfile::touched(size_t index) { valid_blocks_ = std::min(valid_blocks_, index / kBlock); }

void FlatProfile::refresh_blocks(size_t b) const {
  // Blocks before the first changed step are intact; a scan usually stops long before the end (at the job's
  // reservation), so only a stretch from the first stale block is recomputed, as far as it reads.
  const size_t n = steps_.size();
  const size_t blocks = (n + kBlock - 1) / kBlock;
  if (block_max_.size() < blocks) {
    block_max_.resize(blocks);
    block_min_.resize(blocks);
  }
  const size_t end = std::min(blocks, b + kRefreshAhead);
  for (size_t c = valid_blocks_; c < end; ++c) {
    int64_t hi = 0;
    int64_t lo = capacity_;
    for (size_t i = c * kBlock, last = std::min(n, i + kBlock); i < last; ++i) {
      hi = std::max(hi, steps_[i].free);
      lo = std::min(lo, steps_[i].free);
    }
    block_max_[c] = hi;
    block_min_[c] = lo;
  }
  valid_blocks_ = std::max(valid_blocks_, end);
}

size_t FlatProfile::next_at_least(size_t k, int64_t procs, Time until) const {
  const size_t n = steps_.size();
  if (n < kLinearBelow) {
    for (; k < n && steps_[k].free < procs; ++k) {
      if (steps_[k].time >= until) return n;
    }
    return k < n && steps_[k].time >= until ? n : k;
  }
  // The rest of k's block, then whole blocks, then inside the block found.
  for (; k < n && k % kBlock != 0; ++k) {
    if (steps_[k].time >= until) return n;
    if (steps_[k].free >= procs) return k;
  }
  if (k >= n) return n;
  size_t b = k / kBlock;  // k is the first step of block b
  for (const size_t blocks = (n + kBlock - 1) / kBlock; b < blocks; ++b) {
    if (b >= valid_blocks_) refresh_blocks(b);
    if (block_max_[b] >= procs) break;
    if (steps_[b * kBlock].time >= until) return n;
  }
  for (k = b * kBlock; k < n; ++k) {
    if (steps_[k].time >= until) return n;
    if (steps_[k].free >= procs) return k;
  }
  return n;
}

size_t FlatProfile::next_below(size_t k, int64_t procs, Time until) const {
  const size_t n = steps_.size();
  if (n < kLinearBelow) {
    for (; k < n && steps_[k].free >= procs; ++k) {
      if (steps_[k].time >= until) return n;
    }
    return k < n && steps_[k].time >= until ? n : k;
  }
  for (; k < n && k % kBlock != 0; ++k) {
    if (steps_[k].time >= until) return n;
    if (steps_[k].free < procs) return k;
  }
  if (k >= n) return n;
  size_t b = k / kBlock;  // k is the first step of block b
  for (const size_t blocks = (n + kBlock - 1) / kBlock; b < blocks; ++b) {
    if (b >= valid_blocks_) refresh_blocks(b);
    if (block_min_[b] < procs) break;
    if (steps_[b * kBlock].time >= until) return n;
  }
  for (k = b * kBlock; k < n; ++k) {
    if (steps_[k].time >= until) return n;
    if (steps_[k].free < procs) return k;
  }
  return n;
}

size_t FlatProfile::prev_below(size_t k, int64_t procs) const {
  const size_t n = steps_.size();
  if (n < kLinearBelow) {
    while (k-- > 0) {
      if (steps_[k].free < procs) return k;
    }
    return n;
  }
  // Down to the start of k's block, then whole blocks, then inside the block found.
  while (k > 0 && k % kBlock != 0) {
    if (steps_[--k].free < procs) return k;
  }
  size_t b = k / kBlock;  // steps before k fill blocks [0, b)
  if (b > 0) refresh_blocks(b - 1);
  while (b > 0 && block_min_[b - 1] >= procs) --b;
  if (b == 0) return n;
  for (k = b * kBlock; k-- > (b - 1) * kBlock;) {
    if (steps_[k].free < procs) return k;
  }
  return n;  // (not reached: block b - 1 has a step below procs)
}

void FlatProfile::merge_with_previous(size_t i) {
  if (i == 0 || i >= steps_.size()) return;
  if (steps_[i].free == steps_[i - 1].free) {
    steps_.erase(steps_.begin() + static_cast<std::ptrdiff_t>(i));
    touched(i);
  }
}

void FlatProfile::add(Time start, Time end, int64_t delta, size_t i, size_t j) {
  // Make steps start exactly at `start` and `end` (splitting the steps containing them), from the
  // indices the caller's bounds check already found: no second search.
  size_t a = i;
  if (steps_[i].time != start) {
    steps_.insert(steps_.begin() + static_cast<std::ptrdiff_t>(i + 1), Step{start, steps_[i].free});
    a = i + 1;
    ++j;
  }
  const size_t b = j;
  if (end != kInfinity && (j == steps_.size() || steps_[j].time != end)) {
    steps_.insert(steps_.begin() + static_cast<std::ptrdiff_t>(j), Step{end, steps_[j - 1].free});
  }
  for (size_t k = a; k < b; ++k) steps_[k].free += delta;
  touched(a);
  // Only the two boundaries can have created equal neighbours: values inside [a, b) all moved by delta.
  merge_with_previous(b);  // first, so that index a stays valid
  merge_with_previous(a);
}

void FlatProfile::reserve(Time start, Time end, int64_t procs) {  // (end > start, procs > 0)
  const size_t i = index_of(start);
  size_t j = i;
  int64_t lowest = capacity_;
  for (; j < steps_.size() && steps_[j].time < end; ++j) lowest = std::min(lowest, steps_[j].free);
  if (lowest < procs) {
    throw_not_free(start, end, procs);
  }
  add(start, end, -procs, i, j);
}

FlatProfile::FreeRange FlatProfile::release(Time start, Time end, int64_t procs) {  // (end > start, procs > 0)
  const size_t i = index_of(start);
  size_t j = i;
  int64_t highest = 0;
  int64_t lowest = capacity_;
  for (; j < steps_.size() && steps_[j].time < end; ++j) {
    highest = std::max(highest, steps_[j].free);
    lowest = std::min(lowest, steps_[j].free);
  }
  if (highest + procs > capacity_) {
    throw_over_capacity(start, end, procs);
  }
  add(start, end, procs, i, j);
  return {lowest, highest};
}

void FlatProfile::advance(Time now) {
  size_t i = index_of(now);
  if (i > 0) {
    steps_.erase(steps_.begin(), steps_.begin() + static_cast<std::ptrdiff_t>(i));
    touched(0);
  }
  steps_.front().time = now;
}

std::string FlatProfile::check() const {
  if (steps_.empty()) return "no steps";
  for (size_t i = 0; i < steps_.size(); ++i) {
    const Step& s = steps_[i];
    if (s.free < 0 || s.free > capacity_) {
      return "step " + std::to_string(i) + " at " + std::to_string(s.time) + " has " + std::to_string(s.free) +
             " free of " + std::to_string(capacity_);
    }
    if (i > 0 && s.time <= steps_[i - 1].time) return "step times not increasing at index " + std::to_string(i);
    if (i > 0 && s.free == steps_[i - 1].free) return "unmerged equal steps at index " + std::to_string(i);
  }
  return {};
}
}  // namespace schedlab::sim
