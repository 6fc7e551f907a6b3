#include "schedlab/sim/lewf.h"

#include <algorithm>

namespace schedlab::sim {

void LewfScheduler::on_arrival(const SimState& /*state*/, const WaitingJob& job) {
  const auto i = static_cast<size_t>(job.id);
  if (i >= prediction_.size()) prediction_.resize(std::max(i + 1, prediction_.size() * 2), -1);
  prediction_[i] = job.prediction;
  waiting_.insert({job.prediction, job.id});
}

void LewfScheduler::on_start(const SimState& /*state*/, const RunningJob& job) {
  const auto i = static_cast<size_t>(job.id);
  if (i < prediction_.size()) waiting_.erase({prediction_[i], job.id});
}

void LewfScheduler::on_prediction_change(const SimState& state, JobId job, int64_t /*old_prediction*/) {
  const auto i = static_cast<size_t>(job);
  if (i >= prediction_.size()) return;
  // Only waiting jobs are indexed; a running job's key is not in the set and nothing changes.
  auto it = waiting_.find({prediction_[i], job});
  if (it == waiting_.end()) return;
  waiting_.erase(it);
  // The queue is ordered by (submit, id) and ids follow that order: binary search by id.
  auto w = std::lower_bound(state.queue.begin(), state.queue.end(), job,
                            [](const WaitingJob& q, JobId id) { return q.id < id; });
  if (w == state.queue.end() || w->id != job) return;
  prediction_[i] = w->prediction;
  waiting_.insert({w->prediction, job});
}

void LewfScheduler::rebuild(const SimState& state) {
  waiting_.clear();
  for (const WaitingJob& w : state.queue) on_arrival(state, w);
}

void LewfScheduler::schedule(const SimState& state, Decision& decision) {
  if (waiting_.size() != state.queue.size()) rebuild(state);
  int64_t free = state.machine.free();
  if (free == 0 || waiting_.empty()) return;
  for (const auto& [prediction, id] : waiting_) {
    if (free == 0) break;
    const int32_t procs = state.job(id).procs;
    if (procs <= free) {
      decision.start.push_back(id);
      free -= procs;
    } else if (!fill_) {
      break;  // lewf: stop at the first job that does not fit
    }
  }
}

}  // namespace schedlab::sim
