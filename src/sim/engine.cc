#include "schedlab/sim/engine.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/core.h>

#include "base/huge_pages.h"
#include "schedlab/base/count_text.h"
#include "sim/metrics_of.h"

namespace schedlab::sim {

namespace {
constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

// Whether an engine can continue from this snapshot: every job it names is a job of the workload submitted by
// then, with the workload's processors and submit time; no job started after the snapshot's time; and the
// machine (of the workload's size) has exactly the running jobs' processors in use. Checked before anything is
// run, so that a hand-made or stale snapshot is refused with what is wrong in it, not half-run into a broken
// invariant later (or, for a job's size, into a quietly wrong schedule).
void check_snapshot(const Workload& workload, const SimState& s) {
  const int64_t now = s.now;
  if (s.machine.total() != workload.procs)
    throw std::invalid_argument(fmt::format("state snapshot: a machine of {} processors, the workload has {}",
                                            s.machine.total(), workload.procs));
  const auto& jobs = workload.jobs;
  const auto job_of = [&](JobId id) -> const Job& {
    if (id < 0 || static_cast<size_t>(id) >= jobs.size() || jobs[static_cast<size_t>(id)].submit > now)
      throw std::invalid_argument(fmt::format("state snapshot at {}: job {} is not a submitted job of the workload",
                                              now, id));
    return jobs[static_cast<size_t>(id)];
  };
  const auto refuse = [&](std::string_view what, JobId id, const Job& job, const std::string& why) {
    throw std::invalid_argument(fmt::format("state snapshot at {}: {} job {} (SWF job {}) {}", now, what, id,
                                            job.job_number, why));
  };
  for (const WaitingJob& w : s.queue) {
    const Job& job = job_of(w.id);
    if (w.procs != job.procs)
      refuse("waiting", w.id, job, fmt::format("has {} processors, the workload's job {}", w.procs, job.procs));
    if (w.submit != job.submit)
      refuse("waiting", w.id, job, fmt::format("was submitted at {}, the workload's job at {}", w.submit, job.submit));
    if (w.prediction < 0) refuse("waiting", w.id, job, fmt::format("has a negative prediction ({})", w.prediction));
    if (w.attained < 0) refuse("waiting", w.id, job, fmt::format("has run a negative time ({})", w.attained));
  }
  int64_t held = 0;
  for (const RunningJob& r : s.running) {
    const Job& job = job_of(r.id);
    if (r.procs != job.procs)
      refuse("running", r.id, job, fmt::format("has {} processors, the workload's job {}", r.procs, job.procs));
    if (r.start > now) refuse("running", r.id, job, fmt::format("started at {}, after the snapshot's time", r.start));
    if (r.prediction < 0) refuse("running", r.id, job, fmt::format("has a negative prediction ({})", r.prediction));
    if (s.machine.tracks_processors()) {
      const auto on = s.running_on.find(r.id);
      const int64_t procs = on == s.running_on.end() ? 0 : proc_count(on->second);
      if (procs != r.procs)
        refuse("running", r.id, job, fmt::format("holds {} processors of the machine, not {}", procs, r.procs));
    }
    held += r.procs;
  }
  if (held != s.machine.used())
    throw std::invalid_argument(fmt::format("state snapshot at {}: the machine has {} processors in use, the running "
                                            "jobs hold {}",
                                            now, s.machine.used(), held));
}
}  // namespace

Engine::Engine(const Workload& workload, std::unique_ptr<Scheduler> scheduler,
               std::unique_ptr<predict::Predictor> predictor, const SimOptions& options)
    : workload_(&workload), scheduler_(std::move(scheduler)), predictor_(std::move(predictor)), options_(options) {
  if (!scheduler_ || !predictor_) throw std::invalid_argument("simulation needs a scheduler and a predictor");
  // Processor identities cost O(log F) per allocation: kept when the scheduler needs them, and under --check
  // (to verify that no processor runs two jobs).
  state_.machine = Machine(workload.procs, scheduler_->needs_processors() || options_.check);
  state_.jobs = &workload.jobs;
  result_.scheduler = std::string(scheduler_->name());
  result_.predictor = std::string(predictor_->label());
  result_.procs = workload.procs;
  // (The big per-job tables on 2 MB pages where the kernel allows: base/huge_pages.h.)
  const size_t n = workload.jobs.size();
  base::reserve_huge(result_.jobs, n);
  result_.jobs.resize(n);
  base::reserve_huge(result_.termination_order, n);
  base::reserve_huge(slot_, n);
  slot_.assign(n, kPendingSlot);
  arrival_end_ = total_ = n;
  accuracy_.resize(workload.jobs.size());
  base::reserve_huge(result_.job_accuracy, n);
  result_.job_accuracy.resize(n);
  if (options_.check) promise_.assign(workload.jobs.size(), {kNever, -1});
  for (size_t i = 0; i < workload.jobs.size(); ++i) {
    const Job& j = workload.jobs[i];
    if (j.id != static_cast<JobId>(i) || (i > 0 && j.submit < workload.jobs[i - 1].submit) || j.procs <= 0 ||
        j.procs > workload.procs || j.runtime < 0) {
      throw std::invalid_argument(fmt::format("workload job {} is invalid or out of order", i));
    }
  }
  if (workload.has_feedback()) {
    if (workload.after.size() != n || workload.think.size() != n)
      throw std::invalid_argument("workload: the feedback links do not cover every job");
    first_follower_.assign(n, -1);
    next_follower_.assign(n, -1);
    // Built backwards so that each list holds its followers in job order (they arrive in that order when their
    // think times are equal).
    for (size_t i = n; i-- > 0;) {
      const JobId a = workload.after[i];
      if (a < 0) continue;
      if (static_cast<size_t>(a) >= i || workload.think[i] < 0)
        throw std::invalid_argument(fmt::format("workload job {} follows job {}, not an earlier one, or has a negative "
                                                "think time", i, a));
      next_follower_[i] = first_follower_[static_cast<size_t>(a)];
      first_follower_[static_cast<size_t>(a)] = static_cast<JobId>(i);
    }
    base::reserve_huge(result_.submit, n);
    result_.submit.assign(n, -1);
    state_.submits = result_.submit.data();
    skip_followers();
  }
}

Engine::Engine(const Engine& other)
    : workload_(other.workload_),
      arrival_end_(other.arrival_end_),
      total_(other.total_),
      predicted_runtimes_(other.predicted_runtimes_),
      runtime_(other.runtime_),
      done_before_(other.done_before_),
      scheduler_(other.scheduler_->clone()),
      predictor_(other.predictor_->clone()),
      options_(other.options_),
      state_(other.state_),
      result_(other.result_),
      next_arrival_(other.next_arrival_),
      terminations_(other.terminations_),
      deadlines_(other.deadlines_),
      first_follower_(other.first_follower_),
      next_follower_(other.next_follower_),
      follower_arrivals_(other.follower_arrivals_),
      followers_arrive_(other.followers_arrive_),
      slot_(other.slot_),
      live_(other.live_),
      free_live_(other.free_live_),
      suspended_now_(other.suspended_now_),
      missed_now_(other.missed_now_),
      accuracy_(other.accuracy_),
      updates_(other.updates_),
      decision_(other.decision_),
      predictions_changed_(other.predictions_changed_),
      epoch_(other.epoch_),
      promise_(other.promise_),
      wake_at_(other.wake_at_),
      idle_wakeups_(other.idle_wakeups_) {
  // (The state points at this engine's own submit times.)
  state_.submits = result_.submit.empty() ? nullptr : result_.submit.data();
}

Engine& Engine::operator=(const Engine& other) {
  if (this != &other) *this = Engine(other);
  return *this;
}

Engine Engine::fork(std::unique_ptr<Scheduler> scheduler, const ForkOptions& options) const {
  if (!scheduler) throw std::invalid_argument("fork needs a scheduler");
  if (scheduler->needs_processors() && !state_.machine.tracks_processors()) {
    throw std::invalid_argument(fmt::format("scheduler {} needs processor identities, which this simulation does not "
                                            "track: fork from a simulation of such a scheduler or under --check",
                                            scheduler->name()));
  }
  Engine f(*this);
  f.options_.progress = nullptr;  // a fork is not the run the caller watches
  f.scheduler_ = std::move(scheduler);
  f.result_.scheduler = std::string(f.scheduler_->name());
  f.wake_at_ = kNever;  // the old scheduler's request
  f.idle_wakeups_ = 0;
  // --check holds a scheduler to its own reservations, not to those of the one it replaces.
  std::fill(f.promise_.begin(), f.promise_.end(), std::pair<int64_t, int64_t>{kNever, -1});
  ++f.epoch_;
  if (!options.future_arrivals) {
    f.arrival_end_ = f.total_ = f.next_arrival_;
    if (workload_->has_feedback()) {
      // The jobs here by now, wherever they are in the workload's order: no follower arrives any more.
      f.follower_arrivals_ = MinHeap();
      f.followers_arrive_ = false;
      f.total_ = 0;
      for (const int32_t s : f.slot_) f.total_ += s == kPendingSlot ? 0 : 1;
    }
  }
  if (options.runtimes == ForkOptions::Runtimes::kPredicted) {
    f.predicted_runtimes_ = true;
    // Running jobs end at their predicted end (an overdue one now); the heaps are rebuilt for that.
    f.terminations_ = MinHeap();
    f.deadlines_ = MinHeap();
    f.own_runtimes();
    for (const RunningJob& r : f.state_.running) {
      const auto idx = static_cast<size_t>(r.id);
      Live& l = f.live(idx);
      const int64_t end = std::max(l.eff_start + l.prediction, f.state_.now);
      f.runtime_[idx] = end - l.eff_start;
      l.end_at = end;
      f.terminations_.push({end, r.id});
    }
  }
  return f;
}

Engine Engine::from_state(const Workload& workload, const SimState& snapshot, std::unique_ptr<Scheduler> scheduler,
                          std::unique_ptr<predict::Predictor> predictor, const SimOptions& options,
                          const ForkOptions& fork_options) {
  if (workload.has_feedback())
    throw std::invalid_argument("a state snapshot does not say when the jobs that follow others arrive: start an engine "
                                "with feedback from its beginning (or fork it)");
  Engine e(workload, std::move(scheduler), std::move(predictor), options);
  const int64_t now = snapshot.now;
  const auto& jobs = workload.jobs;
  check_snapshot(workload, snapshot);
  const auto job_of = [&](JobId id) -> const Job& { return jobs[static_cast<size_t>(id)]; };
  if (e.scheduler_->needs_processors() && !snapshot.machine.tracks_processors())
    throw std::invalid_argument(fmt::format("scheduler {} needs processor identities the snapshot does not track",
                                            e.scheduler_->name()));
  e.state_ = snapshot;
  e.state_.jobs = &jobs;
  const bool predicted = fork_options.runtimes == ForkOptions::Runtimes::kPredicted;
  e.predicted_runtimes_ = predicted;
  e.own_runtimes();
  e.next_arrival_ = static_cast<size_t>(
      std::upper_bound(jobs.begin(), jobs.end(), now, [](int64_t t, const Job& j) { return t < j.submit; }) -
      jobs.begin());
  e.arrival_end_ = e.total_ = fork_options.future_arrivals ? jobs.size() : e.next_arrival_;
  for (const WaitingJob& wj : snapshot.queue) {
    const Job& job = job_of(wj.id);
    const auto idx = static_cast<size_t>(wj.id);
    if (e.status(idx) != Status::kPending)
      throw std::invalid_argument(fmt::format("state snapshot: job {} is waiting twice", wj.id));
    Live& l = e.admit(idx);
    l.prediction = l.arrival_prediction = wj.prediction;
    l.attained = wj.attained;
    e.accuracy_.set(wj.id, now, wj.prediction, job.runtime);
  }
  for (const RunningJob& r : snapshot.running) {
    const Job& job = job_of(r.id);
    const auto idx = static_cast<size_t>(r.id);
    if (e.status(idx) != Status::kPending)
      throw std::invalid_argument(fmt::format("state snapshot: job {} is both waiting and running", r.id));
    Live& l = e.admit(idx);
    l.status = Status::kRunning;
    l.prediction = l.arrival_prediction = r.prediction;
    l.eff_start = r.start;
    const int64_t end = predicted ? std::max(r.start + r.prediction, now) : std::max(r.start + job.runtime, now);
    e.runtime_[idx] = end - r.start;
    l.end_at = end;
    e.terminations_.push({end, r.id});
    if (e.runtime_[idx] > r.prediction) e.deadlines_.push({std::max(now, r.predicted_end()), r.id});
    e.result_.jobs[idx].start = r.start;
    e.result_.jobs[idx].prediction_at_start = r.prediction;
    e.accuracy_.set(r.id, now, r.prediction, job.runtime);
    e.accuracy_.started(r.id, job.runtime);
  }
  for (size_t i = 0; i < e.next_arrival_; ++i) {
    if (e.slot_[i] == kPendingSlot) {
      e.slot_[i] = kDoneSlot;
      ++e.done_before_;
    }
  }
  return e;
}

Engine::Live& Engine::admit(size_t idx) {
  int32_t s = 0;
  if (free_live_.empty()) {
    s = static_cast<int32_t>(live_.size());
    live_.emplace_back();
  } else {
    s = free_live_.back();
    free_live_.pop_back();
    live_[static_cast<size_t>(s)] = Live{};
  }
  slot_[idx] = s;
  return live_[static_cast<size_t>(s)];
}

void Engine::retire(size_t idx) {
  free_live_.push_back(slot_[idx]);
  slot_[idx] = kDoneSlot;
}

void Engine::own_runtimes() {
  if (!runtime_.empty()) return;
  const auto& jobs = workload_->jobs;
  runtime_.resize(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) runtime_[i] = jobs[i].runtime;
}

int64_t Engine::next_time() const {
  int64_t t = kNever;
  if (next_arrival_ < arrival_end_) t = workload_->jobs[next_arrival_].submit;
  if (!follower_arrivals_.empty()) t = std::min(t, follower_arrivals_.top().first);
  if (!terminations_.empty()) t = std::min(t, terminations_.top().first);
  if (!deadlines_.empty()) t = std::min(t, deadlines_.top().first);
  return std::min(t, wake_at_);
}

bool Engine::step() {
  const int64_t t = next_time();
  if (t == kNever) return false;
  // Loss of capacity: the state since the last instant held until now.
  if (!state_.queue.empty() && t > state_.now)
    result_.idle_while_waiting += static_cast<double>(state_.machine.free()) * static_cast<double>(t - state_.now);
  state_.now = t;
  // A wake-up the scheduler asked for counts as something happening: the scheduler is called.
  bool happened = wake_at_ == t;
  if (happened) wake_at_ = kNever;

  // 1. Terminations (the heap pops equal times in job-id order; stale entries of suspended jobs are skipped).
  while (!terminations_.empty() && terminations_.top().first == t) {
    const JobId id = terminations_.top().second;
    terminations_.pop();
    const auto idx = static_cast<size_t>(id);
    if (status(idx) != Status::kRunning || live(idx).end_at != t) continue;
    terminate(id, false);
    happened = true;
  }
  // 2. Arrivals, in queue order: by job id (ids follow (submit, job number)), the followers of ended jobs among
  //    the others.
  const auto& jobs = workload_->jobs;
  if (follower_arrivals_.empty()) {
    while (next_arrival_ < arrival_end_ && jobs[next_arrival_].submit == t) {
      arrive(jobs[next_arrival_++], t);
      skip_followers();
      happened = true;
    }
  } else {
    for (;;) {
      const bool walk = next_arrival_ < arrival_end_ && jobs[next_arrival_].submit == t;
      const bool follower = !follower_arrivals_.empty() && follower_arrivals_.top().first == t;
      if (follower && (!walk || follower_arrivals_.top().second < static_cast<JobId>(next_arrival_))) {
        const auto idx = static_cast<size_t>(follower_arrivals_.top().second);
        follower_arrivals_.pop();
        arrive(jobs[idx], t);
      } else if (walk) {
        arrive(jobs[next_arrival_++], t);
        skip_followers();
      } else {
        break;
      }
      happened = true;
    }
  }
  // 3. Deadline misses (stale entries — job ended, suspended or prediction changed — are skipped), then the
  //    scheduler's overrun policy.
  const Overrun overrun = scheduler_->overrun();
  suspended_now_.clear();
  missed_now_.clear();
  while (!deadlines_.empty() && deadlines_.top().first == t) {
    const JobId id = deadlines_.top().second;
    deadlines_.pop();
    const auto idx = static_cast<size_t>(id);
    if (status(idx) != Status::kRunning || live(idx).eff_start + live(idx).prediction != t) continue;
    ++result_.deadline_misses;
    ++epoch_;
    if (overrun == Overrun::kKill) {
      terminate(id, true);
      happened = true;
      continue;
    }
    predictor_->on_deadline_miss(t, seen(idx), live(idx).eff_start, live(idx).prediction, updates_);
    if (overrun == Overrun::kSuspend) {
      suspend(id);
      suspended_now_.push_back(id);
      happened = true;
    } else {
      missed_now_.push_back(id);
    }
  }
  // 4. Prediction updates; a job suspended at its deadline whose predictor gave it nothing longer is
  //    re-queued "as if resubmitted": time run + its prediction at arrival.
  predictions_changed_ = false;
  apply_updates();
  // What the predictor made of each miss of a job running on: no longer prediction (overdue), or one second more.
  for (JobId id : missed_now_) {
    const auto idx = static_cast<size_t>(id);
    if (status(idx) != Status::kRunning) continue;
    Live& l = live(idx);
    const int64_t end = l.eff_start + l.prediction;
    if (end <= t) ++result_.overdue_misses;
    if (predict::second_by_second(l.streak, end, t)) ++result_.second_by_second_jobs;
  }
  for (JobId id : suspended_now_) {
    const auto idx = static_cast<size_t>(id);
    if (status(idx) == Status::kWaiting && live(idx).prediction <= live(idx).attained) {
      set_prediction(id, live(idx).attained + std::max<int64_t>(live(idx).arrival_prediction, 1));
    }
  }
  // 5. The scheduler.
  if (happened || predictions_changed_) start_jobs();
  return true;
}

void Engine::arrive(const Job& job, int64_t t) {
  const auto idx = static_cast<size_t>(job.id);
  if (!result_.submit.empty()) result_.submit[idx] = t;
  const int64_t p = std::max<int64_t>(0, predictor_->on_arrival(t, seen(idx), updates_));
  Live& l = admit(idx);
  l.prediction = p;
  l.arrival_prediction = p;
  accuracy_.set(job.id, t, p, job.runtime);
  state_.queue.push_back(WaitingJob{job.id, job.procs, t, p, 0});
  scheduler_->on_arrival(state_, state_.queue.back());
}

const RunningJob& Engine::find_running(JobId id) const {
  const Live& l = live(static_cast<size_t>(id));
  const RunningJob* r = state_.running.find(l.eff_start + l.prediction, id);
  if (r == nullptr) throw std::logic_error(fmt::format("internal error: job {} is not in the running list", id));
  return *r;
}

RunningJob Engine::erase_running(JobId id) {
  const Live& l = live(static_cast<size_t>(id));
  return state_.running.erase(l.eff_start + l.prediction, id);
}

void Engine::apply_updates() {
  // Applying may not add updates (scheduler hooks cannot), but iterate by index to be safe.
  for (size_t k = 0; k < updates_.size(); ++k) set_prediction(updates_[k].job, updates_[k].prediction);
  updates_.clear();
}

void Engine::set_prediction(JobId id, int64_t p) {
  if (id < 0 || static_cast<size_t>(id) >= workload_->jobs.size()) return;
  const auto idx = static_cast<size_t>(id);
  const Status st = status(idx);
  const bool waiting = st == Status::kWaiting;
  const bool running = st == Status::kRunning;
  if (!waiting && !running) return;
  Live& l = live(idx);
  p = std::max<int64_t>(p, 0);
  if (running) p = std::max(p, state_.now - l.eff_start);
  if (waiting) p = std::max(p, l.attained);
  const int64_t old = l.prediction;
  if (p == old) return;
  if (waiting) {
    state_.queue.set_prediction(id, p);
    // A waiting job that needs longer may have to wait longer: its reservation rested on its old length (the
    // others' stay promises: a policy can keep them by moving this job alone, as conservative does).
    if (p > old && options_.check) promise_[idx] = {kNever, -1};
  } else {
    state_.running.set_prediction(l.eff_start + old, id, p);
    const int64_t deadline = l.eff_start + p;
    if (l.end_at > deadline && deadline > state_.now) deadlines_.push({deadline, id});
    ++epoch_;  // a running job's prediction changed: earlier reservations are no longer promises
  }
  l.prediction = p;
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
    wake_at_ = decision_.wake_at > state_.now ? decision_.wake_at : kNever;
    // A scheduler that only ever asks to be woken again, with nothing running and no job left to arrive,
    // would never let the run end (time only moves on): an error after a bounded number of such calls.
    if (wake_at_ != kNever && decision_.start.empty() && state_.running.empty() &&
        next_arrival_ == arrival_end_ && follower_arrivals_.empty()) {
      if (++idle_wakeups_ > kMaxIdleWakeups) {
        throw std::logic_error(fmt::format("scheduler {} asked to be woken {} times on an idle machine with no "
                                           "job left to arrive, starting none of the {} waiting jobs",
                                           scheduler_->name(), kMaxIdleWakeups, state_.queue.size()));
      }
    } else {
      idle_wakeups_ = 0;
    }
    // A reservation is a promise only when no running job is overdue (the scheduler's "ends now" for an
    // overdue job is a guess).
    const bool overdue = !state_.running.empty() && state_.running.front().predicted_end() <= state_.now;
    if (options_.check && !overdue) {
      for (const Reservation& r : decision_.reservations) {
        if (r.job < 0 || static_cast<size_t>(r.job) >= promise_.size()) {
          throw std::logic_error(fmt::format("scheduler {} reserved for unknown job {}", scheduler_->name(), r.job));
        }
        if (r.time < state_.now) {  // a promise broken as it is made: the job cannot start in the past
          throw std::logic_error(fmt::format("check failed: scheduler {} reserved job {} (SWF job {}) for {}, before "
                                             "now ({})",
                                             scheduler_->name(), r.job,
                                             workload_->jobs[static_cast<size_t>(r.job)].job_number, r.time,
                                             state_.now));
        }
        auto& p = promise_[static_cast<size_t>(r.job)];
        if (p.second != epoch_ || r.time < p.first) p = {r.time, epoch_};
      }
    }
    if (decision_.start.empty() && decision_.suspend.empty()) break;
    for (JobId id : decision_.suspend) {
      if (id < 0 || static_cast<size_t>(id) >= slot_.size() || status(static_cast<size_t>(id)) != Status::kRunning) {
        throw std::logic_error(fmt::format("scheduler {} suspends job {}, which is not running", scheduler_->name(), id));
      }
      suspend(id);
    }
    // Each job leaves the queue as it starts (O(1), WaitQueue), then the scheduler is told of each start.
    for (JobId id : decision_.start) start_job(id);
    for (JobId id : decision_.start) {
      const auto idx = static_cast<size_t>(id);
      if (result_.jobs[idx].start == state_.now && live(idx).attained == 0) {
        predictor_->on_start(state_.now, seen(idx), live(idx).prediction, updates_);
      }
      // (The job as it sits in the running list, without searching the list for it.)
      const Live& l = live(idx);
      const RunningJob started{id, workload_->jobs[idx].procs, l.eff_start, l.prediction};
      if (options_.check && !(find_running(id) == started)) {
        throw std::logic_error(fmt::format("internal error: job {} differs from its entry in the running list", id));
      }
      scheduler_->on_start(state_, started);
    }
    apply_updates();
  } while (predictions_changed_);
}

void Engine::start_job(JobId id) {
  const bool valid = id >= 0 && static_cast<size_t>(id) < workload_->jobs.size();
  const WaitingJob* w = valid ? state_.queue.find(id) : nullptr;
  if (w == nullptr) {
    // Say what the job is instead, when it is one: a job started twice in one decision is running by now.
    std::string what = "not a job of this workload";
    if (valid) {
      const auto idx = static_cast<size_t>(id);
      what = fmt::format("SWF job {}, {}", workload_->jobs[idx].job_number,
                         status(idx) == Status::kRunning ? "already running (started twice?)"
                         : status(idx) == Status::kDone  ? "already ended"
                                                         : "not yet arrived");
    }
    throw std::logic_error(
        fmt::format("scheduler {} started job {}, which is not waiting ({})", scheduler_->name(), id, what));
  }
  const auto idx = static_cast<size_t>(id);
  JobOutcome& o = result_.jobs[idx];
  const Job& job = workload_->jobs[idx];
  Live& l = live(idx);
  const bool resume = l.attained > 0;
  if (o.start >= 0 && !resume && o.suspensions == 0) {
    throw std::logic_error(fmt::format("scheduler {} started job {} (SWF job {}) twice", scheduler_->name(), id,
                                       job.job_number));
  }
  const int64_t now = state_.now;
  if (job.procs > state_.machine.free()) {
    throw std::logic_error(fmt::format("scheduler {} over-commits the machine at t={}: job {} (SWF job {}) needs {} "
                                       "processors, {} free",
                                       scheduler_->name(), now, id, job.job_number, job.procs, state_.machine.free()));
  }
  if (options_.check && o.start < 0) {
    if (now < state_.submitted(id)) {
      throw std::logic_error(fmt::format("check failed: job {} (SWF job {}) starts at {} before its submission at {}",
                                         id, job.job_number, now, state_.submitted(id)));
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
  // A resumed job makes progress only after the scheduler's resume delay.
  r.start = now - l.attained + (resume ? scheduler_->resume_delay() : 0);
  r.procs = job.procs;
  r.prediction = l.prediction;
  const auto held = state_.held.find(id);
  if (held != state_.held.end()) {
    // A suspended job resumes where it left (its memory image is there).
    if (!state_.machine.all_free(held->second)) {
      throw std::logic_error(fmt::format("scheduler {} resumes job {} (SWF job {}) at t={} but its processors are busy",
                                         scheduler_->name(), id, job.job_number, now));
    }
    state_.machine.allocate_exactly(id, held->second);
    state_.running_on[id] = std::move(held->second);
    state_.held.erase(held);
  } else {
    Allocation a = state_.machine.allocate(id, job.procs, decision_.avoid);
    if (state_.machine.tracks_processors()) state_.running_on[id] = std::move(a.ranges);
  }
  state_.queue.erase(id);
  state_.running.insert(r);
  l.status = Status::kRunning;
  l.eff_start = r.start;
  // A fork with predicted runtimes: the job runs what is predicted for it now (never less than it has run).
  if (predicted_runtimes_) runtime_[idx] = std::max(l.prediction, l.attained);
  const int64_t runtime = runtime_of(idx);
  l.end_at = r.start + runtime;
  if (o.start < 0) {
    o.start = now;
    o.prediction_at_start = r.prediction;
    accuracy_.started(id, job.runtime);
  }
  terminations_.push({l.end_at, id});
  if (runtime > r.prediction) deadlines_.push({std::max(now, r.predicted_end()), id});
}

ProcSet Engine::release(const RunningJob& r) {
  Allocation a{r.id, r.procs, {}};
  if (state_.machine.tracks_processors()) {
    auto it = state_.running_on.find(r.id);
    if (it != state_.running_on.end()) {
      a.ranges = std::move(it->second);
      state_.running_on.erase(it);
    }
  }
  state_.machine.release(a);
  return std::move(a.ranges);
}

void Engine::suspend(JobId id) {
  const auto idx = static_cast<size_t>(id);
  const RunningJob left = erase_running(id);
  ProcSet procs_left = release(left);
  // Suspended again during a resume delay: it has run no more than before.
  Live& l = live(idx);
  const int64_t ran = std::max(state_.now - l.eff_start, l.attained);
  l.attained = ran;
  if (ran > 0 && !procs_left.empty()) state_.held[id] = std::move(procs_left);
  l.status = Status::kWaiting;
  l.end_at = -1;
  const Job& job = workload_->jobs[idx];
  state_.queue.push_back(WaitingJob{id, job.procs, state_.submitted(id), l.prediction, ran});
  ++result_.jobs[idx].suspensions;
  ++result_.suspensions;
  ++epoch_;  // promises made before rest on the suspended job's processors
  scheduler_->on_suspend(state_, left);
}

void Engine::terminate(JobId id, bool killed) {
  const auto idx = static_cast<size_t>(id);
  JobOutcome& o = result_.jobs[idx];
  const Job& job = workload_->jobs[idx];
  if (status(idx) != Status::kRunning) {
    throw std::logic_error(fmt::format("internal error: terminating job {} which is not running", id));
  }
  const int64_t now = state_.now;
  const int64_t ran = now - live(idx).eff_start;
  if (options_.check && (killed ? ran > runtime_of(idx) : ran != runtime_of(idx))) {
    throw std::logic_error(fmt::format("check failed: job {} (SWF job {}) ran {} s instead of {} s", id,
                                       job.job_number, ran, runtime_of(idx)));
  }
  const RunningJob finished = erase_running(id);
  release(finished);
  retire(idx);
  o.end = now;
  o.ran = ran;
  o.killed = killed;
  if (killed) ++result_.kills;
  result_.job_accuracy[idx] = accuracy_.finish(id, now, ran);
  result_.termination_order.push_back(id);
  if (followers_arrive_ && !first_follower_.empty()) {
    for (JobId f = first_follower_[idx]; f >= 0; f = next_follower_[static_cast<size_t>(f)])
      follower_arrivals_.push({now + workload_->think[static_cast<size_t>(f)], f});
  }
  predictor_->on_termination(now, seen(idx), now - ran, updates_);
  scheduler_->on_termination(state_, finished);
}

void Engine::run() {
  if (!options_.progress) {
    while (step()) {
    }
  } else {
    // The clock is read every 1,024 instants: the display costs nothing measurable.
    auto last = std::chrono::steady_clock::now();
    for (uint32_t n = 1; step(); ++n) {
      if ((n & 1023u) != 0) continue;
      const auto now = std::chrono::steady_clock::now();
      if (now - last < std::chrono::milliseconds(200)) continue;
      last = now;
      options_.progress(result_.termination_order.size() + done_before_, total_);
    }
    options_.progress(result_.termination_order.size() + done_before_, total_);
  }
  finish();
}

void Engine::finish() {
  if (!state_.queue.empty()) {
    const Job& j = workload_->jobs[static_cast<size_t>(state_.queue.front().id)];
    throw std::logic_error(fmt::format(
        "scheduler {} left {} waiting on an idle machine at the end (first: SWF job {}, {} processors)",
        scheduler_->name(), base::counted(static_cast<int64_t>(state_.queue.size()), "job"), j.job_number, j.procs));
  }
  const auto& jobs = workload_->jobs;
  if (result_.termination_order.size() + done_before_ != total_) {
    throw std::logic_error(fmt::format("check failed: {} of {} jobs terminated",
                                       result_.termination_order.size() + done_before_, total_));
  }
  // Every job has ended: the per-job tracking state is freed before the metrics are computed (the peak of a
  // run would be here otherwise).
  accuracy_ = predict::AccuracyTracker();
  std::vector<int32_t>().swap(slot_);
  std::vector<Live>().swap(live_);
  std::vector<int32_t>().swap(free_live_);
  std::vector<int64_t>().swap(runtime_);
  if (options_.check) {
    std::vector<char> ended(jobs.size(), 0);
    for (JobId id : result_.termination_order) {
      if (ended[static_cast<size_t>(id)]++) throw std::logic_error(fmt::format("check failed: job {} ended twice", id));
    }
    if (state_.machine.free() != state_.machine.total() || !state_.running.empty() || !state_.held.empty()) {
      throw std::logic_error("check failed: processors still allocated at the end");
    }
  }
  if (const AdaptiveStats* a = scheduler_->adaptive_stats()) result_.adaptive = *a;
  // The metrics read the outcomes in place (a copy of every job's times would be the peak of the run): the sums in
  // termination order, the values for the quantiles by job id, in sequence (a bit per job says which are kept).
  const auto& order = result_.termination_order;
  const auto time_of = [&](size_t idx) {
    const JobOutcome& o = result_.jobs[idx];
    return JobTimes{result_.submitted(*workload_, idx), o.start, o.end, jobs[idx].procs, o.ran};
  };
  const auto skip = std::min(order.size(), static_cast<size_t>(std::floor(options_.warmup_fraction *
                                                                          static_cast<double>(order.size()))));
  std::vector<bool> kept(jobs.size(), false);
  for (size_t k = skip; k < order.size(); ++k) kept[static_cast<size_t>(order[k])] = true;
  result_.metrics = metrics_of(
      order.size(), [&](size_t k) { return time_of(static_cast<size_t>(order[k])); },
      [&](auto&& f) {
        for (size_t idx = 0; idx < jobs.size(); ++idx) {
          if (kept[idx]) f(time_of(idx));
        }
      },
      workload_->procs, options_.bsld_tau, options_.warmup_fraction);
  result_.backfilled = 0;
  each_passing_job(result_, [&](size_t idx) { result_.backfilled += kept[idx] ? 1 : 0; });
  // Accuracy over the same jobs as the averages (termination order minus the warm-up).
  result_.accuracy = predict::summarize_accuracy(result_.job_accuracy, result_.termination_order,
                                                 static_cast<size_t>(result_.metrics.warmup_excluded));
}

}  // namespace schedlab::sim
