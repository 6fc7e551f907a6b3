// The running jobs of the simulator state, ordered by (predicted_end(), id), with the processors they hold
// summed by prefix so that "when will p more processors have come free?" — EASY's shadow time — is answered in
// O(log n) instead of a walk over the running jobs.
//
// Layout: blocks of at most kBlock jobs, each sorted, in order; a Fenwick tree over the blocks' processor sums.
// Insert, erase, find and the two prefix queries cost O(log n + kBlock); every block but a lone one holds at least
// kBlock / 4 jobs, and splitting or merging a block (at most once per kBlock / 4 changes to it) rebuilds the block
// index in O(n / kBlock). A sorted vector cost O(n) per start and
// end (the move of its tail), which dominated on machines running tens of thousands of jobs at once.
// A plain copyable value, like the rest of SimState.
#pragma once

#include <array>
#include <cstdint>
#include <iterator>
#include <vector>

#include "schedlab/workload/job.h"

namespace schedlab::sim {

using workload::JobId;

struct RunningJob {
  JobId id = -1;
  int32_t procs = 0;  // (beside the id: 24 bytes, not 32)
  // When the job would have started had it never been suspended: now - (time it has run). Equal to its
  // start for a job that was never suspended.
  int64_t start = 0;
  int64_t prediction = 0;  // current predicted total runtime
  int64_t predicted_end() const { return start + prediction; }
  friend bool operator==(const RunningJob&, const RunningJob&) = default;
};

class RunningList {
 public:
  static constexpr uint32_t kBlock = 32;

 private:
  struct Block {
    uint32_t size = 0;
    int64_t procs = 0;  // sum over jobs[0, size)
    std::array<RunningJob, kBlock> jobs{};
  };

 public:
  class const_iterator {
   public:
    using iterator_category = std::bidirectional_iterator_tag;
    using value_type = RunningJob;
    using difference_type = std::ptrdiff_t;
    using pointer = const RunningJob*;
    using reference = const RunningJob&;
    const_iterator() = default;
    reference operator*() const { return block_->jobs[k_]; }
    pointer operator->() const { return &block_->jobs[k_]; }
    const_iterator& operator++();
    const_iterator operator++(int) {
      auto t = *this;
      ++*this;
      return t;
    }
    const_iterator& operator--();
    const_iterator operator--(int) {
      auto t = *this;
      --*this;
      return t;
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.pos_ == b.pos_ && a.k_ == b.k_; }

   private:
    friend class RunningList;
    const_iterator(const RunningList* list, size_t pos, uint32_t k);
    const RunningList* list_ = nullptr;
    const Block* block_ = nullptr;  // the block at pos_ (nullptr at the end)
    size_t pos_ = 0;                // index in the block order
    uint32_t k_ = 0;                // index in the block
  };
  using iterator = const_iterator;
  using value_type = RunningJob;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const_iterator begin() const { return {this, 0, 0}; }
  const_iterator end() const { return {this, order_.size(), 0}; }
  const RunningJob& front() const { return *begin(); }
  const RunningJob& back() const { return *std::prev(end()); }
  // The processors all running jobs hold.
  int64_t procs() const { return procs_; }
  // How many blocks hold the jobs (at most 4 size() / kBlock + 1; for tests and benchmarks).
  size_t blocks() const { return order_.size(); }

  // Adds a job; throws std::logic_error if a job with its (predicted_end(), id) is already there.
  void insert(const RunningJob& job);
  // The job with this key, or nullptr.
  const RunningJob* find(int64_t predicted_end, JobId id) const;
  // Removes the job with this key and returns it; throws std::logic_error if there is none.
  RunningJob erase(int64_t predicted_end, JobId id);
  // Gives the job with this key a new prediction (and so a new place); throws std::logic_error if there is none.
  void set_prediction(int64_t predicted_end, JobId id, int64_t prediction);
  void clear();

  // The first job, in order, at which the processors of the jobs up to it (inclusive) reach `procs`; end() if
  // all of them together hold fewer. O(log n + kBlock).
  // (procs <= 0: the first job.)
  const_iterator reaching(int64_t procs) const;
  // The processors held by the jobs whose predicted_end() <= t. O(log n + kBlock).
  int64_t procs_ending_by(int64_t t) const;

  friend bool operator==(const RunningList& a, const RunningList& b);

 private:
  const Block& block_at(size_t pos) const { return pool_[order_[pos]]; }
  Block& block_at(size_t pos) { return pool_[order_[pos]]; }
  // The position of the first block whose last job is not before the key (the last block when none is).
  size_t locate(int64_t predicted_end, JobId id) const;
  // Where the job with this key is, or would go (pos, k); true if it is there.
  bool seek(int64_t predicted_end, JobId id, size_t& pos, uint32_t& k) const;
  uint32_t new_block();
  void add_procs(size_t pos, int64_t delta);  // to a block's sum and the Fenwick tree
  void rebuild_index();                       // after blocks were added, removed or merged
  void after_erase(size_t pos);               // drops an empty block; merges or refills a small one

  std::vector<Block> pool_;      // by slot; slots in free_ are unused
  std::vector<uint32_t> free_;   // unused slots of pool_
  std::vector<uint32_t> order_;  // the blocks' slots, in order
  std::vector<int64_t> tree_;    // Fenwick tree over order_ positions (1-based) of the blocks' processor sums
  size_t size_ = 0;
  int64_t procs_ = 0;
};

}  // namespace schedlab::sim
