#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/core.h>

#include "schedlab/sim/state.h"

namespace schedlab::sim {

namespace {
constexpr int32_t kHole = std::numeric_limits<int32_t>::max();  // larger than any free processor count asked
}  // namespace

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
}

const WaitingJob* WaitQueue::find(JobId id) const {
  const auto it = index_.find(id);
  return it == index_.end() ? nullptr : &entries_[it->second];
}

WaitingJob* WaitQueue::find(JobId id) {
  const auto it = index_.find(id);
  return it == index_.end() ? nullptr : &entries_[it->second];
}

bool WaitQueue::erase(JobId id) {
  const auto it = index_.find(id);
  if (it == index_.end()) return false;
  const size_t pos = it->second;
  index_.erase(it);
  entries_[pos].id = -1;
  sizes_[pos] = kHole;
  --live_;
  // Keep the first and last entries live, so front(), back() and begin() are O(1).
  while (!entries_.empty() && entries_.back().id < 0) {
    entries_.pop_back();
    sizes_.pop_back();
  }
  if (live_ == 0) {
    entries_.clear();
    sizes_.clear();
    head_ = 0;
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
  head_ = 0;
}

}  // namespace schedlab::sim
