#include "schedlab/sim/shadow.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/core.h>

namespace schedlab::sim {

// Processors free at time T >= now: free_now + R(T) + C(T), R = the running jobs expected to end by T (those with
// predicted_end() <= T: an overdue job's expected end is now), C = the jobs started now ending by T. The shadow
// time is the least end T at which that reaches `procs`. Between two ends of started jobs C is constant, so the
// least T there is the first running job at which R reaches procs - free_now - C: one prefix search per end of
// a started job, until the answer falls before the next one.
Shadow compute_shadow(const SimState& state, int64_t free_now, std::vector<std::pair<int64_t, int64_t>>& just_started,
                      int64_t procs) {
  if (free_now >= procs) return {state.now, free_now - procs};
  std::sort(just_started.begin(), just_started.end());
  const RunningList& running = state.running;
  constexpr int64_t kNever = std::numeric_limits<int64_t>::max();
  const int64_t need = procs - free_now;  // > 0
  int64_t started = 0;                    // C: processors of the started jobs taken so far
  size_t j = 0;
  int64_t shadow = kNever;
  for (;;) {
    const int64_t next_started = j < just_started.size() ? just_started[j].first : kNever;
    const auto reach = running.reaching(need - started);
    if (reach != running.end() && state.expected_end(*reach) <= next_started) {
      shadow = state.expected_end(*reach);
      break;
    }
    if (j == just_started.size()) break;
    for (; j < just_started.size() && just_started[j].first == next_started; ++j) started += just_started[j].second;
    if (started + running.procs_ending_by(next_started) >= need) {
      shadow = next_started;
      break;
    }
  }
  int64_t total = free_now;
  for (const auto& [end, p] : just_started) {
    if (end > shadow) break;
    total += p;
  }
  if (shadow == kNever) {
    throw std::logic_error(fmt::format("no shadow time: {} processors needed, at most {} ever free", procs,
                                       total + running.procs()));
  }
  // Extra = processors free AT the shadow time - the head's: every job ending then frees its processors.
  total += running.procs_ending_by(shadow);
  return {shadow, total - procs};
}

}  // namespace schedlab::sim
