// A private header (src/sim): made by name through the registry (sim/scheduler_registry.h).
// Flex: slack-based backfilling (Talby & Feitelson 1999, as the Talby thesis §2 describes it). The rules
// where the thesis is silent are Decisions (docs/adaptive.md, with the measurements behind them):
// - The schedule: the waiting jobs in a priority order, each holding a reservation in an availability
//   profile (as conservative); jobs whose reservation is now start.
// - Slack: every job gets one on arrival, `slack_factor` × the mean wait of the jobs started so far
//   (`slack=avgwait`, the default: the 1999 paper's rule) or `slack_factor` × max(prediction, 60 s)
//   (`slack=estimate`); its deadline = the start it was first promised + its slack. No decision moves a
//   reservation past a deadline (only lost capacity can: a running job outliving its prediction).
// - On arrival, candidate schedules are compared: the new job placed last (at its earliest fit, disturbing
//   nobody), or inserted before the waiting job at position k: the jobs before k keep their reservations, the
//   new job takes its earliest fit among them, and the jobs from k on, in order, keep their reservation where
//   it is still free, else move to their next fit (never earlier). A candidate in which a job would start
//   after its deadline is dropped; the cheapest of the rest is taken (ties: the later position, and last wins
//   every tie). Cost (`cost`): `work` = Σ processors × (start − now), `wait` = Σ (start − now), `bsld` = Σ
//   bounded slowdown (start − submit + p) / max(p, 10 s), over the jobs whose start differs from last's.
//   Which positions are tried: for each start the new job can get, only the last position giving it; none
//   where it would not start before its place last; and since every other job's delay is >= 0 and the new
//   job's own cost grows with k, the search and each trial stop as soon as they cannot win (exact: the
//   cheapest candidate is found).
// - After processors are given back early (a job ends before its prediction) or an insertion moved jobs, the
//   schedule is compressed once in priority order (each job to its earliest fit if earlier: its old place
//   is still free), as conservative.
// Durations are predictions held for max(prediction, 1) s; a running job holds its processors until
// max(start + prediction, now + 1) (an overdue job is busy now).
// Under --check (Decision::wants_reservations) every waiting job's deadline is reported as a reservation,
// so the engine verifies that no job starts after its promised start plus its slack.
// Cost per call, with Q waiting jobs, R running and n profile steps (<= 2(Q + R) + 1): O(R log R + Q n) to
// rebuild the profile when a prediction changed or a running job is overdue (otherwise it follows the
// starts, early terminations and arrivals incrementally, O(n) each); O(Q × n) scans (read-only unless a job
// moves) for a compression pass after processors were given back early or an insertion; per arrival,
// O(K × Q × n) for the K positions tried (K = 0 when the new job fits now or nowhere earlier than last).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/availability_profile.h"
#include "schedlab/sim/scheduler.h"

namespace schedlab::sim {

class FlexScheduler final : public Scheduler {
 public:
  struct Options {
    double slack_factor = 1.0;
    enum class Slack { kEstimate, kAverageWait } slack = Slack::kAverageWait;
    enum class Cost { kWork, kWait, kBoundedSlowdown } cost = Cost::kWork;
  };
  explicit FlexScheduler(Options options) : options_(options) {}
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<FlexScheduler>(*this); }
  std::string_view name() const override { return "flex"; }
  void on_arrival(const SimState& state, const WaitingJob& job) override;
  void on_start(const SimState& state, const RunningJob& job) override;
  void on_termination(const SimState& state, const RunningJob& job) override;
  void on_prediction_change(const SimState&, JobId, int64_t) override { dirty_ = true; }
  void on_sync(const SimState&) override { dirty_ = true; }
  void schedule(const SimState& state, Decision& decision) override;

 private:
  struct Entry {
    int64_t reservation = 0;
    int64_t deadline = 0;
  };
  void rebuild(const SimState& state);
  void compress(const SimState& state);
  void place_arrival(const SimState& state, const WaitingJob& job);
  double cost_of(const WaitingJob& w, int64_t start, int64_t now) const;

  Options options_;
  AvailabilityProfile profile_{1};
  AvailabilityProfile base_{1};                // the running jobs only (rebuilt at every call)
  std::vector<JobId> order_;                   // waiting jobs in priority order
  std::unordered_map<JobId, Entry> entries_;   // per waiting job in order_
  std::vector<JobId> arrived_;                 // arrivals since the last call
  // The profile must be rebuilt from the state (processors given back early, a prediction changed, a
  // synchronisation); otherwise it follows the starts and the arrivals incrementally.
  bool dirty_ = true;
  bool compress_ = false;  // processors were given back early, or an insertion moved jobs
  int64_t earliest_reservation_ = 0;  // after the last call, of the jobs not started (none: int64 max)
  double wait_sum_ = 0;                        // waits of the jobs started so far (slack=avgwait)
  int64_t started_ = 0;
  // Scratch.
  std::vector<std::pair<int64_t, int64_t>> busy_;
  std::vector<JobId> pending_;
  std::vector<int64_t> trial_;
  std::vector<int64_t> best_;
};

}  // namespace schedlab::sim
