// Conservative backfilling (Mu'alem & Feitelson 2001; Talby thesis §2, shared/spec/talby-thesis.md):
// every waiting job holds a reservation, given in arrival order, and no job may start early if that
// would delay any reservation.
//
// The schedule lives in an availability profile (sim/availability_profile.h): free processors as a step
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
//   shorter prediction, a reservation released below), the waiting jobs are re-placed in queue order:
//   each one takes its earliest fit if that is earlier — never later, since its old place is still free
//   for it. A job that moves vacates room an EARLIER job in the queue may use, so passes repeat until
//   none moves (a fixpoint: every job at its earliest fit given all the others). Without that a
//   reservation could sit behind a hole with no event to start it at its time.
//   To keep this cheap, each job keeps a certificate from its last scan: the intervals before its
//   reservation where too few processors are free, which every earlier window meets. It is scanned
//   again only if processors given back since may have raised one of these intervals to its size
//   (an O(1) test against the span of all the gains first, an O(1) upper bound per gain next, then an
//   exact look at the parts of the intervals that the gains covered).
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
// == machine free, checked at every call, cheap); the profile equals the sum of the holds.
//
// Promises: when Decision::wants_reservations is set (engine --check), every reservation is reported,
// except while a running job is overdue (then the reservations rest on it ending "now + 1", which the
// engine's epoch rule does not cover). wants_reservations also turns the self-check on.
//
// Cost per scheduler call, with Q = waiting jobs, R = running jobs, n = profile steps (<= 2(Q+R)+1),
// G = processor gains in the call (terminations, releases, moves):
//   O(Q + log n) always (passes over the queue); plus O(n) per new arrival (earliest fit + reserve);
//   plus, when processors were given back, compression: per job O(1) to test its certificate against the
//   span of the gains, O(G) when a gain may fall within its blocking intervals, and for
//   the jobs that may move a scan of the profile before their reservation, O(n); so O(Q × (n + G)) per
//   pass in the worst case, usually far less (most jobs are dismissed by their certificate). The number
//   of passes is 1 + the number of rounds in which a moved job frees room for an earlier one (small in
//   practice; bounded since every move is strictly earlier).
//   plus O(Q + R) when a prediction changed. Terminations: O(n) each. Self-check: O((Q + R) log(Q + R)).
//   Measured: CEA-Curie (312,807 jobs, 93,312 processors) ~2.0 s of CPU for reading + simulating on the
//   shared development machine (was ~2.4 s before the span test, the covered-part look-ups and the
//   single search per reserve/release); KTH-SP2 on 100 processors 0.2 s.
// If the notifications ever disagree with the state (e.g. a state copied in from elsewhere), the
// profile is rebuilt from the state: running jobs, then every waiting job placed in queue order.
// State: O(largest job id) per-job slots plus the profile; copied by clone().
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "schedlab/sim/availability_profile.h"
#include "schedlab/sim/scheduler.h"

namespace schedlab::sim {

class ConservativeScheduler final : public Scheduler {
 public:
  struct Options {
    // Verify the invariants above at every call (std::logic_error on a violation). Also on whenever
    // the engine asks for reservations (--check).
    bool self_check = false;
  };

  struct Stats {
    int64_t calls = 0;
    int64_t rebuilds = 0;        // profile rebuilt from the state (first call, or state out of sync)
    int64_t placed = 0;          // reservations given to newly arrived (or released) jobs
    int64_t moved_earlier = 0;   // reservations moved earlier by compression
    int64_t forced_later = 0;    // reservations moved later by lost capacity (see above)
    int64_t released = 0;        // holds released to make room or because their time passed
    int64_t extra_passes = 0;    // compression passes after the first (see schedule())
  };

  ConservativeScheduler() = default;
  explicit ConservativeScheduler(Options options) : options_(options) {}

  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<ConservativeScheduler>(*this); }
  std::string_view name() const override { return "conservative"; }

  void on_arrival(const SimState& state, const WaitingJob& job) override;
  void on_start(const SimState& state, const RunningJob& job) override;
  void on_termination(const SimState& state, const RunningJob& job) override;
  void on_prediction_change(const SimState& state, JobId job, int64_t old_prediction) override;
  void schedule(const SimState& state, Decision& decision) override;

  // For tests and tools: the current reservation of a waiting job (after the last schedule() call), or
  // nothing if the job is not waiting with a reservation.
  std::optional<int64_t> reservation(JobId job) const;
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
    int64_t previous = -1;  // reservation before the release (for Stats::forced_later)
    // kPlaced: why the job cannot start earlier, from its last scan (AvailabilityProfile::Blocking).
    // Valid (certified) until processors are given back inside one of these intervals.
    bool certified = false;
    AvailabilityProfile::Blocking blocking;
    int64_t blocking_lo = 0, blocking_hi = 0;  // the span of `blocking` (when not empty)
    int64_t cert_max = 0;    // at least the most processors free in `blocking` at the last look (< procs)
    int64_t cert_extra = 0;  // processors given back over their span since (see may_move())
    // The span of the gains counted in cert_extra (empty: none): only there can free counts exceed cert_max.
    int64_t extra_lo = std::numeric_limits<int64_t>::max(), extra_hi = std::numeric_limits<int64_t>::min();
  };

  Slot& slot(JobId id);
  void rebuild(const SimState& state);
  // Releases the waiting holds overlapping [from, to), latest in queue order first, until `procs`
  // processors are free on the whole interval.
  void make_room(const SimState& state, int64_t from, int64_t to, int64_t procs);
  void unplace(JobId id, int64_t now);
  // Records processors given back on [start, end) (a chance for compression).
  void gained(int64_t start, int64_t end, int64_t procs);
  void add_gain(int64_t start, int64_t end, int64_t procs, int pass, size_t position);
  void clear_gains();
  // Prepares the look-ups of gains_since_last_look() for compression pass `pass` (called once before
  // each pass, after the previous one is complete).
  void begin_pass(int pass);
  // The range of gains_ recorded since the job at `position` last looked at the profile, and the span
  // [lo, hi) that all of them lie within (lo >= hi: none). Positions must be asked in increasing order
  // within a pass: O(1) amortized.
  struct GainRange {
    size_t first = 0, last = 0;
    int64_t lo = 0, hi = 0;
  };
  GainRange gains_since_last_look(size_t position);
  // Whether a gain recorded so far could let the job at queue position `position` start earlier in
  // the current compression pass (see schedule(), begin_pass()); a necessary condition, not a sufficient one.
  // Updates the bounds of the job's certificate on the way.
  bool may_move(Slot& s, size_t position, int64_t now);
  // Starts a certificate from the intervals a scan just left in s.blocking.
  static void certify(Slot& s);
  // Moves the placed job at queue position `position` to its earliest fit if that is earlier, recording
  // the room it vacated as a gain of pass `pass`. True if it moved.
  bool try_earlier(size_t position, JobId id, int64_t now, int pass);
  void self_check(const SimState& state, const Decision& decision);

  Options options_;
  AvailabilityProfile profile_{1};
  bool initialized_ = false;
  bool desync_ = false;               // a notification did not match the scheduler's bookkeeping
  bool predictions_changed_ = false;  // a prediction changed since the last call
  size_t waiting_ = 0, running_ = 0;  // jobs known in each state (checked against SimState)
  std::vector<Slot> slots_;           // by JobId
  std::vector<JobId> forced_ids_;     // jobs with Slot::forced set (reset at the next call)
  std::vector<int64_t> last_start_;   // self-check: reservation after the previous call (-1: none)
  // Processors given back since the last compression: by terminations, releases and shorter predictions
  // (pass 0), then by the jobs moved in compression pass p at queue position q (recorded in that order).
  struct Gain {
    int64_t start = 0, end = 0;
    int64_t procs = 0;  // processors given back on [start, end)
    int pass = 0;
    size_t position = 0;
  };
  std::vector<Gain> gains_;
  // For gains_since_last_look(): the current pass's gains are gains_[this_begin_, end) and span
  // [this_lo_, this_hi_); the previous pass's are gains_[prev_begin_, this_begin_), and suffix_lo_/hi_[k]
  // is the span of gains_[prev_begin_ + k, this_begin_). prev_cursor_: the first of them after the
  // position last asked about.
  size_t prev_begin_ = 0, this_begin_ = 0, prev_cursor_ = 0;
  int64_t this_lo_ = std::numeric_limits<int64_t>::max(), this_hi_ = std::numeric_limits<int64_t>::min();
  std::vector<int64_t> suffix_lo_, suffix_hi_;
  AvailabilityProfile::Blocking scan_;  // scratch
  Stats stats_;
};

// Factory for the registry: SchedulerConfig::params["check"] = "1"/"true" turns the self-check on.
std::unique_ptr<Scheduler> make_conservative_scheduler(const SchedulerConfig& config);

}  // namespace schedlab::sim
