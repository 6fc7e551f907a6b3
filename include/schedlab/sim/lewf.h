// Least-estimated-work-first policies (Gibbons 1997): the queue is ordered by least predicted runtime
// (wall-clock duration, not area), ties in queue order; jobs run to completion (no preemption).
// - `lewf`: start jobs in that order; stop at the first that does not fit.
// - `lewf-fill`: start every job in that order that fits.
// Cost per scheduler call: lewf O(queue × (jobs started + 1)); lewf-fill O(queue + c log c) for the c
// waiting jobs no wider than the free processors.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "schedlab/sim/scheduler.h"

namespace schedlab::sim {

class LewfScheduler final : public Scheduler {
 public:
  explicit LewfScheduler(bool fill = false) : fill_(fill) {}
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<LewfScheduler>(*this); }
  std::string_view name() const override { return fill_ ? "lewf-fill" : "lewf"; }
  void schedule(const SimState& state, Decision& decision) override;

 private:
  bool fill_;
  std::vector<size_t> order_;  // scratch
  std::vector<char> taken_;    // scratch
};

}  // namespace schedlab::sim
