#include "schedlab/sim/easy_preemptive.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "sim/availability_profile.h"
#include "sim/fit_floor.h"

namespace schedlab::sim {
namespace {

// The processors of the running jobs, as disjoint ranges sorted by their first processor, each with its
// holder's expected end: when a suspended job's processors are all free again is then a binary search and a
// short walk per range it held (it was a walk over every running job's set per suspended job, a third of
// the scheduler's time on CTC-SP2). Built only when the queue has a suspended job to place.
struct BusyRange {
  int32_t lo, hi;
  int64_t end;
};

std::vector<BusyRange> running_ranges(const SimState& state) {
  std::vector<std::pair<JobId, int64_t>> ends;  // by id, as running_on is
  ends.reserve(state.running.size());
  for (const RunningJob& r : state.running) ends.emplace_back(r.id, std::max(r.predicted_end(), state.now + 1));
  std::sort(ends.begin(), ends.end());
  std::vector<BusyRange> ranges;
  auto e = ends.begin();
  for (const auto& [id, set] : state.running_on) {
    while (e != ends.end() && e->first < id) ++e;
    if (e == ends.end() || e->first != id) continue;
    for (const ProcRange& r : set) ranges.push_back({r.lo, r.hi, e->second});
  }
  std::sort(ranges.begin(), ranges.end(), [](const BusyRange& a, const BusyRange& b) { return a.lo < b.lo; });
  return ranges;
}

// The latest expected end among the ranges (sorted, disjoint) that share a processor with `set`; `from` if none.
int64_t busy_until(const std::vector<BusyRange>& ranges, const ProcSet& set, int64_t from) {
  const auto end = ranges.end();
  auto it = ranges.begin();
  for (const ProcRange& p : set) {
    // Disjoint ranges sorted by lo are sorted by hi too. The first that ends after p.lo, at or after the last
    // one the previous range of `set` met (its ranges are sorted as well): galloping, as it is usually near.
    ptrdiff_t step = 1;
    auto lo = it;
    while (end - lo > step && (lo + step)->hi <= p.lo) {
      lo += step;
      step *= 2;
    }
    const auto hi = end - lo > step ? lo + step + 1 : end;
    it = std::partition_point(lo, hi, [&](const BusyRange& b) { return b.hi <= p.lo; });
    // (A range met here that reaches into the next range of `set` has been counted already.)
    for (; it != end && it->lo < p.hi; ++it) from = std::max(from, it->end);
  }
  return from;
}

}  // namespace

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
  std::optional<std::vector<BusyRange>> running_busy;  // built at the first suspended job
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
      if (!running_busy) running_busy = running_ranges(state);
      from = busy_until(*running_busy, held->second, from);
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
