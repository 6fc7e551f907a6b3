#include "schedlab/sim/shadow.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/core.h>

namespace schedlab::sim {

Shadow compute_shadow(const SimState& state, int64_t free_now, std::vector<std::pair<int64_t, int64_t>>& just_started,
                      int64_t procs) {
  if (free_now >= procs) return {state.now, free_now - procs};
  std::sort(just_started.begin(), just_started.end());
  const auto& running = state.running;
  constexpr int64_t kNever = std::numeric_limits<int64_t>::max();
  size_t i = 0, j = 0;
  int64_t avail = free_now;
  auto next_end = [&]() {
    const int64_t a = i < running.size() ? state.expected_end(running[i]) : kNever;
    const int64_t b = j < just_started.size() ? just_started[j].first : kNever;
    return std::min(a, b);
  };
  auto take = [&]() {  // adds the processors of the job ending first
    const int64_t a = i < running.size() ? state.expected_end(running[i]) : kNever;
    const int64_t b = j < just_started.size() ? just_started[j].first : kNever;
    if (a <= b) {
      avail += running[i++].procs;
    } else {
      avail += just_started[j++].second;
    }
  };
  while (i < running.size() || j < just_started.size()) {
    const int64_t end = next_end();
    take();
    if (avail < procs) continue;
    // Extra = processors free AT the shadow time - the head's: every job ending then frees its processors,
    // whatever the tie order put first.
    while ((i < running.size() || j < just_started.size()) && next_end() == end) take();
    return {end, avail - procs};
  }
  throw std::logic_error(fmt::format("no shadow time: {} processors needed, at most {} ever free", procs, avail));
}

}  // namespace schedlab::sim
