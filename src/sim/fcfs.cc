#include "schedlab/sim/fcfs.h"

#include <utility>
#include <vector>

#include "schedlab/sim/shadow.h"

namespace schedlab::sim {

void FcfsScheduler::schedule(const SimState& state, Decision& decision) {
  int64_t free = state.machine.free();
  const auto& queue = state.queue;
  auto it = queue.begin();
  for (; it != queue.end() && free > 0; ++it) {
    if (it->procs <= free) {
      decision.start.push_back(it->id);
      free -= it->procs;
    } else if (!fill_) {
      break;
    }
  }
  if (!fill_ && it != queue.end() && decision.wants_reservations) {
    // Nothing overtakes the head, so it starts by its shadow time.
    std::vector<std::pair<int64_t, int64_t>> started;
    for (auto k = queue.begin(); k != it; ++k) started.emplace_back(state.now + k->remaining(), k->procs);
    decision.reservations.push_back({it->id, compute_shadow(state, free, started, it->procs).time});
  }
}

}  // namespace schedlab::sim
