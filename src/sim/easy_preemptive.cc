#include "schedlab/sim/easy_preemptive.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "sim/availability_profile.h"
#include "sim/fit_floor.h"
#include "sim/owned_ranges.h"

namespace schedlab::sim {
namespace {

// The processors of the running jobs with their holders' expected ends, for a suspended job's earliest start: when
// all of its processors are free again (it was a walk over every running job's set per suspended job, a third of the
// scheduler's time on CTC-SP2). Built only when the queue has a suspended job to place.
void build_busy(const SimState& state, OwnedRanges<int64_t>& busy) {
  std::vector<std::pair<JobId, int64_t>> ends;  // by id, as running_on is
  ends.reserve(state.running.size());
  for (const RunningJob& r : state.running) ends.emplace_back(r.id, std::max(r.predicted_end(), state.now + 1));
  std::sort(ends.begin(), ends.end());
  busy.clear();
  auto e = ends.begin();
  for (const auto& [id, set] : state.running_on) {
    while (e != ends.end() && e->first < id) ++e;
    if (e != ends.end() && e->first == id) busy.add(set, e->second);
  }
  busy.sort();
}

}  // namespace

void EasyPreemptiveScheduler::find_free_from(const SimState& state) {
  const bool same = held_seen_.size() == state.held.size() &&
                    std::equal(state.held.begin(), state.held.end(), held_seen_.begin(),
                               [](const auto& a, const auto& b) { return a.first == b.first && a.second == b.second; });
  if (!same) {
    held_seen_.assign(state.held.begin(), state.held.end());
    held_ranges_.clear();
    for (size_t slot = 0; slot < held_seen_.size(); ++slot)
      for (const ProcRange& r : held_seen_[slot].second)
        held_ranges_.push_back({r.lo, r.hi, static_cast<uint32_t>(slot)});
    std::sort(held_ranges_.begin(), held_ranges_.end(),
              [](const HeldRange& a, const HeldRange& b) { return a.lo < b.lo; });
  }
  OwnedRanges<int64_t> running;  // the running jobs' processors, with their expected ends
  build_busy(state, running);
  free_from_.assign(held_seen_.size(), state.now);
  running.largest_overlapping(held_ranges_, [&](const HeldRange& h, int64_t end) {
    free_from_[h.slot] = std::max(free_from_[h.slot], end);
  });
}

void EasyPreemptiveScheduler::schedule(const SimState& state, Decision& decision) {
  const int64_t now = state.now;
  if (state.queue.empty()) return;
  // The schedule is rebuilt at every call (see the header), in the same contiguous profile conservative
  // uses: its scans skip blocks of steps, where a node-based map chased a pointer per step.
  std::vector<std::pair<int64_t, int64_t>> running_until;
  running_until.reserve(state.running.size());
  for (const RunningJob& r : state.running)
    running_until.emplace_back(std::max(r.predicted_end(), now + 1), r.procs);
  AvailabilityProfile profile(state.machine.total(), now);
  profile.assign(now, std::move(running_until));
  // New jobs avoid the processors of the next suspended job to resume.
  for (const WaitingJob& w : state.queue) {
    if (!w.suspended()) continue;
    const auto held = state.held.find(w.id);
    if (held != state.held.end()) {
      decision.avoid = held->second;
      break;
    }
  }
  // Only a job that fits now can start, and reservations only ever lower what is free now: once fewer
  // processors are free now than the smallest job left in the queue needs, the rest of the walk would only
  // place reservations that nothing reads. The same decisions, without most of the walk on a busy machine.
  std::vector<int64_t> smallest_left(state.queue.size());
  {
    int64_t least = state.machine.total() + 1;
    size_t i = smallest_left.size();
    for (auto it = state.queue.end(); it != state.queue.begin();) {
      --it;
      least = std::min<int64_t>(least, it->procs);
      smallest_left[--i] = least;
    }
  }
  bool free_from_known = false;  // free_from_, computed at the first suspended job the walk reaches
  std::vector<std::pair<ProcSet, int64_t>> started;    // this call's starts: processors, expected end
  std::optional<Machine> machine;  // a copy the engine allocates exactly like, made at the first start
  FitFloor fits(state.machine.total());
  size_t i = 0;
  for (auto it = state.queue.begin(); it != state.queue.end(); ++it, ++i) {
    const WaitingJob& w = *it;
    if (profile.free_at(now) < smallest_left[i]) break;
    const int64_t d = std::max<int64_t>(w.remaining(), 1);
    // Only a job that has run holds processors (the engine records them when it suspends a job that ran).
    const auto held = w.suspended() ? state.held.find(w.id) : state.held.end();
    int64_t from = now;
    if (held != state.held.end()) {
      if (!free_from_known) {
        find_free_from(state);
        free_from_known = true;
      }
      const auto slot = std::lower_bound(held_seen_.begin(), held_seen_.end(), w.id,
                                         [](const auto& h, JobId id) { return h.first < id; }) - held_seen_.begin();
      from = std::max(from, free_from_[static_cast<size_t>(slot)]);
      for (const auto& [set, end] : started)
        if (overlaps(set, held->second)) from = std::max(from, end);
    }
    // Its search starts at the latest fit of a job no larger and no shorter placed before it (sim/fit_floor.h);
    // a suspended job's fit, delayed by its own processors, bounds nothing.
    const int64_t t = profile.reserve_earliest(std::max(from, fits.floor(w.procs, d)), w.procs, d);
    if (from == now) fits.record(w.procs, d, t);
    if (t != now) continue;
    if (!machine) machine = state.machine;
    Allocation a = held != state.held.end() ? machine->allocate_exactly(w.id, held->second)
                                            : machine->allocate(w.id, w.procs, decision.avoid);
    decision.start.push_back(w.id);
    started.emplace_back(std::move(a.ranges), now + d);
  }
}

}  // namespace schedlab::sim
