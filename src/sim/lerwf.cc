#include "schedlab/sim/lerwf.h"

#include <algorithm>
#include <iterator>
#include <map>

namespace schedlab::sim {

namespace {
// A set of claimed processors as disjoint ranges lo -> hi.
class Claimed {
 public:
  bool empty() const { return ranges_.empty(); }
  bool overlaps(const ProcSet& set) const {
    for (const ProcRange& r : set) {
      auto it = ranges_.upper_bound(r.lo);
      if (it != ranges_.begin() && std::prev(it)->second > r.lo) return true;
      if (it != ranges_.end() && it->first < r.hi) return true;
    }
    return false;
  }
  void add(const ProcSet& set) {
    for (const ProcRange& r : set) ranges_.emplace(r.lo, r.hi);  // disjoint by construction (overlaps() first)
  }

 private:
  std::map<int32_t, int32_t> ranges_;
};

// Whether `set` meets one of `sorted` (disjoint ranges ordered by lo).
bool meets(const std::vector<ProcRange>& sorted, const ProcSet& set) {
  for (const ProcRange& r : set) {
    const auto it =
        std::upper_bound(sorted.begin(), sorted.end(), r.lo, [](int32_t lo, const ProcRange& x) { return lo < x.lo; });
    if (it != sorted.begin() && std::prev(it)->hi > r.lo) return true;
    if (it != sorted.end() && it->lo < r.hi) return true;
  }
  return false;
}

const ProcSet* find_set(const std::map<JobId, ProcSet>& sets, JobId id) {
  const auto it = sets.find(id);
  return it == sets.end() ? nullptr : &it->second;
}
}  // namespace

void LerwfScheduler::add_waiting(const SimState& state, const WaitingJob& job) {
  const auto id = static_cast<size_t>(job.id);
  if (key_of_.size() <= id) key_of_.resize(std::max(id + 1, 2 * key_of_.size()), -1);
  if (key_of_[id] >= 0) remove_waiting(job.id);
  const Key k{job.remaining(), job.id, job.procs, state.held.count(job.id) != 0};
  key_of_[id] = k.remaining;
  waiting_.insert(k);
  if (k.held) held_.insert(k);
}

void LerwfScheduler::remove_waiting(JobId id) {
  const auto i = static_cast<size_t>(id);
  if (i >= key_of_.size() || key_of_[i] < 0) return;
  const Key k{key_of_[i], id};
  waiting_.erase(k);
  held_.erase(k);
  key_of_[i] = -1;
}

void LerwfScheduler::rebuild(const SimState& state) {
  waiting_.clear();
  held_.clear();
  std::fill(key_of_.begin(), key_of_.end(), -1);
  for (const WaitingJob& w : state.queue) add_waiting(state, w);
}

void LerwfScheduler::on_arrival(const SimState& state, const WaitingJob& job) { add_waiting(state, job); }

void LerwfScheduler::on_start(const SimState& state, const RunningJob& job) {
  (void)state;
  remove_waiting(job.id);
}

void LerwfScheduler::on_suspend(const SimState& state, const RunningJob& job) {
  if (const WaitingJob* w = state.queue.find(job.id)) add_waiting(state, *w);  // its remaining time, its claim
}

void LerwfScheduler::on_prediction_change(const SimState& state, JobId job, int64_t old_prediction) {
  (void)old_prediction;
  if (const WaitingJob* w = state.queue.find(job)) add_waiting(state, *w);  // a running job: the list reorders
}

void LerwfScheduler::on_sync(const SimState& state) { rebuild(state); }

void LerwfScheduler::schedule(const SimState& state, Decision& decision) {
  const int64_t now = state.now;
  // The notifications keep waiting_ equal to the queue; a state that changed without them (a copy of another
  // run's) is read afresh.
  if (waiting_.size() != state.queue.size()) rebuild(state);

  // The running jobs in order of remaining time: those at or past their predicted end (remaining 0) by id, then
  // the rest in the running list's order (predicted end, id), which is the order of their remaining times.
  overdue_.clear();
  auto run = state.running.begin();
  for (; run != state.running.end() && run->predicted_end() <= now; ++run) overdue_.push_back(*run);
  std::sort(overdue_.begin(), overdue_.end(), [](const RunningJob& a, const RunningJob& b) { return a.id < b.id; });
  size_t next_overdue = 0;
  const auto next_running = [&]() -> const RunningJob* {
    if (next_overdue < overdue_.size()) return &overdue_[next_overdue];
    return run == state.running.end() ? nullptr : &*run;
  };
  const auto advance_running = [&] {
    if (next_overdue < overdue_.size()) ++next_overdue;
    else ++run;
  };
  auto wait = waiting_.begin();

  int64_t used = 0;
  // The processors claimed by the jobs allotted so far. Running jobs hold disjoint processors, so a running job can
  // only meet a suspended job's claim (held_claims, a few); a suspended job can meet any. The running jobs allotted
  // are noted (pending_) and their processors added to `running_claims` (ranges sorted by lo) only when a suspended
  // job is to be checked.
  Claimed held_claims;
  running_claims_.clear();
  pending_.clear();
  fresh_.clear();
  const auto claim_pending = [&] {
    const auto old_end = static_cast<std::ptrdiff_t>(running_claims_.size());
    for (const JobId p : pending_)
      if (const ProcSet* on = find_set(state.running_on, p))
        running_claims_.insert(running_claims_.end(), on->begin(), on->end());
    pending_.clear();
    const auto by_lo = [](const ProcRange& a, const ProcRange& b) { return a.lo < b.lo; };
    std::sort(running_claims_.begin() + old_end, running_claims_.end(), by_lo);
    std::inplace_merge(running_claims_.begin(), running_claims_.begin() + old_end, running_claims_.end(), by_lo);
  };
  const ProcSet* avoid = nullptr;
  bool stopped = false;
  for (;;) {
    const RunningJob* r = next_running();
    if (r == nullptr && wait == waiting_.end()) break;
    // Ties of remaining time: running jobs first (no needless preemption), then by id.
    const bool running = wait == waiting_.end() || (r != nullptr && state.expected_end(*r) - now <= wait->remaining);
    if ((stopped || used == state.machine.total()) && !running) {
      // Nothing more can be allotted: the waiting jobs left are skipped, and the first suspended one among them
      // is the next to resume, whose processors new jobs avoid.
      if (avoid == nullptr) {
        const auto h = held_.lower_bound(*wait);
        if (h != held_.end()) avoid = find_set(state.held, h->id);
      }
      wait = waiting_.end();
      continue;
    }
    const JobId id = running ? r->id : wait->id;
    const int32_t procs = running ? r->procs : wait->procs;
    const ProcSet* held = !running && wait->held ? find_set(state.held, id) : nullptr;
    if (running) advance_running();
    else ++wait;
    bool allot = !stopped && used + procs <= state.machine.total();
    if (allot && running && !held_claims.empty()) {
      const ProcSet* on = find_set(state.running_on, id);
      allot = on == nullptr || !held_claims.overlaps(*on);
    }
    if (allot && held != nullptr) {
      if (!pending_.empty()) claim_pending();
      allot = !meets(running_claims_, *held) && !held_claims.overlaps(*held);
    }
    if (allot) {
      used += procs;
      if (running) pending_.push_back(id);
      else if (held != nullptr) held_claims.add(*held);
      if (!running) {
        if (held != nullptr) {
          decision.start.push_back(id);  // resumptions first: their processors must still be free
        } else {
          fresh_.push_back(id);
        }
      }
      continue;
    }
    if (!fill_) stopped = true;
    if (running) {
      decision.suspend.push_back(id);
    } else if (held != nullptr && avoid == nullptr) {
      avoid = held;  // the next suspended job to resume: keep its processors free if possible
    }
  }
  decision.start.insert(decision.start.end(), fresh_.begin(), fresh_.end());
  if (avoid != nullptr) decision.avoid = *avoid;
}

}  // namespace schedlab::sim
