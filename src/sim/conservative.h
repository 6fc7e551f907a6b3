// A private header (src/sim): the scheduler is made by name through the registry (sim/scheduler_registry.h).
// Conservative backfilling (Mu'alem & Feitelson 2001; Talby thesis §2, docs/simulator.md):
// every waiting job holds a reservation, given in arrival order, and no job may start early if that
// would delay any reservation.
//
// The schedule lives in an availability profile (src/sim/availability_profile.h, private): free processors as a step
// function of time, built from the running jobs' expected ends and the waiting jobs' reservations.
// Durations are PREDICTIONS (WaitingJob/RunningJob::prediction), never raw estimates or runtimes.
//
// Rules (all times integer seconds):
// - Held duration. A job is placed for max(prediction, 1) s: a zero-length hold would let a job "fit"
//   on processors that are busy now.
// - Running jobs. A running job holds its processors until max(start + prediction, now + 1). The
//   "+ 1" is the overdue rule: a job still running past its prediction is expected to end one second
//   from now — as soon as it can — so reservations behind it stay as early as possible, but no job can
//   ever START now on processors that are busy now. (SimState::expected_end says "now" for such a job;
//   for a profile that would mean its processors look free at this instant, which they are not.)
// - Arrival. A new job gets the earliest reservation that fits in the profile holding every existing
//   reservation: it disturbs none of them.
// - Start. At each scheduler call the jobs whose reservation is now start (in queue order). A job thus
//   starts early ("backfills") exactly when a hole before its reservation lets it.
// - Compression. Whenever processors were given back earlier than expected (an early termination, a
//   shorter prediction, a reservation released below), one pass goes over the queue in order and moves
//   each job to its earliest fit if that is earlier — never later, since its old place is still free for
//   it (Mu'alem & Feitelson's compression; issue #3: "re-placed in queue order"). A job that moves may
//   vacate room that a job EARLIER in the queue could use; that job takes it at the next compression.
//   Meanwhile its reservation may rest on no event (the hold it followed moved away), so the scheduler
//   asks to be woken at the earliest reservation (Decision::wake_at), except while a running job is
//   overdue (then reservations are no promises, and that job's end is an event).
//   Option compress=fixpoint (Options::fixpoint) repeats the pass until no job moves instead: every job
//   then sits at its earliest fit given all the others, and every reservation is the end of a hold or
//   now, so no wake-up is needed. It is the tighter schedule, but a pass costs O(Q) and their number
//   grows with the queue (4.7 per call on the saturated log below at 100k jobs, 8.7 at 300k).
//   To keep this cheap, no job is scanned in full to learn that it cannot move. At its last look (when
//   placed or moved at its earliest fit, or when found unable to move) a job had no earlier window, and
//   losses never open one; so a new window must contain a point where a gain since lifted the free
//   count from below the job's size to at least its size (the gains since: those of this call, and the
//   moves of the last pass by jobs behind it in the queue, made after it was visited). Each gain records
//   the most processors free on its region just after it and the fewest just before; a job is dismissed
//   in O(1) unless the span of the gains since its last look lies before its reservation and its size
//   lies between those two bounds. Otherwise only the runs of enough free processors that overlap that
//   span are looked at (AvailabilityProfile::earliest_fit_overlapping), and the first that lasts the
//   job's duration, or reaches its reservation, gives its new start: the same start a full scan would give.
//   And the jobs found unable to move teach the ones behind them in the same pass: if a job of p processors
//   held for d from L has no window before L, then no job of at least p processors held at least d from L' >= L
//   has a window starting before L either (its window would contain one of the first job's), until the profile
//   gains processors before L. So a job covered by such a failure with L' = L is not looked at, and otherwise
//   its look starts at L (Failure; the 8 latest failures of the pass are kept).
// - Lost capacity (the only way a reservation can move later; each such move is counted as "forced"):
//   * an overdue running job is extended to now + 1 s; if that does not fit, the reservations starting
//     now that overlap it are released, the latest in queue order first, until it does;
//   * a running job's prediction grows: its hold is extended, releasing overlapping reservations, the
//     latest in queue order first, until it fits;
//   * a waiting job's prediction grows: its hold is extended in place if that fits, otherwise it alone
//     is released (its own need changed; other reservations are kept);
//   * a reservation whose time has passed without the job starting (possible only after an overrun)
//     is released.
//   Released jobs are re-placed during the queue-order pass above, at their earliest fit.
// Invariant (checked by the self-check): between two calls, no reservation moves later except by a
// forced move above; processors are never over-committed (profile free now + processors started now
// == machine free, checked at every call, cheap); the profile equals the sum of the holds; and the
// certificates are exact: a waiting job's earliest start by a full scan is what earliest_start()
// finds from the gains since its last look (every job when the queue is short, 64 in turn otherwise).
//
// Promises: when Decision::wants_reservations is set (engine --check), every reservation is reported,
// except while a running job is overdue (then the reservations rest on it ending "now + 1", which the
// engine's epoch rule does not cover). wants_reservations also turns the self-check on.
//
// Cost per scheduler call, with Q = waiting jobs, R = running jobs, n = profile steps (<= 2(Q+R)+1),
// P = compression passes in the call (1, or more with compress=fixpoint), C = jobs not dismissed by the
// O(1) test, r = runs they meet:
//   O(log Q) per reservation given (the heap of reservation times, also the wake-up time) plus a scan
//   to place each new job; when processors were given back, compression: O(P × Q) O(1) tests plus
//   O(C × r × s) for the runs (C: minus the jobs covered by a failure, after an O(8) look-up), where a scan s is O(n) on short profiles (< 256 steps) and
//   O(n / 16 + 16) on long ones (block maxima and minima); plus O(n) per move while the profile is one vector
//   (up to 4,096 steps), O(n / 16 + 64) beyond, where it is kept in blocks of 16 to 64 steps
//   (sim/availability_profile.h).
//   So O(Q + C × n) per event, not O(Q log Q): C grows with Q (docs/performance.md has the measurements
//   and the alternatives tried). Plus O(Q + R) when a prediction changed. Self-check: O((Q + R) log(Q + R) + 64 n).
// If the notifications ever disagree with the state (e.g. a state copied in from elsewhere), the
// profile is rebuilt from the state: running jobs, then every waiting job placed in queue order.
// State: a slot per job from the oldest live one to the newest arrival, plus the profile; copied by clone().
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/availability_profile.h"
#include "sim/gain_bounds.h"
#include "schedlab/sim/scheduler.h"

namespace schedlab::sim {

class ConservativeScheduler final : public Scheduler {
 public:
  struct Options {
    // Verify the invariants above at every call (std::logic_error on a violation). Also on whenever
    // the engine asks for reservations (--check).
    bool self_check = false;
    // Compression until no job moves (see the header comment) instead of one pass; no wake-ups needed.
    bool fixpoint = false;
    // Use the failures of earlier jobs in a pass to skip or shorten searches (see Failure). The same schedule
    // either way (a test compares them); off only to measure or check that.
    bool remember_failures = true;
  };

  struct Stats {
    int64_t calls = 0;
    int64_t rebuilds = 0;        // profile rebuilt from the state (first call, or state out of sync)
    int64_t placed = 0;          // reservations given to newly arrived (or released) jobs
    int64_t moved_earlier = 0;   // reservations moved earlier by compression
    int64_t forced_later = 0;    // reservations moved later by lost capacity (see above)
    int64_t released = 0;        // holds released to make room or because their time passed
    int64_t passes = 0;          // compression passes (calls with processors given back)
    // Jobs an earlier failure (see Failure) showed unable to move, without a look at the profile; and jobs whose
    // look started later than now thanks to one.
    int64_t failure_skips = 0;
    int64_t failure_narrowed = 0;
  };

  ConservativeScheduler() = default;
  explicit ConservativeScheduler(Options options) : options_(options) {}

  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<ConservativeScheduler>(*this); }
  std::string_view name() const override { return "conservative"; }

  void on_arrival(const SimState& state, const WaitingJob& job) override;
  void on_start(const SimState& state, const RunningJob& job) override;
  void on_termination(const SimState& state, const RunningJob& job) override;
  void on_prediction_change(const SimState& state, JobId job, int64_t old_prediction) override;
  // The profile is rebuilt from the state at the next call.
  void on_sync(const SimState& /*state*/) override { desync_ = true; }
  void schedule(const SimState& state, Decision& decision) override;

  // For tests and tools: the current reservation of a waiting job (after the last schedule() call), or
  // nothing if the job is not waiting with a reservation.
  std::optional<int64_t> reservation(JobId job) const;
  // Slots held: from the oldest live job to the newest arrival (what clone() copies besides the profile).
  size_t slots_held() const { return used_ - dead_front_; }
  const AvailabilityProfile& profile() const { return profile_; }
  const Stats& stats() const { return stats_; }

 private:
  enum class Status : uint8_t { kNone, kWaiting, kPlaced, kRunning };
  struct Slot {
    int64_t start = 0;  // kPlaced: reservation time; kRunning: start time
    int64_t end = 0;    // end of the hold in the profile (kPlaced, kRunning)
    int32_t procs = 0;
    Status status = Status::kNone;
    bool forced = false;  // released during the current call (lost capacity): may move later
    // kPlaced: the job had no window before its reservation when it last looked at the profile (it was
    // placed or moved at its earliest fit, or found none), so only processors given back since can open
    // one (see earliest_start()). False after its own duration changed: then it is scanned in full.
    bool certified = false;
    int64_t previous = -1;  // reservation before the release (for Stats::forced_later)
    uint64_t seq = 0;       // order of arrival: the queue order (self-checked)
    int64_t listed = -1;    // the call that last listed the job as starting
  };

  Slot& slot(JobId id);
  void rebuild(const SimState& state);
  // The steps of schedule(), in order.
  void catch_up(const SimState& state);
  void follow_prediction_changes(const SimState& state);
  void compress_and_place(const WaitQueue& queue, int64_t now);
  void place(const WaitingJob& w, Slot& s, int64_t now);
  int64_t start_due_jobs(const WaitQueue& queue, int64_t now, Decision& decision);
  void request_wake_up_and_report(const SimState& state, Decision& decision);
  // Releases the waiting holds overlapping [from, to), latest in queue order first, until `procs`
  // processors are free on the whole interval.
  void make_room(const SimState& state, int64_t from, int64_t to, int64_t procs);
  void unplace(JobId id, int64_t now);
  // Gives back `procs` processors on [start, end) to the profile and records the gain (a chance for compression;
  // mover: see Gain).
  void give_back(int64_t start, int64_t end, int64_t procs, int64_t mover = -1);

  // Processors given back on [start, end), with bounds on the free processors there (see earliest_start()).
  struct Gain {
    int64_t start = 0, end = 0;
    int64_t most = 0;   // the most processors free on [start, end) just after (an upper bound from then on)
    int64_t least = 0;  // the fewest free on [start, end) just before
    int64_t mover = -1;  // the arrival number (Slot::seq) of the job whose move gave them back; -1: not a move
  };
  using Bounds = GainBounds;  // what a set of gains can do (sim/gain_bounds.h)
  // The gains since the job with arrival number `seq` last looked at the profile, during a pass (jobs are
  // asked in queue order): O(1) amortised.
  Bounds gains_since_last_look(uint64_t seq);
  // Ends a compression pass: its moves are kept for the jobs visited before them.
  void end_pass();
  // The earliest start of the placed job `s` (its reservation if none is earlier), given the bounds of the
  // gains since its last look: O(1) when they cannot hold it, else a look at the runs of free processors
  // overlapping them (or a full scan of the profile before its reservation when it is not certified).
  int64_t earliest_start(const Slot& s, const Bounds& gains, int64_t now) const;
  // Moves the placed job to its earliest start if that is earlier, recording the room it vacated.
  void try_earlier(JobId id, Slot& s, int64_t now);
  // Failures of this pass since the profile last gained processors: a job of `procs` processors held for
  // `duration` from `limit` had no window before `limit`. Then no job at least as large and as long, reserved
  // no earlier, has a window starting before `limit` either: [t, min(t + its duration, its limit)) contains
  // [t, min(t + duration, limit)). The profile only lost processors since (placements), which opens no window.
  // Kept as a ring of the most recent kFailures (8 measured best on CEA-Curie among 1 to 64: more spare more
  // searches but cost more to look through), column by column so that the look-up is a few vector instructions; a
  // free or forgotten entry has procs = kNoFailure, which covers no job.
  static constexpr size_t kFailures = 8;
  static constexpr int64_t kNoFailure = std::numeric_limits<int64_t>::max();
  struct Failures {
    Failures() { std::fill(std::begin(procs), std::end(procs), kNoFailure); }
    int64_t procs[kFailures], duration[kFailures] = {}, limit[kFailures] = {};
  };
  Failures failures_{};
  size_t failure_next_ = 0;
  void forget_failures();
  // The latest limit of a failure that covers a job of `procs` processors held `duration` from `limit`: it has
  // no window starting before that (`now` when none covers it).
  int64_t no_window_before(int64_t procs, int64_t duration, int64_t limit, int64_t now) const;
  void failed(int64_t procs, int64_t duration, int64_t limit);
  // Processors were given back from `gain_start` on: the failures with a later limit are dropped.
  void forget_failures_after(int64_t gain_start);
  void self_check(const SimState& state, const Decision& decision);

  Options options_;
  AvailabilityProfile profile_{1};
  bool initialized_ = false;
  bool desync_ = false;               // a notification did not match the scheduler's bookkeeping
  bool predictions_changed_ = false;  // a prediction changed since the last call
  size_t waiting_ = 0, running_ = 0;  // jobs known in each state (checked against SimState)
  // Slots of jobs slot_base_, slot_base_ + 1, ...: the jobs below slot_base_ are done, so the window spans
  // the live jobs (from the oldest waiting or running one) and a clone() copies that, not every job so far.
  std::vector<Slot> slots_;
  JobId slot_base_ = 0;
  size_t used_ = 0;        // slots_[0, used_) have been given to a job (the rest is spare capacity)
  size_t dead_front_ = 0;  // slots_[0, dead_front_) are done jobs, erased in batches
  Slot dead_;  // what at() gives for a job below the window (a stale reference: a done job)
  Slot& at(JobId id) {
    if (id < slot_base_) return dead_ = Slot{};
    return slots_[static_cast<size_t>(id - slot_base_)];
  }
  const Slot& at(JobId id) const {
    static const Slot kDead{};
    if (id < slot_base_) return kDead;
    return slots_[static_cast<size_t>(id - slot_base_)];
  }
  // Drops the done jobs at the front of the window (amortised O(1) per job).
  void drop_done_slots();
  std::vector<JobId> forced_ids_;     // jobs with Slot::forced set (reset at the next call)
  std::vector<int64_t> last_start_;   // self-check: reservation after the previous call (-1: none)
  // Gains since the last compression pass began (terminations, releases, shorter predictions, and the
  // moves of the pass so far): every job visited sees all of them.
  Bounds fresh_;
  size_t fresh_count_ = 0;
  std::vector<Gain> moves_;  // the moves of the current pass, in queue order
  // The moves of the last pass, in queue order, and the bounds of each suffix (carried_suffix_[k]: of
  // carried_[k..]); carried_cursor_: the first move behind the job being visited.
  std::vector<Gain> carried_;
  std::vector<Bounds> carried_suffix_{Bounds{}};
  size_t carried_cursor_ = 0;
  // A reservation was given or moved (pushes it on due_).
  void reserved(JobId id);
  // Reservation times of the placed jobs, earliest first (a min-heap), for what schedule() needs of them:
  // the reservations that have passed, and those due now. Lazy: an entry is stale once its job moved,
  // started or lost its reservation (checked against the slot when it comes out). O(log Q) per
  // reservation given, instead of two passes over the queue at every call.
  std::vector<std::pair<int64_t, JobId>> due_;
  uint64_t next_seq_ = 0;
  // Waiting jobs without a reservation (arrived or released since the last call), any order.
  std::vector<JobId> unplaced_;
  std::vector<std::pair<uint64_t, JobId>> starting_;  // scratch: (seq, job)
  Stats stats_;
};


}  // namespace schedlab::sim
