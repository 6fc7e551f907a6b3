#include "schedlab/predict/replay.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <queue>
#include <stdexcept>
#include <tuple>

#include <fmt/core.h>

namespace schedlab::predict {

namespace {
enum Kind : int { kTermination = 0, kArrival = 1, kDeadline = 2, kStart = 3 };
using Event = std::tuple<int64_t, int, JobId>;  // (time, kind, job)
}  // namespace

ReplayResult replay(const std::vector<Job>& jobs, const std::vector<int64_t>& start, Predictor& predictor,
                    double warmup_fraction, const std::function<void(size_t, size_t)>& progress) {
  const size_t n = jobs.size();
  if (start.size() != n) throw std::invalid_argument("replay: one start time per job needed");
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
  for (size_t i = 0; i < n; ++i) {
    if (jobs[i].id != static_cast<JobId>(i) || start[i] < jobs[i].submit || jobs[i].runtime < 0) {
      throw std::invalid_argument(fmt::format("replay: job {} is invalid", i));
    }
    events.push({jobs[i].submit, kArrival, jobs[i].id});
    events.push({start[i], kStart, jobs[i].id});
  }
  ReplayResult out;
  out.jobs.resize(n);
  out.initial.assign(n, -1);
  out.at_start.assign(n, -1);
  out.termination_order.reserve(n);
  std::vector<int64_t> prediction(n, -1);
  std::vector<char> phase(n, 0);  // 0 not arrived, 1 waiting, 2 running, 3 ended
  std::vector<uint8_t> streak(n, 0);  // deadline misses in a row that raised the prediction by one second only
  AccuracyTracker tracker(n);
  Updates updates;

  auto apply = [&](int64_t now) {
    for (const auto& u : updates) {
      if (u.job < 0 || static_cast<size_t>(u.job) >= n) continue;
      const auto i = static_cast<size_t>(u.job);
      if (phase[i] != 1 && phase[i] != 2) continue;
      int64_t p = std::max<int64_t>(u.prediction, 0);
      if (phase[i] == 2) p = std::max(p, now - start[i]);
      if (p == prediction[i]) continue;
      prediction[i] = p;
      ++out.updates;
      tracker.set(u.job, now, p, jobs[i].runtime);
      if (phase[i] == 2 && jobs[i].runtime > p && start[i] + p > now) events.push({start[i] + p, kDeadline, u.job});
    }
    updates.clear();
  };

  auto last_progress = std::chrono::steady_clock::now();
  for (uint32_t step = 1; !events.empty(); ++step) {
    // The clock is read every 1,024 events, as the engine does: the display costs nothing measurable.
    if (progress && (step & 1023u) == 0) {
      if (const auto now = std::chrono::steady_clock::now(); now - last_progress >= std::chrono::milliseconds(200)) {
        last_progress = now;
        progress(out.termination_order.size(), n);
      }
    }
    const auto [t, kind, id] = events.top();
    events.pop();
    const auto i = static_cast<size_t>(id);
    const Job& job = jobs[i];
    switch (kind) {
      case kTermination:
        phase[i] = 3;
        out.jobs[i] = tracker.finish(id, t, job.runtime);
        out.termination_order.push_back(id);
        predictor.on_termination(t, job, start[i], updates);
        break;
      case kArrival: {
        const int64_t p = std::max<int64_t>(0, predictor.on_arrival(t, job, updates));
        phase[i] = 1;
        prediction[i] = p;
        out.initial[i] = p;
        tracker.set(id, t, p, job.runtime);
        break;
      }
      case kDeadline:
        if (phase[i] != 2 || start[i] + prediction[i] != t) break;
        ++out.deadline_misses;
        predictor.on_deadline_miss(t, job, start[i], prediction[i], updates);
        apply(t);
        if (second_by_second(streak[i], start[i] + prediction[i], t)) ++out.second_by_second_jobs;
        break;
      case kStart:
        phase[i] = 2;
        out.at_start[i] = prediction[i];
        tracker.started(id, job.runtime);
        events.push({t + job.runtime, kTermination, id});
        if (job.runtime > prediction[i]) events.push({t + prediction[i], kDeadline, id});
        predictor.on_start(t, job, prediction[i], updates);
        break;
      default: break;
    }
    apply(t);
  }
  if (progress) progress(out.termination_order.size(), n);
  const auto skip = static_cast<size_t>(std::floor(warmup_fraction * static_cast<double>(n)));
  out.summary = summarize_accuracy(out.jobs, out.termination_order, skip);
  return out;
}

}  // namespace schedlab::predict
