#include "schedlab/sim/engine.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/core.h>

namespace schedlab::sim {

namespace {
constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

bool running_before(const RunningJob& r, std::pair<int64_t, JobId> key) {
  return r.predicted_end() != key.first ? r.predicted_end() < key.first : r.id < key.second;
}
}  // namespace

Engine::Engine(const Workload& workload, std::unique_ptr<Scheduler> scheduler,
               std::unique_ptr<predict::Predictor> predictor, const SimOptions& options)
    : workload_(&workload), scheduler_(std::move(scheduler)), predictor_(std::move(predictor)), options_(options) {
  if (!scheduler_ || !predictor_) throw std::invalid_argument("simulation needs a scheduler and a predictor");
  state_.machine = Machine(workload.procs);
  state_.jobs = &workload.jobs;
  result_.scheduler = std::string(scheduler_->name());
  result_.predictor = std::string(predictor_->name());
  result_.procs = workload.procs;
  result_.jobs.resize(workload.jobs.size());
  result_.termination_order.reserve(workload.jobs.size());
  prediction_.assign(workload.jobs.size(), -1);
  accuracy_.resize(workload.jobs.size());
  result_.job_accuracy.resize(workload.jobs.size());
  if (options_.check) promise_.assign(workload.jobs.size(), {kNever, -1});
  for (size_t i = 0; i < workload.jobs.size(); ++i) {
    const Job& j = workload.jobs[i];
    if (j.id != static_cast<JobId>(i) || (i > 0 && j.submit < workload.jobs[i - 1].submit) || j.procs <= 0 ||
        j.procs > workload.procs || j.runtime < 0) {
      throw std::invalid_argument(fmt::format("workload job {} is invalid or out of order", i));
    }
  }
}

Engine::Engine(const Engine& other)
    : workload_(other.workload_),
      scheduler_(other.scheduler_->clone()),
      predictor_(other.predictor_->clone()),
      options_(other.options_),
      state_(other.state_),
      result_(other.result_),
      next_arrival_(other.next_arrival_),
      terminations_(other.terminations_),
      deadlines_(other.deadlines_),
      prediction_(other.prediction_),
      accuracy_(other.accuracy_),
      updates_(other.updates_),
      decision_(other.decision_),
      predictions_changed_(other.predictions_changed_),
      epoch_(other.epoch_),
      promise_(other.promise_) {}

Engine& Engine::operator=(const Engine& other) {
  if (this != &other) *this = Engine(other);
  return *this;
}

int64_t Engine::next_time() const {
  int64_t t = kNever;
  if (next_arrival_ < workload_->jobs.size()) t = workload_->jobs[next_arrival_].submit;
  if (!terminations_.empty()) t = std::min(t, terminations_.top().first);
  if (!deadlines_.empty()) t = std::min(t, deadlines_.top().first);
  return t;
}

bool Engine::step() {
  const int64_t t = next_time();
  if (t == kNever) return false;
  state_.now = t;
  bool happened = false;

  // 1. Terminations (the heap pops equal times in job-id order).
  while (!terminations_.empty() && terminations_.top().first == t) {
    const JobId id = terminations_.top().second;
    terminations_.pop();
    terminate(id);
    happened = true;
  }
  // 2. Arrivals, in queue order (ids follow (submit, job number)).
  const auto& jobs = workload_->jobs;
  while (next_arrival_ < jobs.size() && jobs[next_arrival_].submit == t) {
    const Job& job = jobs[next_arrival_++];
    const int64_t p = std::max<int64_t>(0, predictor_->on_arrival(t, job, updates_));
    prediction_[static_cast<size_t>(job.id)] = p;
    accuracy_.set(job.id, t, p, job.runtime);
    state_.queue.push_back(WaitingJob{job.id, job.submit, job.procs, p});
    scheduler_->on_arrival(state_, state_.queue.back());
    happened = true;
  }
  // 3. Deadline misses (stale entries — job ended or prediction changed — are skipped).
  while (!deadlines_.empty() && deadlines_.top().first == t) {
    const JobId id = deadlines_.top().second;
    deadlines_.pop();
    const JobOutcome& o = result_.jobs[static_cast<size_t>(id)];
    if (o.start < 0 || o.end >= 0 || o.start + prediction_[static_cast<size_t>(id)] != t) continue;
    ++result_.deadline_misses;
    ++epoch_;
    predictor_->on_deadline_miss(t, jobs[static_cast<size_t>(id)], o.start, prediction_[static_cast<size_t>(id)],
                                 updates_);
  }
  // 4. Prediction updates.
  predictions_changed_ = false;
  apply_updates();
  // 5. The scheduler.
  if (happened || predictions_changed_) start_jobs();
  return true;
}

void Engine::apply_updates() {
  // Applying may not add updates (scheduler hooks cannot), but iterate by index to be safe.
  for (size_t k = 0; k < updates_.size(); ++k) set_prediction(updates_[k].job, updates_[k].prediction);
  updates_.clear();
}

void Engine::set_prediction(JobId id, int64_t p) {
  if (id < 0 || static_cast<size_t>(id) >= workload_->jobs.size()) return;
  const auto idx = static_cast<size_t>(id);
  const JobOutcome& o = result_.jobs[idx];
  const bool arrived = idx < next_arrival_;
  const bool waiting = arrived && o.start < 0;
  const bool running = o.start >= 0 && o.end < 0;
  if (!waiting && !running) return;
  p = std::max<int64_t>(p, 0);
  if (running) p = std::max(p, state_.now - o.start);
  const int64_t old = prediction_[idx];
  if (p == old) return;
  if (waiting) {
    auto it = std::lower_bound(state_.queue.begin(), state_.queue.end(), id,
                               [](const WaitingJob& w, JobId j) { return w.id < j; });
    it->prediction = p;
  } else {
    auto& run = state_.running;
    auto it = std::lower_bound(run.begin(), run.end(), std::pair{o.start + old, id}, running_before);
    // Move the job to its new place by rotating only the jobs in between (O(distance), not O(running)).
    const std::pair key{o.start + p, id};
    if (p > old) {
      auto to = std::lower_bound(it + 1, run.end(), key, running_before);
      it = std::rotate(it, it + 1, to);  // the job now sits just before `to`
    } else {
      auto to = std::lower_bound(run.begin(), it, key, running_before);
      std::rotate(to, it, it + 1);
      it = to;
    }
    it->prediction = p;
    const int64_t deadline = o.start + p;
    if (workload_->jobs[idx].runtime > p && deadline > state_.now) deadlines_.push({deadline, id});
    ++epoch_;  // a running job's prediction changed: earlier reservations are no longer promises
  }
  prediction_[idx] = p;
  accuracy_.set(id, state_.now, p, workload_->jobs[idx].runtime);
  scheduler_->on_prediction_change(state_, id, old);
  predictions_changed_ = true;
}

void Engine::start_jobs() {
  do {
    predictions_changed_ = false;
    decision_.clear();
    decision_.wants_reservations = options_.check;
    scheduler_->schedule(state_, decision_);
    ++result_.scheduler_calls;
    // A reservation is a promise only when no running job is overdue (the scheduler's "ends now" for an
    // overdue job is a guess).
    const bool overdue = !state_.running.empty() && state_.running.front().predicted_end() <= state_.now;
    if (options_.check && !overdue) {
      for (const Reservation& r : decision_.reservations) {
        if (r.job < 0 || static_cast<size_t>(r.job) >= promise_.size()) {
          throw std::logic_error(fmt::format("scheduler {} reserved for unknown job {}", scheduler_->name(), r.job));
        }
        auto& p = promise_[static_cast<size_t>(r.job)];
        if (p.second != epoch_ || r.time < p.first) p = {r.time, epoch_};
      }
    }
    if (decision_.start.empty()) break;
    for (JobId id : decision_.start) start_job(id);
    // Remove the started jobs from the queue (one pass), then notify.
    auto& queue = state_.queue;
    queue.erase(std::remove_if(queue.begin(), queue.end(),
                               [&](const WaitingJob& w) { return result_.jobs[static_cast<size_t>(w.id)].start >= 0; }),
                queue.end());
    for (JobId id : decision_.start) {
      const auto idx = static_cast<size_t>(id);
      const JobOutcome& o = result_.jobs[idx];
      predictor_->on_start(state_.now, workload_->jobs[idx], prediction_[idx], updates_);
      auto it = std::lower_bound(state_.running.begin(), state_.running.end(),
                                 std::pair{o.start + prediction_[idx], id}, running_before);
      scheduler_->on_start(state_, *it);
    }
    apply_updates();
  } while (predictions_changed_);
}

void Engine::start_job(JobId id) {
  const auto& queue = state_.queue;
  auto it = std::lower_bound(queue.begin(), queue.end(), id, [](const WaitingJob& w, JobId j) { return w.id < j; });
  const bool valid = id >= 0 && static_cast<size_t>(id) < workload_->jobs.size();
  if (!valid || it == queue.end() || it->id != id) {
    throw std::logic_error(fmt::format("scheduler {} started job {}, which is not waiting", scheduler_->name(), id));
  }
  const auto idx = static_cast<size_t>(id);
  JobOutcome& o = result_.jobs[idx];
  const Job& job = workload_->jobs[idx];
  if (o.start >= 0) {
    throw std::logic_error(fmt::format("scheduler {} started job {} (SWF job {}) twice", scheduler_->name(), id,
                                       job.job_number));
  }
  const int64_t now = state_.now;
  if (job.procs > state_.machine.free()) {
    throw std::logic_error(fmt::format("scheduler {} over-commits the machine at t={}: job {} (SWF job {}) needs {} "
                                       "processors, {} free",
                                       scheduler_->name(), now, id, job.job_number, job.procs, state_.machine.free()));
  }
  if (options_.check) {
    if (now < job.submit) {
      throw std::logic_error(fmt::format("check failed: job {} (SWF job {}) starts at {} before its submission at {}",
                                         id, job.job_number, now, job.submit));
    }
    const auto& p = promise_[idx];
    if (p.second >= 0) {
      if (p.second == epoch_ && now > p.first) {
        throw std::logic_error(fmt::format(
            "check failed: scheduler {} starts job {} (SWF job {}) at {}, after the reservation at {} it held",
            scheduler_->name(), id, job.job_number, now, p.first));
      }
      if (p.second == epoch_) ++result_.reservations_checked;
    }
  }
  RunningJob r;
  r.id = id;
  r.start = now;
  r.procs = job.procs;
  r.prediction = prediction_[idx];
  r.allocation = state_.machine.allocate(id, job.procs);
  auto& run = state_.running;
  run.insert(std::lower_bound(run.begin(), run.end(), std::pair{r.predicted_end(), id}, running_before), r);
  o.start = now;
  o.prediction_at_start = r.prediction;
  accuracy_.started(id, job.runtime);
  terminations_.push({now + job.runtime, id});
  if (job.runtime > r.prediction) deadlines_.push({now + r.prediction, id});
}

void Engine::terminate(JobId id) {
  const auto idx = static_cast<size_t>(id);
  JobOutcome& o = result_.jobs[idx];
  const Job& job = workload_->jobs[idx];
  auto& run = state_.running;
  auto it = std::lower_bound(run.begin(), run.end(), std::pair{o.start + prediction_[idx], id}, running_before);
  if (it == run.end() || it->id != id || o.end >= 0) {
    throw std::logic_error(fmt::format("internal error: terminating job {} which is not running", id));
  }
  const int64_t now = state_.now;
  if (options_.check && now - o.start != job.runtime) {
    throw std::logic_error(fmt::format("check failed: job {} (SWF job {}) ran {} s instead of {} s", id,
                                       job.job_number, now - o.start, job.runtime));
  }
  const RunningJob finished = *it;
  run.erase(it);
  state_.machine.release(finished.allocation);
  o.end = now;
  result_.job_accuracy[idx] = accuracy_.finish(id, now, job.runtime);
  result_.termination_order.push_back(id);
  predictor_->on_termination(now, job, o.start, updates_);
  scheduler_->on_termination(state_, finished);
}

void Engine::run() {
  while (step()) {
  }
  finish();
}

void Engine::finish() {
  if (!state_.queue.empty()) {
    const Job& j = workload_->jobs[static_cast<size_t>(state_.queue.front().id)];
    throw std::logic_error(fmt::format(
        "scheduler {} left {} jobs waiting on an idle machine at the end (first: SWF job {}, {} processors)",
        scheduler_->name(), state_.queue.size(), j.job_number, j.procs));
  }
  const auto& jobs = workload_->jobs;
  std::vector<JobTimes> times;
  times.reserve(jobs.size());
  if (result_.termination_order.size() != jobs.size()) {
    throw std::logic_error(fmt::format("check failed: {} of {} jobs terminated", result_.termination_order.size(),
                                       jobs.size()));
  }
  for (JobId id : result_.termination_order) {
    const auto idx = static_cast<size_t>(id);
    const JobOutcome& o = result_.jobs[idx];
    times.push_back({jobs[idx].submit, o.start, o.end, jobs[idx].procs});
  }
  if (options_.check) {
    std::vector<char> seen(jobs.size(), 0);
    for (JobId id : result_.termination_order) {
      if (seen[static_cast<size_t>(id)]++) throw std::logic_error(fmt::format("check failed: job {} ended twice", id));
    }
    if (state_.machine.free() != state_.machine.total() || !state_.running.empty()) {
      throw std::logic_error("check failed: processors still allocated at the end");
    }
  }
  result_.metrics = compute_metrics(times, workload_->procs, options_.bsld_tau, options_.warmup_fraction);
  // Accuracy over the same jobs as the averages (termination order minus the warm-up).
  std::vector<predict::JobAccuracy> kept;
  kept.reserve(jobs.size());
  for (size_t k = static_cast<size_t>(result_.metrics.warmup_excluded); k < result_.termination_order.size(); ++k) {
    kept.push_back(result_.job_accuracy[static_cast<size_t>(result_.termination_order[k])]);
  }
  result_.accuracy = predict::summarize_accuracy(kept);
}

}  // namespace schedlab::sim
