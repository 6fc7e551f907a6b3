#include "schedlab/sim/easy_preemptive.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fmt/core.h>

namespace schedlab::sim {

namespace {

// Free processors as a step function: steps_[t] = free from t until the next key. Small and simple: the
// policy rebuilds it at every call (see the header for the cost).
class StepProfile {
 public:
  StepProfile(int64_t now, int64_t free_now) { steps_[now] = free_now; }
  // Takes `procs` processors on [from, to).
  void take(int64_t from, int64_t to, int64_t procs) {
    split(from);
    split(to);
    for (auto it = steps_.find(from); it != steps_.end() && it->first < to; ++it) it->second -= procs;
  }
  // Earliest t >= from with at least `procs` free on [t, t + d).
  int64_t earliest_fit(int64_t from, int64_t procs, int64_t d) const {
    auto it = std::prev(steps_.upper_bound(from));
    int64_t start = from;
    for (; it != steps_.end(); ++it) {
      const int64_t t = std::max(it->first, from);
      if (it->second < procs) {
        start = -1;
        continue;
      }
      if (start < 0) start = t;
      const auto next = std::next(it);
      if (next == steps_.end() || next->first >= start + d) return start;
    }
    return start;  // the last step extends to infinity and frees everything eventually
  }

 private:
  void split(int64_t t) {
    auto it = steps_.upper_bound(t);
    if (it == steps_.begin()) throw std::logic_error("profile split before its origin");
    const int64_t v = std::prev(it)->second;
    steps_.emplace(t, v);
  }
  std::map<int64_t, int64_t> steps_;
};

}  // namespace

void EasyPreemptiveScheduler::schedule(const SimState& state, Decision& decision) {
  const int64_t now = state.now;
  StepProfile profile(now, state.machine.total());
  // Who holds which processors until when: the running jobs, then the jobs started in this call.
  std::vector<std::pair<const ProcSet*, int64_t>> busy;
  std::vector<ProcSet> started_sets;  // stable storage for the sets of jobs started in this call
  started_sets.reserve(state.queue.size());
  for (const RunningJob& r : state.running) {
    const int64_t end = std::max(r.predicted_end(), now + 1);
    profile.take(now, end, r.procs);
    const auto on = state.running_on.find(r.id);
    if (on != state.running_on.end()) busy.emplace_back(&on->second, end);
  }
  // New jobs avoid the processors of the next suspended job to resume.
  for (const WaitingJob& w : state.queue) {
    const auto held = state.held.find(w.id);
    if (held != state.held.end()) {
      decision.avoid = held->second;
      break;
    }
  }
  Machine machine = state.machine;  // the engine allocates exactly like this copy
  for (const WaitingJob& w : state.queue) {
    const int64_t d = std::max<int64_t>(w.remaining(), 1);
    const auto held = state.held.find(w.id);
    int64_t from = now;
    if (held != state.held.end()) {
      for (const auto& [set, end] : busy) {
        if (overlaps(*set, held->second)) from = std::max(from, end);
      }
    }
    const int64_t t = profile.earliest_fit(from, w.procs, d);
    profile.take(t, t + d, w.procs);
    if (t != now) continue;
    Allocation a = held != state.held.end() ? machine.allocate_exactly(w.id, held->second)
                                            : machine.allocate(w.id, w.procs, decision.avoid);
    decision.start.push_back(w.id);
    started_sets.push_back(std::move(a.ranges));
    busy.emplace_back(&started_sets.back(), now + d);
  }
}

}  // namespace schedlab::sim
