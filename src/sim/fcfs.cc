#include "schedlab/sim/fcfs.h"

#include <utility>
#include <vector>

#include "schedlab/sim/shadow.h"

namespace schedlab::sim {

void FcfsScheduler::schedule(const SimState& state, Decision& decision) {
  int64_t free = state.machine.free();
  const auto& queue = state.queue;
  size_t i = 0;
  for (; i < queue.size() && free > 0; ++i) {
    if (queue[i].procs <= free) {
      decision.start.push_back(queue[i].id);
      free -= queue[i].procs;
    } else if (!fill_) {
      break;
    }
  }
  if (!fill_ && i < queue.size() && decision.wants_reservations) {
    // Nothing overtakes the head, so it starts by its shadow time.
    std::vector<std::pair<int64_t, int64_t>> started;
    for (size_t k = 0; k < i; ++k) started.emplace_back(state.now + queue[k].prediction, queue[k].procs);
    decision.reservations.push_back({queue[i].id, compute_shadow(state, free, started, queue[i].procs).time});
  }
}

}  // namespace schedlab::sim
