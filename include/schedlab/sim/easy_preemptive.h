// Gibbons's (1997) preemptive "EASY" (docs/simulator.md): backfilling in which no job is
// delayed by one submitted after it, and a job that outlives its prediction is suspended (not killed),
// re-queued at the back "as if resubmitted" with a fresh prediction (the predictor's, else time run + its
// prediction at arrival; sim/scheduler.h), and later resumed on the processors it left.
//
// Policy, at every call, recomputed from the state (so suspensions, re-queued jobs and processor
// constraints need no incremental bookkeeping):
// - A step profile of free processors is built from the running jobs (each busy until its expected end,
//   an overdue one until now + 1).
// - The queue is walked in order (arrival order, re-queued jobs at the back). Each job is placed at its
//   earliest fit for max(predicted remaining time, 1) s; a suspended job no earlier than the time all of its
//   own processors are free (the running jobs holding them end, or jobs started earlier in this call end).
//   Jobs placed at `now` start (suspended ones resume in place); the others hold their place in the profile,
//   so later jobs can only use holes that delay no earlier job (conservative backfilling).
// - New jobs avoid the processors of the first suspended job in the queue (the next to resume), using them
//   only when nothing else is free.
// Because the machine may give a new job processors that a suspended job's reservation needs (the profile
// counts processors, it does not assign them), a suspended job's reservation is a best effort; reservations
// of other jobs are exact, but they are not reported as promises (a suspension can break them).
// Parameter `resume_delay` (seconds, default 0): sim/scheduler.h resume_delay().
// Cost per call, with n profile steps (<= 2(Q + R) + 1): O(R log R) to build the profile (the same contiguous
// AvailabilityProfile conservative uses), then per waiting job a search and a reservation, O(n) at worst (vector
// insertion). Three shortcuts leave every decision as the rule above makes it: the walk stops once fewer
// processors are free now than the smallest job left needs (nothing after could start now); a job's search starts
// at the fit of a job placed before it that is no larger and no longer (it cannot fit earlier: reservations only
// take processors away; sizes grouped two classes per octave, durations exact); and the suspended jobs find when
// their processors are free in one merge of their ranges (sorted once per change of the suspended set) with the
// running jobs' (sorted once per call that needs them), O(ranges held + ranges running), instead of a walk over
// every running job's processors for each.
// So O(Q × n) at worst: meant for preemption studies (hundreds to a few thousand jobs in the queue), not for
// saturated million-job logs (measurements: docs/performance.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "schedlab/sim/scheduler.h"

namespace schedlab::sim {

class EasyPreemptiveScheduler final : public Scheduler {
 public:
  explicit EasyPreemptiveScheduler(int64_t resume_delay = 0) : resume_delay_(resume_delay) {}
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<EasyPreemptiveScheduler>(*this); }
  std::string_view name() const override { return "easy-preemptive"; }
  Overrun overrun() const override { return Overrun::kSuspend; }
  bool needs_processors() const override { return true; }
  int64_t resume_delay() const override { return resume_delay_; }
  void schedule(const SimState& state, Decision& decision) override;

 private:
  // free_from_ for the state's suspended jobs (held_seen_ and held_ranges_ first brought up to date).
  void find_free_from(const SimState& state);
  // The suspended jobs' processors (state.held), kept from call to call while they are unchanged: they change only
  // at a suspension or a resume, and are looked up at almost every call. Compared with state.held at each use.
  struct HeldRange {
    int32_t lo, hi;
    uint32_t slot;  // the job's index in held_seen_
  };
  std::vector<std::pair<JobId, ProcSet>> held_seen_;  // state.held as last seen, by id
  std::vector<HeldRange> held_ranges_;                // their ranges, sorted by first processor
  std::vector<int64_t> free_from_;                    // per slot: when the running jobs leave its processors
  int64_t resume_delay_;
};

}  // namespace schedlab::sim
