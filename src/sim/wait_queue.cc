#include <stdexcept>

#include <fmt/core.h>

#include "schedlab/sim/state.h"

namespace schedlab::sim {

void WaitQueue::push_back(const WaitingJob& job) {
  if (job.id < 0 || !index_.emplace(job.id, entries_.size()).second) {
    throw std::logic_error(fmt::format("job {} is already waiting (or has an invalid id)", job.id));
  }
  if (live_ == 0) head_ = entries_.size();
  entries_.push_back(job);
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
  --live_;
  // Keep the first and last entries live, so front(), back() and begin() are O(1).
  while (!entries_.empty() && entries_.back().id < 0) entries_.pop_back();
  if (live_ == 0) {
    entries_.clear();
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
  index_.clear();
  head_ = 0;
  live_ = 0;
}

void WaitQueue::compact() {
  size_t out = 0;
  for (size_t i = head_; i < entries_.size(); ++i) {
    if (entries_[i].id < 0) continue;
    entries_[out] = entries_[i];
    index_[entries_[out].id] = out;
    ++out;
  }
  entries_.resize(out);
  head_ = 0;
}

}  // namespace schedlab::sim
