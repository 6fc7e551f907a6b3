// Least-estimated-work-first policies (Gibbons 1997): the queue is ordered by least predicted runtime
// (wall-clock duration, not area), ties in queue order; jobs run to completion (no preemption).
// - `lewf`: start jobs in that order; stop at the first that does not fit.
// - `lewf-fill`: start every job in that order that fits.
// Both keep the waiting jobs in an ordered index (prediction, job id) maintained through the scheduler
// hooks, so a saturated queue (hundreds of thousands of waiting jobs) costs O(log queue) per event:
// - lewf: O((jobs started + 1) + log queue) per call, O(log queue) per arrival, start or prediction change;
// - lewf-fill: O((jobs started + 1) × log P) per call, P = machine size: starting every job that fits, in
//   order, is the same as repeatedly starting the first job in order among those with procs <= free (free
//   only shrinks, so a job skipped once never fits later in the call); a segment tree over job sizes keeps
//   the first job in order per size range, so a call never walks jobs that cannot fit.
// Job ids follow queue order (sim/state.h), so (prediction, id) breaks ties in queue order. If the index is
// out of step with the state (a scheduler given a copied state mid-run), it is rebuilt from the queue.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>
#include <utility>

#include "schedlab/sim/scheduler.h"

namespace schedlab::sim {

class LewfScheduler final : public Scheduler {
 public:
  explicit LewfScheduler(bool fill = false) : fill_(fill) {}
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<LewfScheduler>(*this); }
  std::string_view name() const override { return fill_ ? "lewf-fill" : "lewf"; }
  void on_arrival(const SimState& state, const WaitingJob& job) override;
  void on_start(const SimState& state, const RunningJob& job) override;
  void on_prediction_change(const SimState& state, JobId job, int64_t old_prediction) override;
  void on_sync(const SimState& state) override { rebuild(state); }
  void schedule(const SimState& state, Decision& decision) override;

 private:
  using Key = std::pair<int64_t, JobId>;  // (prediction, id)
  void rebuild(const SimState& state);

  bool fill_;
  void index(const Key& key, int32_t procs);
  void unindex(const Key& key, int32_t procs);
  void grow(int32_t procs);  // room for sizes up to procs
  std::set<Key> waiting_;
  // The key under which each waiting job is indexed (waiting jobs only, so a clone copies the queue's size).
  std::unordered_map<JobId, int64_t> prediction_;
  // lewf-fill: waiting jobs by size (index procs - 1), and a min segment tree over the sizes' first keys. Sized
  // by the largest job seen, not the machine (doubled when a larger one arrives): a machine of 10^11 processors
  // would need terabytes.
  std::vector<std::set<Key>> by_size_;
  std::vector<Key> tree_;  // tree_[leaves_ + s] = first key of size s + 1; inner nodes: min of children
  size_t leaves_ = 0;
};

}  // namespace schedlab::sim
