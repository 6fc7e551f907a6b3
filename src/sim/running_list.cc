#include "schedlab/sim/running_list.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/core.h>

namespace schedlab::sim {

namespace {
bool before(const RunningJob& r, int64_t predicted_end, JobId id) {
  return r.predicted_end() != predicted_end ? r.predicted_end() < predicted_end : r.id < id;
}
}  // namespace

RunningList::const_iterator::const_iterator(const RunningList* list, size_t pos, uint32_t k)
    : list_(list), block_(pos < list->order_.size() ? &list->block_at(pos) : nullptr), pos_(pos), k_(k) {}

RunningList::const_iterator& RunningList::const_iterator::operator++() {
  if (++k_ == block_->size) {
    k_ = 0;
    ++pos_;
    block_ = pos_ < list_->order_.size() ? &list_->block_at(pos_) : nullptr;
  }
  return *this;
}

RunningList::const_iterator& RunningList::const_iterator::operator--() {
  if (k_ == 0) {
    block_ = &list_->block_at(--pos_);
    k_ = block_->size;
  }
  --k_;
  return *this;
}

size_t RunningList::locate(int64_t predicted_end, JobId id) const {
  // Blocks are never empty, so every block has a last job.
  size_t lo = 0, hi = order_.size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    const Block& b = block_at(mid);
    if (before(b.jobs[b.size - 1], predicted_end, id)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return std::min(lo, order_.size() - 1);
}

uint32_t RunningList::new_block() {
  if (!free_.empty()) {
    const uint32_t slot = free_.back();
    free_.pop_back();
    pool_[slot].size = 0;
    pool_[slot].procs = 0;
    return slot;
  }
  pool_.emplace_back();
  return static_cast<uint32_t>(pool_.size() - 1);
}

void RunningList::add_procs(size_t pos, int64_t delta) {
  block_at(pos).procs += delta;
  procs_ += delta;
  for (size_t i = pos + 1; i < tree_.size(); i += i & (~i + 1)) tree_[i] += delta;
}

void RunningList::rebuild_index() {
  // The linear Fenwick construction: each node passes its sum to its parent.
  tree_.assign(order_.size() + 1, 0);
  for (size_t i = 1; i < tree_.size(); ++i) {
    tree_[i] += block_at(i - 1).procs;
    const size_t parent = i + (i & (~i + 1));
    if (parent < tree_.size()) tree_[parent] += tree_[i];
  }
}

void RunningList::insert(const RunningJob& job) {
  const int64_t end = job.predicted_end();
  if (order_.empty()) {  // (blocks in order_ are never empty)
    const uint32_t slot = new_block();
    pool_[slot].jobs[0] = job;
    pool_[slot].size = 1;
    pool_[slot].procs = job.procs;
    order_.push_back(slot);
    size_ = 1;
    procs_ = job.procs;
    rebuild_index();
    return;
  }
  size_t pos = 0;
  uint32_t k = 0;
  if (seek(end, job.id, pos, k)) {
    throw std::logic_error(fmt::format("internal error: job {} is already in the running list", job.id));
  }
  Block* b = &block_at(pos);
  if (b->size == kBlock) {
    // Split in halves; the job goes into the half its place falls in.
    const uint32_t slot = new_block();  // may reallocate pool_
    b = &block_at(pos);
    Block& right = pool_[slot];
    const uint32_t half = kBlock / 2;
    std::copy(b->jobs.begin() + half, b->jobs.end(), right.jobs.begin());
    right.size = kBlock - half;
    b->size = half;
    right.procs = 0;
    for (uint32_t i = 0; i < right.size; ++i) right.procs += right.jobs[i].procs;
    b->procs -= right.procs;
    order_.insert(order_.begin() + static_cast<std::ptrdiff_t>(pos) + 1, slot);
    rebuild_index();
    if (k > half) {
      ++pos;
      k -= half;
      b = &block_at(pos);
    }
  }
  std::copy_backward(b->jobs.begin() + k, b->jobs.begin() + b->size, b->jobs.begin() + b->size + 1);
  b->jobs[k] = job;
  ++b->size;
  ++size_;
  add_procs(pos, job.procs);
}

bool RunningList::seek(int64_t predicted_end, JobId id, size_t& pos, uint32_t& k) const {
  if (order_.empty()) return false;
  pos = locate(predicted_end, id);
  const Block& b = block_at(pos);
  k = 0;
  uint32_t n = b.size;
  while (n > 0) {  // lower_bound over the block
    const uint32_t half = n / 2;
    if (before(b.jobs[k + half], predicted_end, id)) {
      k += half + 1;
      n -= half + 1;
    } else {
      n = half;
    }
  }
  return k < b.size && b.jobs[k].id == id && b.jobs[k].predicted_end() == predicted_end;
}

const RunningJob* RunningList::find(int64_t predicted_end, JobId id) const {
  size_t pos = 0;
  uint32_t k = 0;
  return seek(predicted_end, id, pos, k) ? &block_at(pos).jobs[k] : nullptr;
}

RunningJob RunningList::erase(int64_t predicted_end, JobId id) {
  size_t pos = 0;
  uint32_t k = 0;
  if (!seek(predicted_end, id, pos, k)) {
    throw std::logic_error(fmt::format("internal error: job {} (predicted end {}) is not in the running list", id,
                                       predicted_end));
  }
  Block& b = block_at(pos);
  const RunningJob job = b.jobs[k];
  std::copy(b.jobs.begin() + k + 1, b.jobs.begin() + b.size, b.jobs.begin() + k);
  --b.size;
  --size_;
  add_procs(pos, -job.procs);
  after_erase(pos);
  return job;
}

void RunningList::after_erase(size_t pos) {
  Block& b = block_at(pos);
  if (b.size == 0) {
    free_.push_back(order_[pos]);
    order_.erase(order_.begin() + static_cast<std::ptrdiff_t>(pos));
    rebuild_index();
    return;
  }
  if (b.size >= kBlock / 4 || order_.size() == 1) return;
  // A block below a quarter joins a neighbour when both fit in one, or else takes jobs from it until both hold
  // half of the two: every block keeps at least kBlock / 4 jobs (when there are two or more), so there are at
  // most 4n / kBlock + 1 blocks, and the next merge or rebalance of these two is kBlock / 4 erasures away.
  const size_t left = pos + 1 < order_.size() ? pos : pos - 1;  // blocks left and left + 1
  Block& a = block_at(left);
  Block& c = block_at(left + 1);
  const uint32_t total = a.size + c.size;
  if (total <= kBlock) {
    std::copy(c.jobs.begin(), c.jobs.begin() + c.size, a.jobs.begin() + a.size);
    a.size = total;
    a.procs += c.procs;
    free_.push_back(order_[left + 1]);
    order_.erase(order_.begin() + static_cast<std::ptrdiff_t>(left) + 1);
    rebuild_index();
    return;
  }
  const uint32_t half = total / 2;  // a's new size
  int64_t moved = 0;                // processors moved from a to c (negative: from c to a)
  if (a.size > half) {
    const uint32_t m = a.size - half;  // a's last m jobs go to the front of c
    std::copy_backward(c.jobs.begin(), c.jobs.begin() + c.size, c.jobs.begin() + c.size + m);
    std::copy(a.jobs.begin() + half, a.jobs.begin() + a.size, c.jobs.begin());
    for (uint32_t i = 0; i < m; ++i) moved += c.jobs[i].procs;
  } else {
    const uint32_t m = half - a.size;  // c's first m jobs go to the back of a
    std::copy(c.jobs.begin(), c.jobs.begin() + m, a.jobs.begin() + a.size);
    std::copy(c.jobs.begin() + m, c.jobs.begin() + c.size, c.jobs.begin());
    for (uint32_t i = 0; i < m; ++i) moved -= a.jobs[a.size + i].procs;
  }
  c.size = total - half;
  a.size = half;
  add_procs(left, -moved);
  add_procs(left + 1, moved);
}

void RunningList::set_prediction(int64_t predicted_end, JobId id, int64_t prediction) {
  RunningJob job = erase(predicted_end, id);
  job.prediction = prediction;
  insert(job);
}

void RunningList::clear() { *this = RunningList(); }

RunningList::const_iterator RunningList::reaching(int64_t procs) const {
  if (empty() || procs > procs_) return end();
  // The last block position whose prefix (the blocks before it included) stays below `procs`.
  size_t pos = 0;
  int64_t below = 0;
  size_t step = 1;
  while (step * 2 < tree_.size()) step *= 2;
  for (; step > 0; step /= 2) {
    if (pos + step < tree_.size() && below + tree_[pos + step] < procs) {
      pos += step;
      below += tree_[pos];
    }
  }
  // Blocks [0, pos) hold `below` < procs processors; the block at pos reaches it.
  const Block& b = block_at(pos);
  uint32_t k = 0;
  for (; k + 1 < b.size; ++k) {
    below += b.jobs[k].procs;
    if (below >= procs) break;
  }
  return {this, pos, k};
}

int64_t RunningList::procs_ending_by(int64_t t) const {
  if (order_.empty()) return 0;
  // The first block with a job ending after t: every block before it counts whole.
  size_t lo = 0, hi = order_.size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    const Block& b = block_at(mid);
    if (b.jobs[b.size - 1].predicted_end() <= t) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  int64_t sum = 0;
  for (size_t i = lo; i > 0; i -= i & (~i + 1)) sum += tree_[i];
  if (lo == order_.size()) return sum;
  const Block& b = block_at(lo);
  for (uint32_t k = 0; k < b.size && b.jobs[k].predicted_end() <= t; ++k) sum += b.jobs[k].procs;
  return sum;
}

bool operator==(const RunningList& a, const RunningList& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

}  // namespace schedlab::sim
