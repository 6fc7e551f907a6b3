// The obvious conservative backfilling of conservative_reference.h.
#include "conservative_reference.h"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "hold_steps.h"
#include "schedlab/sim/state.h"

namespace schedlab::testing {
namespace {

using namespace schedlab::sim;

int64_t held(int64_t prediction) { return std::max<int64_t>(prediction, 1); }

class KeepingConservative final : public Scheduler {
 public:
  explicit KeepingConservative(bool fixpoint) : fixpoint_(fixpoint) {}
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<KeepingConservative>(*this); }
  std::string_view name() const override { return "keeping-conservative"; }

  void on_start(const SimState&, const RunningJob& job) override {
    running_[job.id] = reserved_.at(job.id);  // the reservation's hold is the running job's expected occupation
    reserved_.erase(job.id);
  }
  void on_termination(const SimState& state, const RunningJob& job) override {
    if (running_.at(job.id).end > state.now) gained_ = true;  // ended early: processors given back
    running_.erase(job.id);
  }

  void schedule(const SimState& state, Decision& decision) override {
    state_ = &state;
    const int64_t now = state.now;
    // Reservations whose time passed without a start are released.
    for (const WaitingJob& w : state.queue)
      if (reserved_.count(w.id) && reserved_.at(w.id).start < now) release(w.id);
    // Overdue running jobs hold their processors until now + 1, in the running list's order.
    for (const RunningJob& r : state.running) {
      Hold& h = running_.at(r.id);
      if (r.predicted_end() <= now && h.end <= now) {
        make_room(now, now + 1, r.procs);
        h.end = now + 1;
      }
    }
    // The holds follow the predictions: running jobs (in the running list's order), then waiting jobs (queue order).
    for (const RunningJob& r : state.running) {
      Hold& h = running_.at(r.id);
      const int64_t want = std::max(r.predicted_end(), now + 1);
      if (want < h.end) gained_ = true;
      if (want > h.end) make_room(h.end, want, r.procs);
      h.end = want;
    }
    for (const WaitingJob& w : state.queue) {
      if (!reserved_.count(w.id)) continue;
      Hold& h = reserved_.at(w.id);
      const int64_t want = h.start + held(w.prediction);
      if (want < h.end) {
        gained_ = true;
        h.end = want;
      } else if (want > h.end) {
        if (steps_without(w.id).min_free(h.end, want) >= w.procs) {
          h.end = want;
        } else {
          release(w.id);  // its own need grew: it alone moves
        }
      }
    }
    // Compression when processors were given back (one pass in queue order, or passes until no job moves), else
    // only the jobs without a reservation are placed.
    if (gained_) {
      bool moved = false;
      do {
        moved = false;
        for (const WaitingJob& w : state.queue) {
          if (!reserved_.count(w.id)) {
            place(w);
          } else if (reserved_.at(w.id).start > now) {
            Hold& h = reserved_.at(w.id);
            const int64_t d = h.end - h.start;
            const int64_t t = steps_without(w.id).earliest_fit(now, w.procs, d);
            if (t < h.start) {
              h = {t, t + d, w.procs};
              moved = true;
            }
          }
        }
      } while (fixpoint_ && moved);
      gained_ = false;
    } else {
      for (const WaitingJob& w : state.queue)
        if (!reserved_.count(w.id)) place(w);
    }
    for (const WaitingJob& w : state.queue)
      if (reserved_.at(w.id).start == now) decision.start.push_back(w.id);
    // Woken at the earliest later reservation, and every reservation a promise, unless a running job is overdue.
    bool overdue = false;
    for (const RunningJob& r : state.running) overdue = overdue || r.predicted_end() <= now;
    if (overdue) return;
    for (const WaitingJob& w : state.queue) {
      const int64_t t = reserved_.at(w.id).start;
      if (t == now) continue;
      if (!fixpoint_ && (decision.wake_at < 0 || t < decision.wake_at)) decision.wake_at = t;
      if (decision.wants_reservations) decision.reservations.push_back({w.id, t});
    }
  }

 private:
  // Every hold but that of job `except`.
  HoldSteps steps_without(JobId except) const {
    std::vector<Hold> holds;
    for (const auto& [id, h] : running_) holds.push_back(h);
    for (const auto& [id, h] : reserved_)
      if (id != except) holds.push_back(h);
    return HoldSteps(state_->machine.total(), state_->now, holds);
  }
  void release(JobId id) {
    const Hold& h = reserved_.at(id);
    if (h.end > std::max(h.start, state_->now)) gained_ = true;
    reserved_.erase(id);
  }
  // Releases the reservations overlapping [from, to), the latest in queue order first, until `procs` fit there.
  void make_room(int64_t from, int64_t to, int64_t procs) {
    const WaitQueue& queue = state_->queue;
    // (The span is the extension of a running job's hold: `procs` more must be free there.)
    auto fits_extended = [&] { return steps_without(-1).min_free(from, to) >= procs; };
    if (fits_extended()) return;
    for (auto k = queue.rbegin(); k != queue.rend(); ++k) {
      const auto it = reserved_.find(k->id);
      if (it == reserved_.end() || it->second.start >= to || it->second.end <= from) continue;
      release(k->id);
      if (fits_extended()) return;
    }
    throw std::logic_error("reference conservative: running jobs over-commit the machine");
  }
  void place(const WaitingJob& w) {
    const int64_t d = held(w.prediction);
    const int64_t t = steps_without(-1).earliest_fit(state_->now, w.procs, d);
    reserved_[w.id] = {t, t + d, w.procs};
  }

  bool fixpoint_;
  const SimState* state_ = nullptr;
  std::map<JobId, Hold> running_;   // running jobs' holds (start is when they started)
  std::map<JobId, Hold> reserved_;  // waiting jobs' reservations
  bool gained_ = false;             // processors were given back since the last compression
};

}  // namespace

std::unique_ptr<sim::Scheduler> keeping_conservative(bool fixpoint) {
  return std::make_unique<KeepingConservative>(fixpoint);
}

}  // namespace schedlab::testing
