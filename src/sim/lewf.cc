#include "schedlab/sim/lewf.h"

#include <algorithm>
#include <utility>

namespace schedlab::sim {

void LewfScheduler::schedule(const SimState& state, Decision& decision) {
  const auto& queue = state.queue;
  int64_t free = state.machine.free();
  if (free == 0 || queue.empty()) return;
  auto before = [&](size_t a, size_t b) {
    return queue[a].prediction != queue[b].prediction ? queue[a].prediction < queue[b].prediction : a < b;
  };
  if (fill_) {
    // Jobs wider than the free processors now cannot start in this call: sort only the others.
    order_.clear();
    for (size_t k = 0; k < queue.size(); ++k) {
      if (queue[k].procs <= free) order_.push_back(k);
    }
    std::sort(order_.begin(), order_.end(), before);
    for (size_t k : order_) {
      if (free == 0) break;
      if (queue[k].procs <= free) {
        decision.start.push_back(queue[k].id);
        free -= queue[k].procs;
      }
    }
    return;
  }
  // Without filling, repeatedly take the least-predicted remaining job until one does not fit:
  // O(queue) per started job, no sort.
  taken_.assign(queue.size(), 0);  // positions already started in this call
  while (free > 0) {
    size_t best = queue.size();
    for (size_t k = 0; k < queue.size(); ++k) {
      if (taken_[k]) continue;
      if (best == queue.size() || before(k, best)) best = k;
    }
    if (best == queue.size() || queue[best].procs > free) break;
    decision.start.push_back(queue[best].id);
    free -= queue[best].procs;
    taken_[best] = 1;
  }
}

}  // namespace schedlab::sim
