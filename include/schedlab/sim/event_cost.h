// The measured cost per event of a scheduling policy, against the length of the queue: how a policy's
// work grows as the queue grows (e.g. at high load), measured rather than argued.
//
// EventCostRecorder wraps any scheduler (a decorator: it forwards every call and changes no decision, so
// the schedule is the wrapped scheduler's, to the byte) and times the scheduler's own work, not the
// engine's: at each scheduler call it records one sample, the queue and running lengths seen by
// schedule() and the nanoseconds spent in the wrapped scheduler for that event — the notification hooks
// since the previous call (arrivals, terminations, suspensions, prediction changes) plus schedule() —
// and on_start of the jobs that call started, which the engine calls right after it.
//
// The samples live in a sink that clone() shares, because simulate() runs a clone: read them from the
// recorder you passed in, after the run. One recorder per simulation at a time (the sink is not
// thread-safe). Timings are wall-clock (std::chrono::steady_clock) and so, unlike schedules, not
// reproducible to the byte.
//
// summarize_event_cost groups the samples by queue length in powers of two ([1, 2), [2, 4), ... and 0
// apart) and fits the growth exponent k of cost ~ queue^k: the least-squares slope of ln(mean ns) over
// ln(mean queue) across the buckets with at least `min_events` samples and a queue of at least
// `min_queue` (below that, fixed per-call costs dominate). A cost of exactly c × Q log Q has the local
// slope 1 + 1/ln Q (1.36 at Q = 16, 1.14 at Q = 1,000), so fitted over queues of 16 to 1,000 it gives
// k ≈ 1.2; O(queue × profile), with a profile growing with the queue, tends to k = 2.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "schedlab/sim/scheduler_decorator.h"

namespace schedlab::sim {

struct EventCostSample {
  int64_t queue = 0;    // state.queue.size() at the scheduler call
  int64_t running = 0;  // state.running.size() at the scheduler call
  int64_t ns = 0;       // time spent in the wrapped scheduler for this event
};

class EventCostRecorder final : public SchedulerDecorator {
 public:
  explicit EventCostRecorder(std::unique_ptr<Scheduler> inner);
  EventCostRecorder(const EventCostRecorder& other) = default;  // clones the inner scheduler, shares the sink

  // The samples recorded by this recorder and all its clones, in call order.
  const std::vector<EventCostSample>& samples() const { return *sink_; }

  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<EventCostRecorder>(*this); }
  // The hooks are timed; the properties (name, overrun, ...) are the inner scheduler's.
  void on_arrival(const SimState& state, const WaitingJob& job) override;
  void on_start(const SimState& state, const RunningJob& job) override;
  void on_termination(const SimState& state, const RunningJob& job) override;
  void on_suspend(const SimState& state, const RunningJob& job) override;
  void on_prediction_change(const SimState& state, JobId job, int64_t old_prediction) override;
  void schedule(const SimState& state, Decision& decision) override;

 private:
  std::shared_ptr<std::vector<EventCostSample>> sink_;
  int64_t pending_ns_ = 0;  // hook time since the last scheduler call, charged to the next one
};

struct EventCostBucket {
  int64_t queue_from = 0;  // queue lengths in [queue_from, queue_to)
  int64_t queue_to = 0;
  int64_t events = 0;
  double mean_queue = 0;
  double mean_us = 0;        // mean microseconds per event
  double us_per_job = 0;     // mean_us / mean_queue (0 for the empty-queue bucket)
  bool fitted = false;       // used in the exponent fit
};

struct EventCostSummary {
  int64_t events = 0;
  double total_s = 0;                    // time in the scheduler, all events
  std::vector<EventCostBucket> buckets;  // ascending queue lengths, only non-empty buckets
  std::optional<double> exponent;        // k in cost ~ queue^k; absent with fewer than 2 fitted buckets
};

EventCostSummary summarize_event_cost(const std::vector<EventCostSample>& samples, int64_t min_events = 100,
                                      int64_t min_queue = 16);

}  // namespace schedlab::sim
