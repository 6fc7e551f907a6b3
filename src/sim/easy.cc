#include "schedlab/sim/easy.h"

#include <algorithm>
#include <limits>

#include "schedlab/sim/shadow.h"
#include "sim/shortest_first_index.h"

namespace schedlab::sim {

EasyScheduler::EasyScheduler(Order backfill_order) : order_(backfill_order) {
  if (order_ == Order::kShortestFirst) index_ = std::make_unique<ShortestFirstIndex>();
}

EasyScheduler::EasyScheduler(const EasyScheduler& other)
    : Scheduler(other),
      order_(other.order_),
      index_(other.index_ ? std::make_unique<ShortestFirstIndex>(*other.index_) : nullptr) {}

EasyScheduler& EasyScheduler::operator=(const EasyScheduler& other) {
  if (this != &other) {
    Scheduler::operator=(other);
    order_ = other.order_;
    index_ = other.index_ ? std::make_unique<ShortestFirstIndex>(*other.index_) : nullptr;
  }
  return *this;
}

EasyScheduler::~EasyScheduler() = default;

void EasyScheduler::on_arrival(const SimState& state, const WaitingJob& job) {
  (void)state;
  if (index_) index_->add(job);
}

void EasyScheduler::on_start(const SimState& state, const RunningJob& job) {
  (void)state;
  if (index_) index_->remove(job.id);
}

void EasyScheduler::on_suspend(const SimState& state, const RunningJob& job) {
  if (!index_) return;
  if (const WaitingJob* w = state.queue.find(job.id)) index_->add(*w);  // at the back of the queue
}

void EasyScheduler::on_prediction_change(const SimState& state, JobId job, int64_t old_prediction) {
  (void)old_prediction;
  if (!index_) return;
  if (const WaitingJob* w = state.queue.find(job)) index_->update(*w);  // (a running job's: nothing to keep)
}

void EasyScheduler::on_sync(const SimState& state) {
  if (index_ && index_->active()) index_->rebuild(state.queue);
}

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
  if (index_->follow(queue) && index_->prefix_rule_holds()) {
    backfill_shortest_first(state, *head, shadow.time, free, extra, decision);
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

// The walk of the sorted candidates above, without gathering them: in the index's order (prediction, queue order)
// the jobs that end by the shadow time (prediction <= shadow - now) come first and may start if they fit in the free
// processors; each later one also needs to fit in the extra processors. So the next job to start is the first fit
// for `free` if it ends by the shadow time, else the first fit for min(free, extra) (which then ends after it: no job
// that ends by it fits even in `free`). Jobs before the head in queue order (it and those started in queue order at
// this call) are passed over.
void EasyScheduler::backfill_shortest_first(const SimState& state, const WaitingJob& head, int64_t shadow_time,
                                            int64_t& free, int64_t& extra, Decision& decision) {
  using Key = ShortestFirstIndex::Key;
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  const ShortestFirstIndex& index = *index_;
  const int64_t by_shadow = shadow_time - state.now;
  const int64_t head_seq = index.seq_of(head.id);
  Key from{kMin, kMin};
  while (free > 0) {
    auto k = index.first_fit(from, free);
    if (k == index.end()) return;
    if (k->prediction > by_shadow) {  // no job from here on ends by the shadow time and fits: the rest need extra
      k = index.first_fit(from, std::min(free, extra));
      if (k == index.end()) return;
    }
    from = Key{k->prediction, k->seq + 1};
    if (k->seq <= head_seq) continue;
    decision.start.push_back(k->id);
    free -= k->procs;
    if (k->prediction > by_shadow) extra -= k->procs;
  }
}

}  // namespace schedlab::sim
