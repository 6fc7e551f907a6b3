#include "sim/shadow_run.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/core.h>

namespace schedlab::sim {

void WindowMeter::Sums::add(int64_t wait_s, int64_t length) {
  ++jobs;
  const auto w = static_cast<double>(wait_s);
  const double r = w + static_cast<double>(length);
  wait += w;
  response += r;
  slowdown += std::max(1.0, r / static_cast<double>(std::max<int64_t>(length, 1)));
  bsld += std::max(1.0, r / static_cast<double>(std::max<int64_t>(length, 10)));
}

void WindowMeter::reset(int64_t start, int64_t busy_procs) {
  start_ = last_ = start;
  busy_ = busy_procs;
  area_ = 0;
  sums_ = {};
}

void WindowMeter::advance(int64_t t) {
  if (t <= last_) return;
  area_ += static_cast<double>(busy_) * static_cast<double>(t - last_);
  last_ = t;
}

void WindowMeter::started(int64_t submit, int64_t start, int64_t length, int64_t procs) {
  sums_.add(start - submit, length);
  busy_ += procs;
}

double WindowMeter::value(AdaptiveMetric metric, int64_t now, int64_t total_procs, const WaitQueue& waiting,
                          const std::function<int64_t(const WaitingJob&)>& length) const {
  if (metric == AdaptiveMetric::kUtilization) {
    if (now <= start_) return 0;
    const double area = area_ + static_cast<double>(busy_) * static_cast<double>(std::max<int64_t>(now - last_, 0));
    return area / (static_cast<double>(total_procs) * static_cast<double>(now - start_));
  }
  Sums s = sums_;
  for (const WaitingJob& w : waiting) {
    if (w.submit < now) s.add(now - w.submit, length(w));  // jobs arriving at the window's end are not in it
  }
  if (s.jobs == 0) return 0;
  const double n = static_cast<double>(s.jobs);
  switch (metric) {
    case AdaptiveMetric::kWait: return s.wait / n;
    case AdaptiveMetric::kResponse: return s.response / n;
    case AdaptiveMetric::kSlowdown: return s.slowdown / n;
    case AdaptiveMetric::kBoundedSlowdown: return s.bsld / n;
    case AdaptiveMetric::kUtilization: break;
  }
  return 0;
}

void ShadowRun::start(const SimState& state, bool log_runtimes, bool kill_at_prediction) {
  state_ = state;
  // A counting machine: candidates need no processor identities (the real one may track them under --check).
  state_.machine = Machine(state.machine.total());
  for (const RunningJob& r : state_.running) state_.machine.allocate(r.id, r.procs);
  state_.running_on.clear();
  state_.held.clear();
  log_runtimes_ = log_runtimes;
  kill_ = kill_at_prediction;
  ends_ = {};
  for (const RunningJob& r : state_.running) {
    int64_t end = r.start + length(r.id, r.prediction);
    end = std::max(end, state_.now);  // an overdue job in a predicted-runtime run ends now
    ends_.emplace(end, r.id, r.predicted_end());
  }
  wake_ = std::numeric_limits<int64_t>::max();
  meter_.reset(state_.now, state_.machine.used());
}

int64_t ShadowRun::length(JobId id, int64_t prediction) const {
  const int64_t runtime = state_.job(id).runtime;
  if (!log_runtimes_) return std::max<int64_t>(prediction, 0);
  return kill_ ? std::min(runtime, prediction) : runtime;
}

void ShadowRun::advance_before(int64_t t, Scheduler& scheduler) {
  static const std::vector<WaitingJob> kNone;
  for (;;) {
    const int64_t next = std::min(ends_.empty() ? wake_ : std::get<0>(ends_.top()), wake_);
    if (next >= t || next == std::numeric_limits<int64_t>::max()) return;
    step(next, kNone, scheduler);
  }
}

void ShadowRun::instant(int64_t t, const std::vector<WaitingJob>& arrivals, Scheduler& scheduler) {
  advance_before(t, scheduler);
  step(t, arrivals, scheduler);
}

void ShadowRun::step(int64_t t, const std::vector<WaitingJob>& arrivals, Scheduler& scheduler) {
  meter_.advance(t);
  state_.now = t;
  while (!ends_.empty() && std::get<0>(ends_.top()) <= t) {
    const auto [end, id, predicted_end] = ends_.top();
    ends_.pop();
    const RunningJob done = state_.running.erase(predicted_end, id);
    state_.machine.release(Allocation{done.id, done.procs, {}});
    meter_.ended(done.procs);
    scheduler.on_termination(state_, done);
  }
  for (const WaitingJob& w : arrivals) {
    state_.queue.push_back(w);
    scheduler.on_arrival(state_, w);
  }
  decision_.clear();
  scheduler.schedule(state_, decision_);
  if (!decision_.suspend.empty()) {
    throw std::logic_error(fmt::format("adaptive candidate {} suspended a job (candidates must not preempt)",
                                       scheduler.name()));
  }
  for (JobId id : decision_.start) {
    const WaitingJob* w = state_.queue.find(id);
    if (w == nullptr || w->procs > state_.machine.free()) {
      throw std::logic_error(fmt::format("adaptive candidate {} started job {} that is not waiting or does not fit",
                                         scheduler.name(), id));
    }
    const RunningJob r{.id = id, .procs = w->procs, .start = t, .prediction = w->prediction};
    const int64_t len = length(id, w->prediction);
    meter_.started(w->submit, t, len, w->procs);
    state_.queue.erase(id);
    state_.machine.allocate(id, r.procs);
    state_.running.insert(r);
    ends_.emplace(t + len, id, r.predicted_end());
    scheduler.on_start(state_, r);
  }
  // Each call's request replaces the previous one (as in the engine).
  wake_ = decision_.wake_at > t ? decision_.wake_at : std::numeric_limits<int64_t>::max();
}

double ShadowRun::value(AdaptiveMetric metric, int64_t now) const {
  return meter_.value(metric, now, state_.machine.total(), state_.queue,
                      [this](const WaitingJob& w) { return length(w.id, w.prediction); });
}

}  // namespace schedlab::sim
