// A private header (src/sim): easy-sjbf's waiting jobs in its backfill order — ascending prediction, ties in queue
// order — kept across calls by the scheduler's notifications, with FitOrder's search (sim/fit_order.h) for the first
// job at or after a place that needs at most a number of processors.
//
// Why: without it easy-sjbf gathers every job it could backfill and sorts them at each call, O(C log C) for C
// candidates, and with thousands of jobs waiting (a burst, a saturated machine, `--load 0.95`) C is most of the queue
// at every event. In this order the jobs that end by the shadow time are a prefix (a waiting job that never ran has
// remaining() == prediction), so each job the walk starts is one or two searches, O(log Q), and the index costs
// O(log Q) per arrival, start and prediction change.
// The index is kept only while the queue is long (from kFrom waiting jobs until it falls below kUntil): with a few
// dozen waiting jobs the sort is cheaper than a tree insert and erase per job. The gap between the two makes a
// rebuild, O(Q log Q), happen at most once per kFrom - kUntil changes of the queue. Measurements:
// docs/performance.md, "easy-sjbf: the candidates in an index by prediction when the queue is long".
// Queue order is the order jobs entered the queue (arrivals, and a suspended job at the back): a counter, `seq`.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <unordered_map>

#include "schedlab/sim/state.h"
#include "sim/fit_order.h"

namespace schedlab::sim {

class ShortestFirstIndex {
 public:
  static constexpr size_t kFrom = 256;
  static constexpr size_t kUntil = 64;

  struct Key {
    int64_t prediction = 0;
    int64_t seq = 0;  // queue order
    JobId id = -1;
    int32_t procs = 0;
    bool held = false;  // FitOrder's field; unused here (no search asks for suspended jobs)
    friend bool operator<(const Key& a, const Key& b) {
      return a.prediction != b.prediction ? a.prediction < b.prediction : a.seq < b.seq;
    }
  };
  using const_iterator = FitOrder<Key>::const_iterator;

  // Whether the index is kept now; the notifications below do nothing while it is not.
  bool active() const { return active_; }
  // Starts or stops keeping the index as the queue's length asks (above); true when it is kept.
  bool follow(const WaitQueue& queue) {
    if (active_ && queue.size() < kUntil) {
      active_ = false;
      tree_.clear();
      slots_.clear();
      suspended_ = 0;
    } else if (!active_ && queue.size() >= kFrom) {
      rebuild(queue);
    } else if (active_ && tree_.size() != queue.size()) {
      rebuild(queue);  // a state that changed without the notifications (a copy of another run's)
    }
    return active_;
  }
  // The queue read afresh (also sim/scheduler.h on_sync); the index is kept from now on.
  void rebuild(const WaitQueue& queue) {
    active_ = true;
    tree_.clear();
    slots_.clear();
    suspended_ = 0;
    for (const WaitingJob& w : queue) place(w, next_seq_++);
  }

  // A job entering the queue (an arrival, or a suspended job at its back).
  void add(const WaitingJob& w) {
    if (!active_) return;
    remove(w.id);
    place(w, next_seq_++);
  }
  // A waiting job whose prediction changed: the same place in queue order.
  void update(const WaitingJob& w) {
    if (!active_) return;
    const auto it = slots_.find(w.id);
    if (it == slots_.end()) return add(w);
    const int64_t seq = it->second.seq;
    remove(w.id);
    place(w, seq);
  }
  void remove(JobId id) {
    const auto it = slots_.find(id);
    if (it == slots_.end()) return;
    tree_.erase(Key{it->second.prediction, it->second.seq});
    if (it->second.suspended) --suspended_;
    slots_.erase(it);
  }

  // False while a suspended job waits: its remaining time is not its prediction, and the jobs that end by the
  // shadow time are no longer a prefix of this order.
  bool prefix_rule_holds() const { return suspended_ == 0; }
  // A waiting job's place in queue order (-1 when it is not in the index).
  int64_t seq_of(JobId id) const {
    const auto it = slots_.find(id);
    return it == slots_.end() ? -1 : it->second.seq;
  }
  const_iterator end() const { return tree_.end(); }
  // The first job not before `from` that needs at most `procs` processors, or end().
  const_iterator first_fit(const Key& from, int64_t procs) const {
    if (procs <= 0) return end();
    return tree_.first_fit(from, static_cast<int32_t>(std::min<int64_t>(procs, std::numeric_limits<int32_t>::max())),
                           false);
  }

 private:
  struct Slot {
    int64_t prediction = 0;
    int64_t seq = 0;
    bool suspended = false;
  };
  void place(const WaitingJob& w, int64_t seq) {
    slots_[w.id] = Slot{w.prediction, seq, w.suspended()};
    if (w.suspended()) ++suspended_;
    tree_.insert(Key{w.prediction, seq, w.id, w.procs});
  }

  bool active_ = false;
  FitOrder<Key> tree_;
  std::unordered_map<JobId, Slot> slots_;  // the waiting jobs' keys, by id
  int64_t next_seq_ = 0;
  int64_t suspended_ = 0;
};

}  // namespace schedlab::sim
