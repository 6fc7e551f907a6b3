// The simulator state a scheduler sees: a PLAIN COPYABLE VALUE. Adaptive schedulers can copy the real
// state into candidate schedulers and run them side by side.
//
// Invariants kept by the engine (sim/simulate.h):
// - `queue` holds the waiting jobs in the order they entered it: arrivals by (submit, job id) — job ids
//   already follow that order, except with feedback, where a job that follows another is submitted when that
//   one ends (sim/simulate.h) — and a job suspended by a preemptive scheduler at the back, at the time it
//   was suspended.
// - `running` holds the running jobs ordered by (predicted_end(), job id) (sim/running_list.h). A job past
//   its predicted end stays in place and is "overdue": its expected end is `now` (expected_end()), which
//   keeps the order valid since max(., now) is monotone.
// - predictions are >= 0 and are TOTAL runtimes (time already run included); machine.free() ==
//   machine.total() - sum of running procs.
// - A suspended job (WaitingJob::attained > 0) holds no processors but, when the machine tracks
//   processors, may resume only on the ones listed in `held[job]`; running jobs' processors are in
//   `running_on[job]`.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <unordered_map>
#include <vector>

#include "schedlab/workload/job.h"
#include "schedlab/sim/machine.h"
#include "schedlab/sim/running_list.h"

namespace schedlab::sim {

using workload::Job;
using workload::JobId;

struct WaitingJob {
  JobId id = -1;
  int32_t procs = 0;
  int64_t submit = 0;
  int64_t prediction = 0;  // current predicted total runtime
  int64_t attained = 0;    // seconds already run (> 0 only for a suspended job)
  bool suspended() const { return attained > 0; }
  int64_t remaining() const { return std::max<int64_t>(prediction - attained, 0); }
  friend bool operator==(const WaitingJob&, const WaitingJob&) = default;
};

// The wait queue: a sequence in queue order with O(1) append, O(1) find/erase by job id (amortised), and
// forward/backward iteration in O(size) overall. Erased entries become holes skipped by the iterators and
// are compacted away once they outnumber the live ones, so removing the jobs a scheduler starts never
// costs O(queue) per start (it did with a plain vector: the whole tail moved). The entries lie in queue order in
// one array: while the queue does not change, a job ahead of another has the lower address (maui orders ties so).
class WaitQueue {
 public:
  class const_iterator {
   public:
    using iterator_category = std::bidirectional_iterator_tag;
    using value_type = WaitingJob;
    using difference_type = std::ptrdiff_t;
    using pointer = const WaitingJob*;
    using reference = const WaitingJob&;
    const_iterator() = default;
    reference operator*() const { return (*v_)[i_]; }
    pointer operator->() const { return &(*v_)[i_]; }
    const_iterator& operator++() {
      do ++i_;
      while (i_ < v_->size() && (*v_)[i_].id < 0);
      return *this;
    }
    const_iterator operator++(int) {
      auto t = *this;
      ++*this;
      return t;
    }
    const_iterator& operator--() {
      do --i_;
      while ((*v_)[i_].id < 0);
      return *this;
    }
    const_iterator operator--(int) {
      auto t = *this;
      --*this;
      return t;
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.i_ == b.i_; }

   private:
    friend class WaitQueue;
    const_iterator(const std::vector<WaitingJob>* v, size_t i) : v_(v), i_(i) {}
    const std::vector<WaitingJob>* v_ = nullptr;
    size_t i_ = 0;
  };
  using iterator = const_iterator;
  using value_type = WaitingJob;

  size_t size() const { return live_; }
  bool empty() const { return live_ == 0; }
  const_iterator begin() const { return {&entries_, head_}; }
  const_iterator end() const { return {&entries_, entries_.size()}; }
  std::reverse_iterator<const_iterator> rbegin() const { return std::reverse_iterator(end()); }
  std::reverse_iterator<const_iterator> rend() const { return std::reverse_iterator(begin()); }
  const WaitingJob& front() const { return entries_[head_]; }
  const WaitingJob& back() const { return entries_.back(); }

  // The first live job at `from` or after it whose size is at most `procs` (end() when none). A scan over a
  // dense array of the sizes (4 bytes a job instead of the job's 32, holes never fit): the backfilling walks of
  // EASY and its relatives spend most of their time skipping jobs too large for the free processors.
  const_iterator next_fit(const_iterator from, int64_t procs) const;
  // The first live job at `from` or after that EASY may backfill: size <= free, and either size <= extra or
  // remaining() <= remaining_limit (it ends by the shadow time). A search over a tree of per-range minima of the
  // sizes and the remaining times, which skips whole ranges that cannot hold such a job — exactly the jobs the
  // walk over every waiting job would have started, in the same order.
  const_iterator next_backfill(const_iterator from, int64_t free, int64_t extra, int64_t remaining_limit) const;

  // Appends a job (its id must not be in the queue).
  void push_back(const WaitingJob& job);
  // The waiting job with this id, or nullptr.
  const WaitingJob* find(JobId id) const;
  // Sets a waiting job's prediction (false if it is not waiting).
  bool set_prediction(JobId id, int64_t prediction);
  // Removes the job; false if it was not waiting.
  bool erase(JobId id);
  void clear();

  // Equal when the live jobs are equal, in order (holes do not matter).
  friend bool operator==(const WaitQueue& a, const WaitQueue& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
  }

 private:
  void compact();
  std::vector<WaitingJob> entries_;  // holes have id -1
  std::vector<int32_t> sizes_;       // entries_[i].procs, kHole for a hole (next_fit)
  // next_backfill's tree over the positions of entries_: node k covers its children 2k and 2k + 1, the leaves
  // are tree_size_ + i; minima of the size and of remaining() (holes: the largest values).
  void tree_set(size_t i, int32_t size, int64_t remaining);
  void tree_rebuild();
  size_t tree_size_ = 0;  // leaves: a power of two >= entries_.size()
  std::vector<int32_t> tree_min_size_;
  std::vector<int64_t> tree_min_remaining_;
  std::unordered_map<JobId, size_t> index_;  // live job -> position in entries_
  size_t head_ = 0;                  // first live entry (entries_.size() when empty)
  size_t live_ = 0;
};

struct SimState {
  int64_t now = 0;
  Machine machine;
  WaitQueue queue;                  // in queue order (see above)
  RunningList running;              // by (predicted_end(), id)
  // When the machine tracks processors (kept apart so that RunningJob stays a small trivially copyable
  // value — the running list moves jobs within its blocks):
  std::map<JobId, ProcSet> running_on;  // the processors each running job holds
  std::map<JobId, ProcSet> held;        // the processors each suspended job left (and must resume on)
  // The workload's jobs indexed by JobId (shared and immutable; not owned).
  const std::vector<Job>* jobs = nullptr;

  // With feedback (sim/result.h SimResult::submit), the simulated submit times by JobId (owned by the run); null
  // otherwise. A job that follows another is submitted when the simulation says, not at job(id).submit.
  const int64_t* submits = nullptr;

  const Job& job(JobId id) const { return (*jobs)[static_cast<size_t>(id)]; }
  // When a job that has arrived was submitted (WaitingJob::submit while it waits).
  int64_t submitted(JobId id) const { return submits ? submits[id] : job(id).submit; }
  // When the scheduler expects a running job to end: start + prediction, or now when overdue.
  int64_t expected_end(const RunningJob& r) const { return std::max(r.predicted_end(), now); }

  friend bool operator==(const SimState&, const SimState&) = default;
};

}  // namespace schedlab::sim
