#include "schedlab/sim/easy.h"

#include <algorithm>

#include "schedlab/sim/shadow.h"

namespace schedlab::sim {

void EasyScheduler::schedule(const SimState& state, Decision& decision) {
  const auto& queue = state.queue;
  const int64_t now = state.now;
  int64_t free = state.machine.free();
  started_.clear();
  size_t head = 0;
  for (; head < queue.size() && queue[head].procs <= free; ++head) {
    decision.start.push_back(queue[head].id);
    free -= queue[head].procs;
    started_.emplace_back(now + queue[head].prediction, queue[head].procs);
  }
  if (head == queue.size()) return;

  const Shadow shadow = compute_shadow(state, free, started_, queue[head].procs);
  decision.reservations.push_back({queue[head].id, shadow.time});
  int64_t extra = shadow.extra;
  if (free == 0) return;

  auto consider = [&](const WaitingJob& w) {
    if (w.procs > free) return;
    const bool ends_by_shadow = now + w.prediction <= shadow.time;
    if (!ends_by_shadow && w.procs > extra) return;
    decision.start.push_back(w.id);
    free -= w.procs;
    if (!ends_by_shadow) extra -= w.procs;
  };

  if (order_ == Order::kQueue) {
    for (size_t k = head + 1; k < queue.size() && free > 0; ++k) consider(queue[k]);
    return;
  }
  candidates_.clear();
  for (size_t k = head + 1; k < queue.size(); ++k) {
    if (queue[k].procs <= free) candidates_.push_back(k);  // others cannot start now anyway
  }
  std::stable_sort(candidates_.begin(), candidates_.end(),
                   [&](size_t a, size_t b) { return queue[a].prediction < queue[b].prediction; });
  for (size_t k : candidates_) {
    if (free == 0) break;
    consider(queue[k]);
  }
}

}  // namespace schedlab::sim
