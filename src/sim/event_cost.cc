#include "schedlab/sim/event_cost.h"

#include <bit>
#include <chrono>
#include <cmath>
#include <utility>

namespace schedlab::sim {

namespace {

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Runs f and returns the nanoseconds it took.
template <typename F>
int64_t timed(F&& f) {
  const int64_t t0 = now_ns();
  std::forward<F>(f)();
  return now_ns() - t0;
}

}  // namespace

EventCostRecorder::EventCostRecorder(std::unique_ptr<Scheduler> inner)
    : SchedulerDecorator(std::move(inner)), sink_(std::make_shared<std::vector<EventCostSample>>()) {}

void EventCostRecorder::on_arrival(const SimState& state, const WaitingJob& job) {
  pending_ns_ += timed([&] { SchedulerDecorator::on_arrival(state, job); });
}

void EventCostRecorder::on_start(const SimState& state, const RunningJob& job) {
  // The engine starts a call's jobs right after the call: their cost belongs to that event.
  const int64_t ns = timed([&] { SchedulerDecorator::on_start(state, job); });
  if (sink_->empty()) {
    pending_ns_ += ns;
  } else {
    sink_->back().ns += ns;
  }
}

void EventCostRecorder::on_termination(const SimState& state, const RunningJob& job) {
  pending_ns_ += timed([&] { SchedulerDecorator::on_termination(state, job); });
}

void EventCostRecorder::on_suspend(const SimState& state, const RunningJob& job) {
  pending_ns_ += timed([&] { SchedulerDecorator::on_suspend(state, job); });
}

void EventCostRecorder::on_prediction_change(const SimState& state, JobId job, int64_t old_prediction) {
  pending_ns_ += timed([&] { SchedulerDecorator::on_prediction_change(state, job, old_prediction); });
}

void EventCostRecorder::schedule(const SimState& state, Decision& decision) {
  const int64_t ns = timed([&] { SchedulerDecorator::schedule(state, decision); });
  sink_->push_back({static_cast<int64_t>(state.queue.size()), static_cast<int64_t>(state.running.size()),
                    pending_ns_ + ns});
  pending_ns_ = 0;
}

EventCostSummary summarize_event_cost(const std::vector<EventCostSample>& samples, int64_t min_events,
                                      int64_t min_queue) {
  // Bucket 0 holds the empty queue; bucket b >= 1 holds queue lengths in [2^(b-1), 2^b).
  struct Acc {
    int64_t events = 0;
    double queue = 0;
    double ns = 0;
  };
  std::vector<Acc> acc;
  EventCostSummary out;
  for (const EventCostSample& s : samples) {
    const size_t b = s.queue <= 0 ? 0 : static_cast<size_t>(std::bit_width(static_cast<uint64_t>(s.queue)));
    if (acc.size() <= b) acc.resize(b + 1);
    acc[b].events += 1;
    acc[b].queue += static_cast<double>(s.queue);
    acc[b].ns += static_cast<double>(s.ns);
    out.events += 1;
    out.total_s += static_cast<double>(s.ns) * 1e-9;
  }
  // Least squares over the fitted buckets (x = ln mean queue, y = ln mean ns).
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t b = 0; b < acc.size(); ++b) {
    if (acc[b].events == 0) continue;
    EventCostBucket bucket;
    bucket.queue_from = b == 0 ? 0 : int64_t{1} << (b - 1);
    bucket.queue_to = b == 0 ? 1 : int64_t{1} << b;
    bucket.events = acc[b].events;
    const double events = static_cast<double>(acc[b].events);
    bucket.mean_queue = acc[b].queue / events;
    const double mean_ns = acc[b].ns / events;
    bucket.mean_us = mean_ns * 1e-3;
    bucket.us_per_job = bucket.mean_queue > 0 ? bucket.mean_us / bucket.mean_queue : 0.0;
    bucket.fitted = bucket.events >= min_events && bucket.queue_from >= min_queue && bucket.queue_from > 0 &&
                    mean_ns > 0;
    if (bucket.fitted) {
      const double x = std::log(bucket.mean_queue), y = std::log(mean_ns);
      n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
    out.buckets.push_back(bucket);
  }
  const double denom = n * sxx - sx * sx;
  if (n >= 2 && denom > 0) out.exponent = (n * sxy - sx * sy) / denom;
  return out;
}

}  // namespace schedlab::sim
