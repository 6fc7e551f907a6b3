// First-come-first-served policies (Gibbons 1997), over the queue in (submit, job id) order.
// - `fcfs`: start jobs in queue order; stop at the first that does not fit.
// - `fcfs-fill`: first fit — start every job in queue order that fits; no reservation.
// Cost per scheduler call: O(jobs started + 1) for fcfs, O(queue) for fcfs-fill (stops once the machine is
// full). With reservations requested (--check), fcfs also reports the head's shadow time (sim/shadow.h).
#pragma once

#include <memory>

#include "schedlab/sim/scheduler.h"

namespace schedlab::sim {

class FcfsScheduler final : public Scheduler {
 public:
  explicit FcfsScheduler(bool fill = false) : fill_(fill) {}
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<FcfsScheduler>(*this); }
  std::string_view name() const override { return fill_ ? "fcfs-fill" : "fcfs"; }
  void schedule(const SimState& state, Decision& decision) override;

 private:
  bool fill_;
};

}  // namespace schedlab::sim
