#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/core.h>

#include "schedlab/sim/state.h"

namespace schedlab::sim {

namespace {
constexpr int32_t kHole = std::numeric_limits<int32_t>::max();  // larger than any free processor count asked
constexpr int64_t kNoRemaining = std::numeric_limits<int64_t>::max();
}  // namespace

void WaitQueue::tree_set(size_t i, int32_t size, int64_t remaining) {
  if (i >= tree_size_) {
    tree_rebuild();  // grows to a power of two above entries_.size(), which includes i
    return;
  }
  size_t k = tree_size_ + i;
  tree_min_size_[k] = size;
  tree_min_remaining_[k] = remaining;
  for (k /= 2; k >= 1; k /= 2) {
    tree_min_size_[k] = std::min(tree_min_size_[2 * k], tree_min_size_[2 * k + 1]);
    tree_min_remaining_[k] = std::min(tree_min_remaining_[2 * k], tree_min_remaining_[2 * k + 1]);
  }
}

void WaitQueue::tree_rebuild() {
  size_t leaves = 1;
  while (leaves < entries_.size()) leaves *= 2;
  if (leaves < tree_size_ && tree_size_ <= 4 * std::max<size_t>(leaves, 1024)) leaves = tree_size_;  // no churn
  tree_size_ = leaves;
  tree_min_size_.assign(2 * leaves, kHole);
  tree_min_remaining_.assign(2 * leaves, kNoRemaining);
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (entries_[i].id < 0) continue;
    tree_min_size_[leaves + i] = entries_[i].procs;
    tree_min_remaining_[leaves + i] = entries_[i].remaining();
  }
  for (size_t k = leaves - 1; k >= 1; --k) {
    tree_min_size_[k] = std::min(tree_min_size_[2 * k], tree_min_size_[2 * k + 1]);
    tree_min_remaining_[k] = std::min(tree_min_remaining_[2 * k], tree_min_remaining_[2 * k + 1]);
  }
}

WaitQueue::const_iterator WaitQueue::next_backfill(const_iterator from, int64_t free, int64_t extra,
                                                   int64_t remaining_limit) const {
  const size_t n = entries_.size();
  if (from.i_ >= n || free <= 0 || tree_size_ == 0) return end();
  const int64_t both = std::min(free, extra);
  // Can a range with these minima hold a job to start? (For one job the test is exact.)
  const auto may = [&](size_t k) {
    const int64_t size = tree_min_size_[k];
    return size <= both || (size <= free && tree_min_remaining_[k] <= remaining_limit);
  };
  // The first leaf that passes in subtree k (a subtree whose minima fail holds none; minima passing together
  // may come from two different jobs, so a passing subtree can still hold none: then the search goes on).
  const auto first_in = [&](const auto& self, size_t k) -> size_t {
    if (!may(k)) return 0;
    if (k >= tree_size_) return k;
    const size_t left = self(self, 2 * k);
    return left != 0 ? left : self(self, 2 * k + 1);
  };
  // From the leaf of `from`, subtree after subtree to the right.
  size_t k = tree_size_ + from.i_;
  for (;;) {
    const size_t leaf = first_in(first_in, k);
    if (leaf != 0) {
      const size_t i = leaf - tree_size_;
      return i < n ? const_iterator{&entries_, i} : end();
    }
    while (k % 2 == 1) {  // climb while k is a right child, then step to the right sibling
      k /= 2;
      if (k <= 1) return end();
    }
    ++k;
  }
}

WaitQueue::const_iterator WaitQueue::next_fit(const_iterator from, int64_t procs) const {
  const auto limit = static_cast<int32_t>(std::min<int64_t>(procs, kHole - 1));
  size_t i = from.i_;
  const size_t n = sizes_.size();
  const int32_t* sizes = sizes_.data();
  while (i < n && sizes[i] > limit) ++i;
  return {&entries_, i};
}

void WaitQueue::push_back(const WaitingJob& job) {
  if (job.id < 0 || !index_.emplace(job.id, entries_.size()).second) {
    throw std::logic_error(fmt::format("job {} is already waiting (or has an invalid id)", job.id));
  }
  if (live_ == 0) head_ = entries_.size();
  entries_.push_back(job);
  sizes_.push_back(job.procs);
  ++live_;
  tree_set(entries_.size() - 1, job.procs, job.remaining());
}

const WaitingJob* WaitQueue::find(JobId id) const {
  const auto it = index_.find(id);
  return it == index_.end() ? nullptr : &entries_[it->second];
}

bool WaitQueue::set_prediction(JobId id, int64_t prediction) {
  const auto it = index_.find(id);
  if (it == index_.end()) return false;
  WaitingJob& w = entries_[it->second];
  w.prediction = prediction;
  tree_set(it->second, w.procs, w.remaining());
  return true;
}

bool WaitQueue::erase(JobId id) {
  const auto it = index_.find(id);
  if (it == index_.end()) return false;
  const size_t pos = it->second;
  index_.erase(it);
  entries_[pos].id = -1;
  sizes_[pos] = kHole;
  tree_set(pos, kHole, kNoRemaining);
  --live_;
  // Keep the first and last entries live, so front(), back() and begin() are O(1).
  while (!entries_.empty() && entries_.back().id < 0) {
    entries_.pop_back();
    sizes_.pop_back();
  }
  if (live_ == 0) {
    entries_.clear();
    sizes_.clear();
    head_ = 0;  // every leaf of the tree is a hole already
    return true;
  }
  while (entries_[head_].id < 0) ++head_;
  const size_t holes = entries_.size() - live_;
  if (holes > 64 && holes > live_) compact();
  return true;
}

void WaitQueue::clear() {
  entries_.clear();
  sizes_.clear();
  tree_size_ = 0;
  tree_min_size_.clear();
  tree_min_remaining_.clear();
  index_.clear();
  head_ = 0;
  live_ = 0;
}

void WaitQueue::compact() {
  size_t out = 0;
  for (size_t i = head_; i < entries_.size(); ++i) {
    if (entries_[i].id < 0) continue;
    entries_[out] = entries_[i];
    sizes_[out] = entries_[i].procs;
    index_[entries_[out].id] = out;
    ++out;
  }
  entries_.resize(out);
  sizes_.resize(out);
  tree_rebuild();
  head_ = 0;
}

}  // namespace schedlab::sim
