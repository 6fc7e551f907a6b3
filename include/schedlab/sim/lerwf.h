// Least-estimated-remaining-work-first, preemptive (Gibbons 1997, docs/simulator.md).
//
// At every scheduler call (arrivals, completions, prediction changes) ALL jobs — running, waiting and
// suspended — are ordered by predicted remaining time (running: expected end - now; waiting: prediction -
// time already run), ties: running jobs first (no needless preemption), then job id. The order is walked
// with the machine's processors as the budget:
// - a new job needs `procs` of the budget;
// - a running job needs its own processors, a suspended job the processors it left (no migration: it
//   resumes only there); either is allotted only if no job earlier in the order claimed one of them;
// - `lerwf` stops at the first job that is not allotted, `lerwf-fill` skips it and goes on.
// Running jobs not allotted are suspended; allotted suspended jobs resume (listed first, on their own
// processors), then allotted new jobs start on the lowest-numbered free processors, avoiding those of the
// next suspended job in the order (the thesis's processor-choice heuristic; used only if nothing else is
// free). The budget check is exact: new jobs never need more processors than the allotted running and
// resumed jobs leave.
// Parameter `resume_delay` (seconds, default 0; the thesis's LSF took up to 30 s): a resumed job holds its
// processors that long before it makes progress again (sim/scheduler.h resume_delay()).
// Cost per call: O((Q + R) log(Q + R) + processor ranges of the running and suspended jobs × log).
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "schedlab/sim/scheduler.h"

namespace schedlab::sim {

class LerwfScheduler final : public Scheduler {
 public:
  explicit LerwfScheduler(bool fill = false, int64_t resume_delay = 0) : fill_(fill), resume_delay_(resume_delay) {}
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<LerwfScheduler>(*this); }
  std::string_view name() const override { return fill_ ? "lerwf-fill" : "lerwf"; }
  bool needs_processors() const override { return true; }
  int64_t resume_delay() const override { return resume_delay_; }
  void schedule(const SimState& state, Decision& decision) override;

 private:
  struct Candidate {
    int64_t remaining = 0;
    bool running = false;
    JobId id = -1;
    int32_t procs = 0;
    const ProcSet* set = nullptr;  // the processors it needs (running or suspended), or none (new job)
  };
  bool fill_;
  int64_t resume_delay_;
  std::vector<Candidate> order_;  // scratch
};

}  // namespace schedlab::sim
