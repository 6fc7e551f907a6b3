#include "schedlab/sim/easy.h"

#include <algorithm>

#include "schedlab/sim/shadow.h"

namespace schedlab::sim {

void EasyScheduler::schedule(const SimState& state, Decision& decision) {
  const auto& queue = state.queue;
  const int64_t now = state.now;
  int64_t free = state.machine.free();
  started_.clear();
  auto head = queue.begin();
  for (; head != queue.end() && head->procs <= free; ++head) {
    decision.start.push_back(head->id);
    free -= head->procs;
    started_.emplace_back(now + head->remaining(), head->procs);
  }
  if (head == queue.end()) return;
  const Shadow shadow = compute_shadow(state, free, started_, head->procs);
  decision.reservations.push_back({head->id, shadow.time});
  int64_t extra = shadow.extra;
  if (free == 0) return;
  auto consider = [&](const WaitingJob& w) {
    if (w.procs > free) return;
    const bool ends_by_shadow = now + w.remaining() <= shadow.time;
    if (!ends_by_shadow && w.procs > extra) return;
    decision.start.push_back(w.id);
    free -= w.procs;
    if (!ends_by_shadow) extra -= w.procs;
  };
  const int64_t by_shadow = shadow.time - now;
  if (order_ == Order::kQueue) {
    // The jobs consider() would start, found without walking the others (WaitQueue::next_backfill).
    for (auto k = queue.next_backfill(std::next(head), free, extra, by_shadow); k != queue.end() && free > 0;
         k = queue.next_backfill(std::next(k), free, extra, by_shadow))
      consider(*k);
    return;
  }
  candidates_.clear();
  // Only the jobs consider() would start with the processors and extra processors there are now: free and extra
  // only decrease, so the others would be skipped anyway (WaitQueue::next_backfill jumps over them).
  for (auto k = queue.next_backfill(std::next(head), free, extra, by_shadow); k != queue.end();
       k = queue.next_backfill(std::next(k), free, extra, by_shadow))
    candidates_.push_back(&*k);
  std::stable_sort(candidates_.begin(), candidates_.end(),
                   [](const WaitingJob* a, const WaitingJob* b) { return a->prediction < b->prediction; });
  for (const WaitingJob* w : candidates_) {
    if (free == 0) break;
    consider(*w);
  }
}

}  // namespace schedlab::sim
