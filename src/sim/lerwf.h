// A private header (src/sim): made by name through the registry (sim/scheduler_registry.h).
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
//
// The order is not sorted at each call: a waiting job's remaining time does not change while it waits, so the
// waiting jobs are kept ordered across calls (the notifications), and the running jobs' remaining times all fall
// at the same rate, so the running list's own order (predicted end, id) is theirs, the overdue ones (remaining 0)
// by id. A call merges the two, and once nothing more can be allotted (lerwf stopped, or every processor
// allotted) it visits only the running jobs left (to suspend them) and finds the next suspended job by a search.
// Running jobs hold disjoint processors, so only a suspended job's claim can collide with another: when one is
// considered, the running jobs' processor ranges are sorted once (by first processor, with their owner), and the
// suspended job's ranges are looked up there — it may resume if none of their owners was allotted before it, and
// once it is allotted, those owners are marked (they will be suspended). Two stamps by job id, no sets of claims.
// The owner that blocked a suspended job is remembered: while it runs (the same run), it blocks the job again at
// every call that allots it first, with no look-up.
// Cost per call: O(allotted + R + log Q), plus O(P_R log P_R) for the P_R processor ranges of the running jobs and
// O(ranges × log P_R) per suspended job considered; O(log Q) per arrival, start, suspension and prediction change;
// lerwf-fill goes on while processors are left, from each waiting job it considers to the next that fits in the
// processors left (or is the next suspended one, to avoid): O(log Q) per job considered, not a visit to every
// waiting job that does not fit (sim/fit_order.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <set>
#include <string_view>
#include <vector>

#include "schedlab/sim/scheduler.h"
#include "sim/fit_order.h"

namespace schedlab::sim {

class LerwfScheduler final : public Scheduler {
 public:
  explicit LerwfScheduler(bool fill = false, int64_t resume_delay = 0) : fill_(fill), resume_delay_(resume_delay) {}
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<LerwfScheduler>(*this); }
  std::string_view name() const override { return fill_ ? "lerwf-fill" : "lerwf"; }
  bool needs_processors() const override { return true; }
  int64_t resume_delay() const override { return resume_delay_; }
  void schedule(const SimState& state, Decision& decision) override;

  void on_arrival(const SimState& state, const WaitingJob& job) override;
  void on_start(const SimState& state, const RunningJob& job) override;
  void on_suspend(const SimState& state, const RunningJob& job) override;
  void on_prediction_change(const SimState& state, JobId job, int64_t old_prediction) override;
  void on_sync(const SimState& state) override;

 private:
  struct Key {  // a waiting job's place in the order (remaining, id), and what the walk reads of it
    int64_t remaining = 0;
    JobId id = -1;
    int32_t procs = 0;
    bool held = false;  // suspended: it must resume on the processors it left
    friend bool operator<(const Key& a, const Key& b) {
      return a.remaining != b.remaining ? a.remaining < b.remaining : a.id < b.id;
    }
  };
  void add_waiting(const SimState& state, const WaitingJob& job);
  void remove_waiting(JobId id);
  void rebuild(const SimState& state);

  bool fill_;
  int64_t resume_delay_;
  FitOrder<Key> waiting_;         // every waiting job (new or suspended), in order; lerwf-fill searches it
  std::set<Key> held_;            // the suspended ones among them (they hold a claim on their processors)
  std::vector<int64_t> key_of_;   // job id -> its remaining time in waiting_, -1 when not waiting
  std::vector<RunningJob> overdue_;  // scratch: running jobs with remaining time 0, by id
  std::vector<uint32_t> allotted_;   // by job id: the call (stamp_) that allotted this running job
  struct Blocker {  // a running job on a suspended job's processors that blocked it, in its run-th start
    JobId id = -1;
    uint32_t run = 0;
  };
  // By job id, grown to the largest id met (ids index the workload's jobs).
  Blocker& blocker_of(JobId id) { return grown(blocker_, id, Blocker{}); }
  uint32_t& run_of(JobId id) { return grown(runs_, id, 0u); }
  template <class T>
  static T& grown(std::vector<T>& v, JobId id, T fill) {
    const auto i = static_cast<size_t>(id);
    if (i >= v.size()) v.resize(std::max(i + 1, 2 * v.size()), fill);
    return v[i];
  }
  std::vector<Blocker> blocker_;     // by suspended job id
  std::vector<uint32_t> runs_;       // by job id: how many times it started (or resumed)
  std::vector<uint32_t> blocked_;    // by job id: the call that let a suspended job claim this running job's
                                     // processors (so it is not allotted)
  uint32_t stamp_ = 0;
  std::vector<uint64_t> claimed_words_;  // scratch: a bit per processor a suspended job claimed (0 between calls)
  std::vector<JobId> fresh_;         // scratch: new jobs to start
};

}  // namespace schedlab::sim
