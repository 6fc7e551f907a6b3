// The EASY shadow-time computation (docs/conventions.md), shared by the backfilling schedulers.
//
// Given the processors free now and the jobs holding processors — the running jobs (expected end =
// SimState::expected_end: start + prediction, or now when overdue) and the jobs the scheduler is starting
// at this instant (end = now + prediction) — walk them by ascending expected end, adding their processors,
// until `procs` fit: that expected end is the shadow time. Extra processors = the processors accumulated
// at that moment - `procs`, where "at that moment" includes every job with the same expected end (they all
// free their processors at the shadow time; the definition of docs/simulator.md: extra = processors
// free at the shadow time - the head's), so the result does not depend on how ties are ordered.
// Cost: O(k log k) for the k jobs started at this instant + O((k + 1)(log n + RunningList::kBlock)) for the n
// running jobs (prefix searches over sim/running_list.h; it was a walk over the jobs ending by the shadow time).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "schedlab/sim/state.h"

namespace schedlab::sim {

struct Shadow {
  int64_t time = 0;
  int64_t extra = 0;
};

// `just_started`: (end, procs) of the jobs started at this instant and not yet in state.running
// (reordered by the call). Requires procs <= state.machine.total().
Shadow compute_shadow(const SimState& state, int64_t free_now, std::vector<std::pair<int64_t, int64_t>>& just_started,
                      int64_t procs);

}  // namespace schedlab::sim
