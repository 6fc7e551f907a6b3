#include "schedlab/sim/lewf.h"

#include <algorithm>
#include <limits>

namespace schedlab::sim {

namespace {
constexpr std::pair<int64_t, JobId> kNoKey{std::numeric_limits<int64_t>::max(), std::numeric_limits<JobId>::max()};
}

void LewfScheduler::grow(int32_t procs) {
  size_t leaves = std::max<size_t>(leaves_, 1);
  while (leaves < static_cast<size_t>(procs)) leaves *= 2;
  by_size_.resize(leaves);
  leaves_ = leaves;
  tree_.assign(2 * leaves_, kNoKey);
  for (size_t s = 0; s < leaves_; ++s)
    if (!by_size_[s].empty()) tree_[leaves_ + s] = *by_size_[s].begin();
  for (size_t node = leaves_ - 1; node >= 1; --node) tree_[node] = std::min(tree_[2 * node], tree_[2 * node + 1]);
}

void LewfScheduler::index(const Key& key, int32_t procs) {
  waiting_.insert(key);
  if (!fill_) return;
  if (static_cast<size_t>(procs) > leaves_) grow(procs);
  auto& set = by_size_[static_cast<size_t>(procs - 1)];
  set.insert(key);
  size_t node = leaves_ + static_cast<size_t>(procs - 1);
  if (tree_[node] == *set.begin()) return;
  tree_[node] = *set.begin();
  for (node /= 2; node >= 1; node /= 2) tree_[node] = std::min(tree_[2 * node], tree_[2 * node + 1]);
}

void LewfScheduler::unindex(const Key& key, int32_t procs) {
  if (waiting_.erase(key) == 0 || !fill_) return;
  auto& set = by_size_[static_cast<size_t>(procs - 1)];
  set.erase(key);
  size_t node = leaves_ + static_cast<size_t>(procs - 1);
  const Key first = set.empty() ? kNoKey : *set.begin();
  if (tree_[node] == first) return;
  tree_[node] = first;
  for (node /= 2; node >= 1; node /= 2) tree_[node] = std::min(tree_[2 * node], tree_[2 * node + 1]);
}

void LewfScheduler::on_arrival(const SimState& /*state*/, const WaitingJob& job) {
  prediction_[job.id] = job.prediction;
  index({job.prediction, job.id}, job.procs);
}

void LewfScheduler::on_start(const SimState& state, const RunningJob& job) {
  const auto it = prediction_.find(job.id);
  if (it == prediction_.end()) return;
  unindex({it->second, job.id}, state.job(job.id).procs);
  prediction_.erase(it);
}

void LewfScheduler::on_prediction_change(const SimState& state, JobId job, int64_t /*old_prediction*/) {
  const auto it = prediction_.find(job);
  if (it == prediction_.end()) return;
  // Only waiting jobs are indexed; a running job's key is not in the set and nothing changes.
  const WaitingJob* w = state.queue.find(job);
  if (w == nullptr || !waiting_.contains({it->second, job})) return;
  unindex({it->second, job}, w->procs);
  it->second = w->prediction;
  index({w->prediction, job}, w->procs);
}

void LewfScheduler::rebuild(const SimState& state) {
  waiting_.clear();
  prediction_.clear();
  for (auto& set : by_size_) set.clear();
  std::fill(tree_.begin(), tree_.end(), kNoKey);
  for (const WaitingJob& w : state.queue) on_arrival(state, w);
}

void LewfScheduler::schedule(const SimState& state, Decision& decision) {
  if (waiting_.size() != state.queue.size()) rebuild(state);
  int64_t free = state.machine.free();
  if (free == 0 || waiting_.empty()) return;
  if (!fill_) {
    for (const auto& [prediction, id] : waiting_) {
      const int32_t procs = state.job(id).procs;
      if (procs > free) break;  // lewf: stop at the first job that does not fit
      decision.start.push_back(id);
      free -= procs;
      if (free == 0) break;
    }
    return;
  }
  // lewf-fill: the first job in order among sizes 1..free, until none fits. The chosen jobs leave the
  // index now (on_start then finds nothing to remove).
  while (free > 0) {
    const auto limit = static_cast<size_t>(std::min<int64_t>(free, static_cast<int64_t>(leaves_)));
    // Min over leaves [0, limit): bottom-up segment tree query.
    Key best = kNoKey;
    for (size_t lo = leaves_, hi = leaves_ + limit; lo < hi; lo /= 2, hi /= 2) {
      if (lo & 1) best = std::min(best, tree_[lo++]);
      if (hi & 1) best = std::min(best, tree_[--hi]);
    }
    if (best == kNoKey) break;
    const int32_t procs = state.job(best.second).procs;
    decision.start.push_back(best.second);
    free -= procs;
    unindex(best, procs);
  }
}

}  // namespace schedlab::sim
