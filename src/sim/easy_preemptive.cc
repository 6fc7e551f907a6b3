#include "schedlab/sim/easy_preemptive.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "sim/availability_profile.h"

namespace schedlab::sim {

void EasyPreemptiveScheduler::schedule(const SimState& state, Decision& decision) {
  const int64_t now = state.now;
  // The schedule is rebuilt at every call (see the header), in the same contiguous profile conservative
  // uses: its scans skip blocks of steps, where a node-based map chased a pointer per step.
  // Who holds which processors until when: the running jobs, then the jobs started in this call.
  std::vector<std::pair<const ProcSet*, int64_t>> busy;
  std::vector<ProcSet> started_sets;  // stable storage for the sets of jobs started in this call
  started_sets.reserve(state.queue.size());
  std::vector<std::pair<int64_t, int64_t>> running_until;
  running_until.reserve(state.running.size());
  for (const RunningJob& r : state.running) {
    const int64_t end = std::max(r.predicted_end(), now + 1);
    running_until.emplace_back(end, r.procs);
    const auto on = state.running_on.find(r.id);
    if (on != state.running_on.end()) busy.emplace_back(&on->second, end);
  }
  AvailabilityProfile profile(state.machine.total(), now);
  profile.assign(now, std::move(running_until));
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
    const int64_t t = profile.reserve_earliest(from, w.procs, d);
    if (t != now) continue;
    Allocation a = held != state.held.end() ? machine.allocate_exactly(w.id, held->second)
                                            : machine.allocate(w.id, w.procs, decision.avoid);
    decision.start.push_back(w.id);
    started_sets.push_back(std::move(a.ranges));
    busy.emplace_back(&started_sets.back(), now + d);
  }
}

}  // namespace schedlab::sim
