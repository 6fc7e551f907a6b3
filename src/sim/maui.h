// A private header (src/sim): made by name through the registry (sim/scheduler_registry.h).
// Maui as the Talby thesis configured it (§2: "essentially EASY") with the configurable rules that could
// make it differ from EASY, so each can be measured (docs/adaptive.md has the measurements and the Decision):
// - `depth`: how many jobs hold a reservation (Maui's RESERVATIONDEPTH; 1 = EASY's single reservation);
// - `priority`: the order jobs are considered in — `fcfs` (arrival; Maui's default queue-time priority) or
//   `xfactor` (highest expansion factor (wait + prediction) / prediction first; Maui's XFACTOR component);
// - `backfill`: the order the jobs after the last reservation are tried in — `firstfit` (priority order,
//   Maui's default FIRSTFIT), `bestfit` (most processors first) or `shortest` (shortest prediction first);
// - `reservation`: `dynamic` (recomputed at every event, as EASY) or `fixed` (a job keeps the start time of
//   its first reservation while it still fits there, so early terminations widen the backfill window
//   instead of moving the reservation earlier);
// - `arrivals`: at an instant where jobs only arrived (nothing ended), backfill `all` waiting jobs (Maui,
//   §2) or only the `new` ones (classic EASY as the thesis contrasts it with Maui).
// With the defaults the rules are EASY's and the call is EASY's (schedlab/sim/easy.h): the same schedule on
// every log, and EASY's cost. Any other configuration runs on a profile: every call builds an availability profile (src/sim/availability_profile.h) from the running jobs, then
// goes over the queue in priority order: a job that fits now for its whole predicted duration (without
// touching a reservation already placed) starts; otherwise, while fewer than `depth` reservations were
// given, it is reserved at its earliest fit (or at its fixed time). With the defaults this is exactly
// EASY's rule — a job backfills when it fits now and does not touch the head's reservation — and the
// candidate order after the last reservation follows `backfill`.
// Reservations are reported as promises (checked by --check) with fcfs priority and depth 1 only; otherwise the
// reserved job can change from call to call, or a reserved job that starts early can push a later one.
// Durations are predictions held for max(prediction, 1) s; a running job holds its processors until
// max(start + prediction, now + 1) (an overdue job is busy now), as in conservative.
// Cost per call: O(R log R) for the profile of the R running jobs; O(depth × n) for the reservations over n
// profile steps (n <= 2(R + depth) + 1 + the jobs started in the call); O(n) to read what is left free now into
// at most depth + 1 levels (sim/fit_now.h). Then, in arrival order, the C jobs that could fit now, found in
// O(log Q) each by WaitQueue::next_backfill, checked in O(log depth), and for bestfit and shortest sorted in
// O(C log C) — except shortest from 256 waiting jobs, which walks an index by prediction kept by the
// notifications (sim/shortest_first_index.h; O((depth + started) log Q) per call, O(log Q) per arrival, start and
// prediction change). xfactor priority scans all Q waiting jobs for each job to reserve, O(Q) (a heap, O(Q), past
// four of them), and sorts the jobs that fit now by factor.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/availability_profile.h"
#include "sim/fit_now.h"
#include "sim/shortest_first_index.h"
#include "schedlab/sim/easy.h"
#include "schedlab/sim/scheduler.h"

namespace schedlab::sim {

class MauiScheduler final : public Scheduler {
 public:
  struct Options {
    int depth = 1;
    enum class Priority { kFcfs, kXfactor } priority = Priority::kFcfs;
    enum class Backfill { kFirstFit, kBestFit, kShortest } backfill = Backfill::kFirstFit;
    bool fixed_reservations = false;
    bool backfill_new_only_at_arrival = false;
  };
  explicit MauiScheduler(Options options)
      : options_(options),
        easy_rules_(options.depth == 1 && options.priority == Options::Priority::kFcfs &&
                    options.backfill == Options::Backfill::kFirstFit && !options.fixed_reservations) {}
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<MauiScheduler>(*this); }
  std::string_view name() const override { return "maui"; }
  void on_start(const SimState& state, const RunningJob& job) override;
  void on_arrival(const SimState& state, const WaitingJob& job) override;
  void on_termination(const SimState& state, const RunningJob& job) override;
  // backfill=shortest (in arrival order) keeps an index of the waiting jobs by them, as easy-sjbf.
  void on_suspend(const SimState& state, const RunningJob& job) override;
  void on_prediction_change(const SimState& state, JobId job, int64_t old_prediction) override;
  void on_sync(const SimState& state) override;
  void schedule(const SimState& state, Decision& decision) override;

 private:
  bool indexed() const {
    return options_.backfill == Options::Backfill::kShortest && options_.priority == Options::Priority::kFcfs;
  }
  void backfill_shortest_first(const SimState& state, WaitQueue::const_iterator after, Decision& decision);

  Options options_;
  // The defaults (arrivals=new changes nothing without overruns, and EASY tries every job): EASY's call.
  bool easy_rules_ = false;
  EasyScheduler easy_;
  AvailabilityProfile profile_{1};
  FitNow fit_now_;  // the backfill phase of a call
  ShortestFirstIndex index_;  // backfill=shortest with fcfs priority, while the queue is long
  std::unordered_map<JobId, int64_t> fixed_;
  // arrivals=new: the jobs that arrived since the last call, and whether anything else happened.
  std::vector<JobId> arrived_;
  bool other_event_ = true;  // fixed reservations: job -> its first reservation time
  // Scratch (contents irrelevant between calls).
  struct Factor {  // xfactor: (wait + p) / p
    int64_t wait_plus_p = 0, p = 1;
    const WaitingJob* job = nullptr;
  };
  std::vector<Factor> ranked_;
  std::vector<const WaitingJob*> candidates_;
  std::vector<std::pair<int64_t, int64_t>> busy_;
};

}  // namespace schedlab::sim
