#include "sim/blocked_profile.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace schedlab::sim {

namespace {

BlockedProfile::Time saturating_end(BlockedProfile::Time start, BlockedProfile::Time duration) {
  return duration > BlockedProfile::kInfinity - start ? BlockedProfile::kInfinity : start + duration;
}

}  // namespace

BlockedProfile::BlockedProfile(int64_t capacity, Time origin) : capacity_(capacity) {
  if (capacity <= 0) throw std::invalid_argument("AvailabilityProfile: capacity must be > 0");
  load({Step{origin, capacity}});
}

BlockedProfile::BlockedProfile(int64_t capacity, const std::vector<Step>& steps) : capacity_(capacity) { load(steps); }

BlockedProfile::BlockedProfile(const BlockedProfile& other)
    : capacity_(other.capacity_), step_count_(other.step_count_), layout_changes_(other.layout_changes_) {
  pool_.resize(other.order_.size());
  order_.resize(other.order_.size());
  for (size_t b = 0; b < order_.size(); ++b) {
    const Block& from = other.block(b);
    Block& to = pool_[b];
    to.size = from.size;
    std::copy(from.s.begin(), from.s.begin() + from.size, to.s.begin());
    order_[b] = other.order_[b];
    order_[b].id = static_cast<uint32_t>(b);
  }
}

BlockedProfile& BlockedProfile::operator=(const BlockedProfile& other) {
  if (this != &other) *this = BlockedProfile(other);
  return *this;
}

void BlockedProfile::load(const std::vector<Step>& steps) {
  pool_.clear();
  free_.clear();
  order_.clear();
  // Three quarters full: room to insert before the first split.
  constexpr size_t kFill = kMax * 3 / 4;
  const size_t blocks = (steps.size() + kFill - 1) / kFill;
  pool_.resize(blocks);
  for (size_t b = 0; b < blocks; ++b) {
    Block& k = pool_[b];
    const size_t first = steps.size() * b / blocks, last = steps.size() * (b + 1) / blocks;
    for (size_t i = first; i < last; ++i) k.s[i - first] = Slot{steps[i].time, steps[i].free};
    k.size = static_cast<uint32_t>(last - first);
    Entry e;
    e.first = k.s[0].time;
    e.id = static_cast<uint32_t>(b);
    order_.push_back(e);
  }
  step_count_ = steps.size();
}

std::vector<BlockedProfile::Step> BlockedProfile::steps() const {
  std::vector<Step> out;
  out.reserve(step_count_);
  for (size_t b = 0; b < order_.size(); ++b) {
    const Block& k = block(b);
    for (size_t i = 0; i < k.size; ++i) out.push_back(Step{k.s[i].time, k.s[i].free + order_[b].pending});
  }
  return out;
}

const BlockedProfile::Entry& BlockedProfile::refresh(size_t b) const {
  const Entry& h = order_[b];
  const Block& k = block(b);
  int64_t lo = k.s[0].free, hi = k.s[0].free;
  for (size_t i = 1; i < k.size; ++i) {
    lo = std::min(lo, k.s[i].free);
    hi = std::max(hi, k.s[i].free);
  }
  h.lo = lo + h.pending;
  h.hi = hi + h.pending;
  h.stale = false;
  return h;
}

BlockedProfile::Pos BlockedProfile::locate(Time t) const {
  if (t < origin()) {
    throw std::out_of_range("AvailabilityProfile: time " + std::to_string(t) + " before origin " +
                            std::to_string(origin()));
  }
  // The last block starting at or before t; most look-ups of a scheduler start at the origin (now).
  size_t b = 0;
  if (order_.size() > 1 && order_[1].first <= t) {
    const Entry* base = order_.data() + 1;
    size_t len = order_.size() - 1;
    while (len > 1) {
      const size_t half = len / 2;
      base = base[half].first <= t ? base + half : base;
      len -= half;
    }
    b = static_cast<size_t>(base - order_.data());
  }
  return in_block(b, t);
}

BlockedProfile::Pos BlockedProfile::locate_from(Pos p, Time t) const {
  if (p.b() + 1 < order_.size() && order_[p.b() + 1].first <= t) return locate(t);
  return in_block(p.b(), t);
}

BlockedProfile::Pos BlockedProfile::in_block(size_t b, Time t) const {
  // Branch-free (the searches of a scheduler land at unpredictable places).
  const Block& k = block(b);
  if (k.size < 2 || t < k.s[1].time) return Pos{b, 0};
  const Slot* base = k.s.data();
  size_t len = k.size;
  while (len > 1) {
    const size_t half = len / 2;
    base = base[half].time <= t ? base + half : base;
    len -= half;
  }
  return Pos{b, static_cast<size_t>(base - k.s.data())};
}

int64_t BlockedProfile::free_at(Time t) const { return value_at(locate(t)); }

template <bool kMost>
BlockedProfile::FreeRange BlockedProfile::bounds(Pos p, Time end, Pos* end_at) const {
  FreeRange r{capacity_, 0};
  size_t i = p.i();
  size_t b = p.b();
  const size_t m = order_.size();
  for (; b < m; ++b, i = 0) {
    const Entry& h = order_[b];
    if (i == 0) {
      if (h.first >= end) break;
      if (b + 1 < m && order_[b + 1].first <= end) {  // the whole block: its bounds, not its steps
        r.least = std::min(r.least, fresh(b).lo);
        if constexpr (kMost) r.most = std::max(r.most, h.hi);
        continue;
      }
    }
    // Over the stored values, the block's pending amount added once.
    const Block& k = block(b);
    int64_t lo = k.s[i].free, hi = k.s[i].free;
    for (++i; i < k.size && k.s[i].time < end; ++i) {
      lo = std::min(lo, k.s[i].free);
      if constexpr (kMost) hi = std::max(hi, k.s[i].free);
    }
    r.least = std::min(r.least, lo + h.pending);
    if constexpr (kMost) r.most = std::max(r.most, hi + h.pending);
    if (i < k.size) break;  // a step at or past the end
  }
  if (end_at) {
    // (b, i): the first step at or after the end; the end is in it or in the one before.
    const Pos after = b == order_.size() ? end_pos() : Pos{b, i};
    if (!at_end(after) && time_at(after) == end) {
      *end_at = after;
    } else {
      *end_at = after.i() > 0 ? Pos{after.b(), after.i() - 1} : Pos{after.b() - 1, block(after.b() - 1).size - 1};
    }
  }
  return r;
}

int64_t BlockedProfile::min_free(Time start, Time end) const {
  return end <= start ? capacity_ : bounds<false>(locate(start), end).least;
}

int64_t BlockedProfile::max_free(Time start, Time end) const {
  return end <= start ? 0 : bounds<true>(locate(start), end).most;
}

bool BlockedProfile::fits(Time start, int64_t procs, Time duration) const {
  if (duration <= 0) return true;
  return min_free(start, saturating_end(start, duration)) >= procs;
}

BlockedProfile::Time BlockedProfile::earliest_fit(Time from, int64_t procs, Time duration) const {
  Pos at;
  return earliest_fit_at(from, procs, duration, at);
}

BlockedProfile::Time BlockedProfile::earliest_fit_at(Time from, int64_t procs, Time duration, Pos& at) const {
  if (duration == 0) return from;  // (the arguments were checked by AvailabilityProfile)
  Pos k = locate(from);
  Time candidate = from;
  at = k;
  while (true) {
    if (value_at(k) < procs) {
      k = next_at_least(next(k), procs, kInfinity);
      // Every reservation is finite, so the last step is fully free; end() means a corrupted profile.
      if (at_end(k)) throw std::logic_error("AvailabilityProfile: last step is not free enough");
      candidate = time_at(k);
      at = k;
    }
    // Step k has enough: the window lasts until the next step that has not (only a step before the
    // window's end matters).
    k = next_below(next(k), procs, saturating_end(candidate, duration));
    if (at_end(k)) return candidate;
  }
}

BlockedProfile::Time BlockedProfile::reserve_earliest(Time from, int64_t procs, Time duration) {
  Pos at;
  const Time t = earliest_fit_at(from, procs, duration, at);
  if (duration == 0 || procs == 0) return t;
  const Time end = saturating_end(t, duration);
  add(t, end, -procs, at, end == kInfinity ? Pos{} : locate_from(at, end));  // (the window was just checked)
  return t;
}

BlockedProfile::Time BlockedProfile::earliest_fit_before(Time from, int64_t procs, Time duration, Time limit) const {
  if (from >= limit) return limit;
  if (duration <= 0) return from;
  Pos k = locate(from);
  Time candidate = from;
  while (true) {
    if (value_at(k) < procs) {
      k = next_at_least(next(k), procs, limit);  // (end(): none before the limit)
      if (at_end(k)) return limit;
      candidate = time_at(k);
    }
    // Fits for the whole window, or up to the limit where the job's own hold takes over.
    k = next_below(next(k), procs, std::min(limit, saturating_end(candidate, duration)));
    if (at_end(k)) return candidate;
  }
}

BlockedProfile::Time BlockedProfile::earliest_fit_overlapping(Time from, Time lo, Time hi, int64_t procs,
                                                              Time duration, Time limit) const {
  lo = std::max(lo, from);
  hi = std::min(hi, limit);
  if (lo >= hi || duration <= 0) return limit;
  Pos k = locate(lo);
  while (true) {
    // The first step from k on, before hi, with enough free processors: a run of them starts there or
    // earlier.
    Time run = 0;
    if (value_at(k) < procs) {
      k = next_at_least(next(k), procs, hi);
      if (at_end(k)) return limit;
      run = std::max(time_at(k), from);  // (the step before k is below procs)
    } else {
      // The run's first step: the one after the last step below procs before k (the origin if none).
      const Pos below = prev_below(k, procs);
      run = std::max(at_end(below) ? origin() : time_at(next(below)), from);
    }
    // Its end: a step below procs before the window [run, run + duration) ends and before the limit
    // (from the limit on the job's own hold covers it); none means the window fits.
    k = next_below(next(k), procs, std::min(saturating_end(run, duration), limit));
    if (at_end(k)) return run;
    if (time_at(k) >= hi) return limit;  // the next run starts after the span
  }
}

// next_at_least and next_below: the rest of the first block is read step by step (its bounds are used only when
// valid); a block entered from its start is skipped by its bounds, read from the order's entries alone.
BlockedProfile::Pos BlockedProfile::next_at_least(Pos k, int64_t procs, Time until) const {
  size_t i = k.i();
  for (size_t b = k.b(); b < order_.size(); ++b, i = 0) {
    const Entry& h = order_[b];
    if (i == 0) {
      if (h.first >= until) return end_pos();
      if (fresh(b).hi < procs) continue;
    } else if (!h.stale && h.hi < procs) {
      continue;
    }
    const Block& blk = block(b);
    const int64_t need = procs - h.pending;
    for (; i < blk.size; ++i) {
      if (blk.s[i].time >= until) return end_pos();
      if (blk.s[i].free >= need) return Pos{b, i};
    }
  }
  return end_pos();
}

BlockedProfile::Pos BlockedProfile::next_below(Pos k, int64_t procs, Time until) const {
  size_t i = k.i();
  for (size_t b = k.b(); b < order_.size(); ++b, i = 0) {
    const Entry& h = order_[b];
    if (i == 0) {
      if (h.first >= until) return end_pos();
      if (fresh(b).lo >= procs) continue;
    } else if (!h.stale && h.lo >= procs) {
      continue;
    }
    const Block& blk = block(b);
    const int64_t need = procs - h.pending;
    for (; i < blk.size; ++i) {
      if (blk.s[i].time >= until) return end_pos();
      if (blk.s[i].free < need) return Pos{b, i};
    }
  }
  return end_pos();
}

BlockedProfile::Pos BlockedProfile::prev_below(Pos k, int64_t procs) const {
  size_t b = k.b(), i = k.i();  // the steps before (b, i)
  while (true) {
    if (i == 0) {
      if (b == 0) return end_pos();
      --b;
      if (fresh(b).lo >= procs) continue;
      i = block(b).size;
    }
    const Block& blk = block(b);
    const int64_t need = procs - order_[b].pending;
    while (i > 0) {
      if (blk.s[--i].free < need) return Pos{b, i};
    }
  }
}

uint32_t BlockedProfile::new_block() {
  if (!free_.empty()) {
    const uint32_t id = free_.back();
    free_.pop_back();
    pool_[id].size = 0;
    return id;
  }
  pool_.emplace_back();
  return static_cast<uint32_t>(pool_.size() - 1);
}

void BlockedProfile::drop_block(size_t b) {
  ++layout_changes_;
  free_.push_back(order_[b].id);
  order_.erase(order_.begin() + static_cast<std::ptrdiff_t>(b));
}

BlockedProfile::Pos BlockedProfile::insert_at(Pos p, Step step) {
  if (block(p.b()).size == kMax) {
    ++layout_changes_;
    // Split in halves; the new step goes to the half that holds its place.
    const uint32_t id = new_block();
    Block& left = block(p.b());
    Block& right = pool_[id];
    const size_t half = kMax / 2;
    std::copy(left.s.begin() + half, left.s.end(), right.s.begin());
    right.size = static_cast<uint32_t>(kMax - half);
    left.size = static_cast<uint32_t>(half);
    Entry e = order_[p.b()];  // the same pending amount
    e.first = right.s[0].time;
    e.id = id;
    order_[p.b()].stale = e.stale = true;
    order_.insert(order_.begin() + static_cast<std::ptrdiff_t>(p.b() + 1), e);
    if (p.i() > half) p = Pos{p.b() + 1, p.i() - half};
  }
  Block& k = block(p.b());
  Entry& h = order_[p.b()];
  std::copy_backward(k.s.begin() + static_cast<std::ptrdiff_t>(p.i()), k.s.begin() + k.size, k.s.begin() + k.size + 1);
  k.s[p.i()] = Slot{step.time, step.free - h.pending};
  ++k.size;
  h.lo = std::min(h.lo, step.free);  // (meaningless while stale)
  h.hi = std::max(h.hi, step.free);
  ++step_count_;
  if (p.i() == 0) sync_first(p.b());
  return p;
}

BlockedProfile::Pos BlockedProfile::split_at(Time t, Pos at) {
  if (time_at(at) == t) return at;
  return insert_at(Pos{at.b(), at.i() + 1}, Step{t, value_at(at)});
}

void BlockedProfile::erase_at(Pos p) {
  Block& k = block(p.b());
  std::copy(k.s.begin() + static_cast<std::ptrdiff_t>(p.i() + 1), k.s.begin() + k.size,
            k.s.begin() + static_cast<std::ptrdiff_t>(p.i()));
  --k.size;
  --step_count_;
  if (k.size == 0) {
    drop_block(p.b());
    return;
  }
  order_[p.b()].stale = true;
  if (p.i() == 0) sync_first(p.b());
  rebalance(p.b());
}

void BlockedProfile::rebalance(size_t b) {
  if (order_.size() < 2 || block(b).size >= kMin) return;
  join(b + 1 < order_.size() ? b : b - 1);
}

void BlockedProfile::join(size_t b) {
  ++layout_changes_;
  Block& left = block(b);
  Block& right = block(b + 1);
  // Both blocks' pending amounts go into their steps first.
  for (size_t i = 0; i < left.size; ++i) left.s[i].free += order_[b].pending;
  for (size_t i = 0; i < right.size; ++i) right.s[i].free += order_[b + 1].pending;
  order_[b].pending = order_[b + 1].pending = 0;
  order_[b].stale = order_[b + 1].stale = true;
  const size_t total = left.size + right.size;
  if (total <= kMax) {
    std::copy(right.s.begin(), right.s.begin() + right.size, left.s.begin() + left.size);
    left.size = static_cast<uint32_t>(total);
    sync_first(b);
    drop_block(b + 1);
    return;
  }
  // Too many for one: each keeps half (the steps stay in order).
  const size_t keep = total / 2;
  if (left.size < keep) {
    const size_t moved = keep - left.size;
    std::copy(right.s.begin(), right.s.begin() + static_cast<std::ptrdiff_t>(moved), left.s.begin() + left.size);
    std::copy(right.s.begin() + static_cast<std::ptrdiff_t>(moved), right.s.begin() + right.size, right.s.begin());
    right.size = static_cast<uint32_t>(right.size - moved);
  } else {
    const size_t moved = left.size - keep;
    std::copy_backward(right.s.begin(), right.s.begin() + right.size, right.s.begin() + right.size + moved);
    std::copy(left.s.begin() + static_cast<std::ptrdiff_t>(keep), left.s.begin() + left.size, right.s.begin());
    right.size = static_cast<uint32_t>(right.size + moved);
  }
  left.size = static_cast<uint32_t>(keep);
  sync_first(b);
  sync_first(b + 1);
}

void BlockedProfile::merge_with_previous(Pos p) {
  if (at_end(p) || (p.b() == 0 && p.i() == 0)) return;
  const Pos before = p.i() > 0 ? Pos{p.b(), p.i() - 1} : Pos{p.b() - 1, block(p.b() - 1).size - 1};
  if (value_at(before) == value_at(p)) erase_at(p);
}

void BlockedProfile::add(Time start, Time end, int64_t delta, Pos at, Pos end_at) {
  // Steps that start exactly at `start` and `end`, then the change, then the merges at the two boundaries:
  // values inside the interval all moved by delta, so only those can have created equal neighbours. A
  // position stays valid across an insert or erase after it in its block, not across steps moving between
  // blocks: then it is searched again.
  uint64_t layout = layout_changes_;
  const bool inserted = time_at(at) != start;
  Pos a = split_at(start, at);
  // A step inserted for the start in end_at's block comes before it.
  if (inserted && a.b() == end_at.b()) end_at = Pos{end_at.b(), end_at.i() + 1};
  Pos e = end_pos();
  if (end != kInfinity) e = split_at(end, layout == layout_changes_ ? end_at : locate(end));
  if (layout != layout_changes_) {
    a = locate(start);
    if (end != kInfinity) e = locate(end);
  }
  size_t i = a.i();
  for (size_t b = a.b(); b < order_.size(); ++b, i = 0) {
    Entry& h = order_[b];
    if (i == 0 && b != e.b()) {  // a whole block: its entry only
      h.pending += delta;
      h.lo += delta;
      h.hi += delta;
      continue;
    }
    Block& k = block(b);
    const size_t last = b == e.b() ? e.i() : k.size;
    for (; i < last; ++i) k.s[i].free += delta;
    h.stale = true;
    if (b == e.b()) break;
  }
  layout = layout_changes_;
  if (end != kInfinity) merge_with_previous(e);  // first: `a` is before it
  merge_with_previous(layout == layout_changes_ ? a : locate(start));
}

void BlockedProfile::reserve(Time start, Time end, int64_t procs) {  // (end > start, procs > 0)
  const Pos at = locate(start);
  Pos end_at;
  if (bounds<false>(at, end, &end_at).least < procs) {
    throw_not_free(start, end, procs);
  }
  add(start, end, -procs, at, end_at);
}

BlockedProfile::FreeRange BlockedProfile::release(Time start, Time end, int64_t procs) {  // (end > start, procs > 0)
  const Pos at = locate(start);
  Pos end_at;
  const FreeRange before = bounds<true>(at, end, &end_at);
  if (before.most + procs > capacity_) {
    throw_over_capacity(start, end, procs);
  }
  add(start, end, procs, at, end_at);
  return before;
}

void BlockedProfile::advance(Time now) {
  const Pos p = locate(now);
  for (size_t b = 0; b < p.b(); ++b) step_count_ -= block(b).size;
  for (size_t b = 0; b < p.b(); ++b) free_.push_back(order_[b].id);
  order_.erase(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(p.b()));
  Block& k = block(0);
  if (p.i() > 0) {
    std::copy(k.s.begin() + static_cast<std::ptrdiff_t>(p.i()), k.s.begin() + k.size, k.s.begin());
    k.size = static_cast<uint32_t>(k.size - p.i());
    step_count_ -= p.i();
    order_[0].stale = true;
  }
  k.s[0].time = now;
  sync_first(0);
  rebalance(0);
}

std::string BlockedProfile::check() const {
  if (order_.empty()) return "no steps";
  size_t counted = 0;
  const Slot* previous = nullptr;
  int64_t previous_free = 0;
  for (size_t b = 0; b < order_.size(); ++b) {
    const Block& k = block(b);
    if (k.size == 0 || k.size > kMax) return "block " + std::to_string(b) + " holds " + std::to_string(k.size);
    if (order_.size() > 1 && k.size < kMin) {
      return "block " + std::to_string(b) + " holds " + std::to_string(k.size) + " steps, fewer than a quarter";
    }
    int64_t lo = capacity_ + 1, hi = -1;
    for (size_t i = 0; i < k.size; ++i, ++counted) {
      const Slot& s = k.s[i];
      const int64_t free = s.free + order_[b].pending;
      lo = std::min(lo, free);
      hi = std::max(hi, free);
      if (free < 0 || free > capacity_) {
        return "step " + std::to_string(counted) + " at " + std::to_string(s.time) + " has " + std::to_string(free) +
               " free of " + std::to_string(capacity_);
      }
      if (previous && s.time <= previous->time) return "step times not increasing at index " + std::to_string(counted);
      if (previous && free == previous_free) return "unmerged equal steps at index " + std::to_string(counted);
      previous = &s;
      previous_free = free;
    }
    if (!order_[b].stale && (lo != order_[b].lo || hi != order_[b].hi)) {
      return "block " + std::to_string(b) + " has wrong bounds";
    }
    if (order_[b].first != k.s[0].time) return "block " + std::to_string(b) + " has a stale first time";
  }
  if (counted != step_count_) return "step count " + std::to_string(step_count_) + ", counted " + std::to_string(counted);
  return {};
}
}  // namespace schedlab::sim
