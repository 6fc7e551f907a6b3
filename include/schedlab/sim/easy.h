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
// the queue that hold none), in queue order for easy, sorted by prediction for easy-sjbf (O(C log C) for C of them);
// plus the shadow time (O(log running), sim/shadow.h). The scan stops as soon as no processor is free.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "schedlab/sim/scheduler.h"

namespace schedlab::sim {

class EasyScheduler final : public Scheduler {
 public:
  enum class Order { kQueue, kShortestFirst };
  explicit EasyScheduler(Order backfill_order = Order::kQueue) : order_(backfill_order) {}
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<EasyScheduler>(*this); }
  std::string_view name() const override { return order_ == Order::kQueue ? "easy" : "easy-sjbf"; }
  void schedule(const SimState& state, Decision& decision) override;

 private:
  Order order_;
  // Scratch buffers (contents irrelevant between calls; kept to avoid reallocating).
  std::vector<std::pair<int64_t, int64_t>> started_;
  std::vector<const WaitingJob*> candidates_;  // scratch (valid during one call)
};

}  // namespace schedlab::sim
