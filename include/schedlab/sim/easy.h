// EASY backfilling (Lifka 1995; the exact rule of docs/conventions.md) and EASY-SJBF.
// - `easy`: start waiting jobs in queue order while the head fits. For the first that does not fit (the
//   head) compute the shadow time and extra processors (sim/shadow.h; an overdue running job counts as
//   ending now). Then scan the rest of the queue in order and start every job with procs <= free and
//   (now + prediction <= shadow or procs <= extra), subtracting its procs from extra when it does not end
//   by the shadow time. The head gets a reservation at the shadow time.
// - `easy-sjbf` (Tsafrir 2007 / Talby): the same, but the backfill candidates are scanned by ascending
//   prediction (ties in queue order); the reservation stays with the oldest job.
// Both use predictions only (with the `estimate` predictor: user estimates).
// Cost per scheduler call: the jobs that could start, found through WaitQueue::next_backfill (which skips ranges of
// the queue that hold none), in queue order for easy; for easy-sjbf sorted by prediction (O(C log C) for C of them)
// while few jobs wait, and from 256 waiting jobs O(log Q) per job started, in an index by prediction that its
// notifications keep (O(log Q) per arrival, start and prediction change; src/sim/shortest_first_index.h); plus the
// shadow time (O(log running), sim/shadow.h). The scan stops as soon as no processor is free.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "schedlab/sim/scheduler.h"

namespace schedlab::sim {

class ShortestFirstIndex;  // src/sim/shortest_first_index.h

class EasyScheduler final : public Scheduler {
 public:
  enum class Order { kQueue, kShortestFirst };
  explicit EasyScheduler(Order backfill_order = Order::kQueue);
  EasyScheduler(const EasyScheduler& other);
  EasyScheduler& operator=(const EasyScheduler& other);
  ~EasyScheduler() override;
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<EasyScheduler>(*this); }
  std::string_view name() const override { return order_ == Order::kQueue ? "easy" : "easy-sjbf"; }
  void schedule(const SimState& state, Decision& decision) override;

  // easy-sjbf keeps its index of the waiting jobs by them (easy needs none).
  void on_arrival(const SimState& state, const WaitingJob& job) override;
  void on_start(const SimState& state, const RunningJob& job) override;
  void on_suspend(const SimState& state, const RunningJob& job) override;
  void on_prediction_change(const SimState& state, JobId job, int64_t old_prediction) override;
  void on_sync(const SimState& state) override;

 private:
  void backfill_shortest_first(const SimState& state, const WaitingJob& head, int64_t shadow_time, int64_t& free,
                               int64_t& extra, Decision& decision);

  Order order_;
  std::unique_ptr<ShortestFirstIndex> index_;  // easy-sjbf only
  // Scratch buffers (contents irrelevant between calls; kept to avoid reallocating).
  std::vector<std::pair<int64_t, int64_t>> started_;
  std::vector<const WaitingJob*> candidates_;  // scratch (valid during one call)
};

}  // namespace schedlab::sim
