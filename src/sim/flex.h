// A private header (src/sim): made by name through the registry (sim/scheduler_registry.h).
// Flex: slack-based backfilling (Talby & Feitelson 1999, as the Talby thesis §2 describes it). The rules
// where the thesis is silent are Decisions (docs/adaptive.md, with the measurements behind them):
// - The schedule: the waiting jobs in a priority order, each holding a reservation in an availability
//   profile (as conservative); jobs whose reservation is now start.
// - Slack: every job gets one on arrival, `slack_factor` × the mean wait of the jobs started so far
//   (`slack=avgwait`, the default: the 1999 paper's rule) or `slack_factor` × max(prediction, 60 s)
//   (`slack=estimate`); its deadline = the start it was first promised + its slack. No decision moves a
//   reservation past a deadline (only lost capacity can: a running job outliving its prediction or needing longer).
//   A waiting job whose prediction grows keeps its reservation if the jobs its longer hold displaces stay within
//   their deadlines; otherwise it keeps it only where its longer hold fits beside every other job's, else it alone
//   moves, as in conservative: only its own deadline may then be missed.
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
//   is still free), as conservative; so too at a call after a prediction changed, while a running job is overdue,
//   or when a reservation passed unused (the schedule is redrawn then). One pass: a job that a later job's move
//   could let start earlier waits for the next compression. And as conservative's, the pass scans only where it
//   can matter: a job that had no window before its reservation at its last look (placed at its earliest fit,
//   moved there, or found unable to move) can only find one where processors were given back since — early ends,
//   the old places of jobs an insertion moved later, the moves of the pass — so it is dismissed in O(1) by the
//   bounds of those gains (sim/gain_bounds.h) or searched only over the runs they touch (Options::certificates; the
//   same schedule, which a test and the self-check under --check verify against full scans).
// Durations are predictions held for max(prediction, 1) s; a running job holds its processors until
// max(start + prediction, now + 1) (an overdue job is busy now).
// Under --check (Decision::wants_reservations) every waiting job's deadline is reported as a reservation,
// so the engine verifies that no job starts after its promised start plus its slack.
// Cost per call, with Q waiting jobs, R running and n profile steps (<= 2(Q + R) + 1): O(R log R + Q n) to
// rebuild the profile when a prediction changed or a running job is overdue (otherwise it follows the
// starts, early terminations and arrivals incrementally, O(n) each); a compression pass after processors were
// given back early or an insertion: O(Q + G) O(1) tests (G gains since the last pass) plus a search over the
// gained span for the C jobs not dismissed, O(n) each at worst (and O(n) per job moved); per arrival,
// O(K × Q × n) for the K positions tried (K = 0 when the new job fits now or nowhere earlier than last): a trial
// re-places each job behind its position with one search (O(log n + scan)) and one O(n) vector insertion.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "sim/availability_profile.h"
#include "sim/gain_bounds.h"
#include "schedlab/sim/scheduler.h"

namespace schedlab::sim {

class FlexScheduler final : public Scheduler {
 public:
  struct Options {
    double slack_factor = 1.0;
    enum class Slack { kEstimate, kAverageWait } slack = Slack::kAverageWait;
    enum class Cost { kWork, kWait, kBoundedSlowdown } cost = Cost::kWork;
    // Compression dismisses, in O(1), the jobs that the processors given back since their last look cannot move
    // (sim/gain_bounds.h), and searches only the runs those gains touch for the others. The same schedule either
    // way (tests compare them); off only to measure or check that.
    bool certificates = true;
    // Verify the certificates at every call (std::logic_error on a violation): a certified job's earliest start by
    // a full scan is what the gains since its last look reveal. Also on whenever the engine asks for reservations
    // (--check); every job when the queue is short, else 64 of them in turn.
    bool self_check = false;
  };
  struct Stats {
    int64_t passes = 0;     // compression passes
    int64_t scanned = 0;    // jobs looked at in full (not certified: after a rebuild, or certificates off)
    int64_t dismissed = 0;  // certified jobs the gains since their last look could not move (no scan)
    int64_t searched = 0;   // certified jobs searched only where those gains lie
    int64_t moved = 0;      // jobs moved earlier
    int64_t inserted = 0;   // arrivals placed ahead of waiting jobs
    int64_t dropped = 0;    // insertion candidates dropped: a job would start after its deadline
    int64_t grown_last = 0;  // rebuilds that placed the jobs whose prediction grew after the others
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
  const Stats& stats() const { return stats_; }

 private:
  // A waiting job as the schedule needs it, kept in priority order in one array: the trials walk it job after job,
  // so nothing is looked up by id (the queue's and a map's look-ups took a sixth of the time).
  struct Item {
    JobId id = -1;
    int32_t procs = 0;
    int64_t held = 0;  // max(remaining predicted time, 1): refreshed at each rebuild (a prediction change makes one)
    int64_t submit = 0;
    int64_t reservation = 0;
    int64_t deadline = 0;
    // The job had no window before its reservation when it last looked at the profile (placed at its earliest fit,
    // moved there, or found unable to move), as of gain number `looked`: only the gains from that one on can open
    // one. False after a rebuild (then a full scan).
    bool certified = false;
    uint64_t looked = 0;
  };
  void rebuild(const SimState& state);
  void place_all(int64_t now, bool grown_last);
  // The bounds of the gains since gain number `looked`, during a pass (`this_pass`: the pass's gains so far).
  GainBounds gains_since(uint64_t looked, const GainBounds& this_pass) const;
  void self_check(int64_t now, int64_t calls) const;
  // Records processors given back on [start, end) (`before`: what release() found there) for the certificates.
  void gained(int64_t start, int64_t end, int64_t procs, const AvailabilityProfile::FreeRange& before);
  uint64_t gains_end() const { return gains_base_ + gains_.size(); }
  void compress(int64_t now);
  void place_arrival(const SimState& state, const WaitingJob& job);
  double cost_of(const Item& job, int64_t start, int64_t now) const;

  Options options_;
  Stats stats_;
  int64_t calls_ = 0;
  AvailabilityProfile profile_{1};
  AvailabilityProfile base_{1};                // the running jobs only (rebuilt at every call)
  std::vector<Item> order_;                    // waiting jobs in priority order
  std::vector<JobId> arrived_;                 // arrivals since the last call
  // The profile must be rebuilt from the state (processors given back early, a prediction changed, a
  // synchronisation); otherwise it follows the starts and the arrivals incrementally.
  bool dirty_ = true;
  bool compress_ = false;  // processors were given back early, or an insertion moved jobs
  int64_t earliest_reservation_ = 0;  // after the last call, of the jobs not started (none: int64 max)
  double wait_sum_ = 0;                        // waits of the jobs started so far (slack=avgwait)
  int64_t started_ = 0;
  // The gains since the oldest look of a waiting job: gain number gains_base_ + i is gains_[i].
  std::vector<GainBounds> gains_;
  uint64_t gains_base_ = 0;
  // Scratch.
  std::vector<std::pair<int64_t, int64_t>> busy_;
  std::vector<size_t> pending_;
  std::vector<size_t> grown_;    // rebuild(): the jobs whose prediction grew (positions in order_, ascending)
  std::vector<int64_t> placed_;  // rebuild(): each job's new reservation
  std::vector<int64_t> trial_;
  std::vector<int64_t> best_;
  std::vector<GainBounds> suffix_;  // suffix_[i]: the bounds of gains_[i, end) when a pass began
};

}  // namespace schedlab::sim
