#include "sim/lerwf.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

#include "sim/owned_ranges.h"

namespace schedlab::sim {

namespace {
// The processors claimed by the suspended jobs allotted in one call, as one bit per processor: a suspended job's set
// has tens of ranges on a large machine, and a map of claimed ranges cost a search per range (a fifth of
// lerwf-fill's time on CEA-Curie). Only the words written are cleared after the call.
class ClaimedBits {
 public:
  explicit ClaimedBits(std::vector<uint64_t>& words) : words_(words) {}
  ~ClaimedBits() {
    for (const ProcRange& r : added_) for_words(r, [](uint64_t& w, uint64_t) { w = 0; });
  }
  ClaimedBits(const ClaimedBits&) = delete;
  ClaimedBits& operator=(const ClaimedBits&) = delete;

  bool overlaps(const ProcSet& set) const {
    if (added_.empty()) return false;
    for (const ProcRange& r : set) {
      bool hit = false;
      for_words(r, [&](uint64_t& w, uint64_t mask) { hit = hit || (w & mask) != 0; });
      if (hit) return true;
    }
    return false;
  }
  void add(const ProcSet& set) {
    for (const ProcRange& r : set) {
      const auto words = static_cast<size_t>(r.hi) / 64 + 1;
      if (words_.size() < words) words_.resize(std::max(words, 2 * words_.size()), 0);
      for_words(r, [](uint64_t& w, uint64_t mask) { w |= mask; });
      added_.push_back(r);
    }
  }

 private:
  // Calls f(word, mask of the range's bits in it) for each word [r.lo, r.hi) touches (within the words kept).
  template <class F>
  void for_words(const ProcRange& r, F&& f) const {
    if (r.hi <= r.lo) return;
    const auto first = static_cast<size_t>(r.lo) / 64, last = static_cast<size_t>(r.hi - 1) / 64;
    for (size_t i = first; i <= last && i < words_.size(); ++i) {
      const unsigned from = i == first ? static_cast<unsigned>(r.lo) % 64 : 0;
      const unsigned to = i == last ? static_cast<unsigned>(r.hi - 1) % 64 + 1 : 64;  // bits [from, to)
      const uint64_t mask = (to == 64 ? ~uint64_t{0} : (uint64_t{1} << to) - 1) & ~((uint64_t{1} << from) - 1);
      f(words_[i], mask);
    }
  }
  std::vector<uint64_t>& words_;
  std::vector<ProcRange> added_;
};

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
  std::fill(blocker_.begin(), blocker_.end(), Blocker{});
  for (const WaitingJob& w : state.queue) add_waiting(state, w);
}

void LerwfScheduler::on_arrival(const SimState& state, const WaitingJob& job) { add_waiting(state, job); }

void LerwfScheduler::on_start(const SimState& state, const RunningJob& job) {
  (void)state;
  remove_waiting(job.id);
  // A job started afresh may run on other processors than before (one suspended before it ran is not held): what
  // blocked it, and what it blocked, is found again.
  ++run_of(job.id);
  blocker_of(job.id) = {};
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
  // Claims. Running jobs hold disjoint processors, so a running job can only meet a suspended job's claim, and a
  // suspended job any claim: the suspended jobs allotted (held_claims, a few), and the running jobs allotted before
  // it, found through the owners of its processors (`owned`, built at the first suspended job to check).
  if (++stamp_ == 0) {  // wrapped: older stamps would read as this call's
    std::fill(allotted_.begin(), allotted_.end(), 0);
    std::fill(blocked_.begin(), blocked_.end(), 0);
    stamp_ = 1;
  }
  const auto slot = [](std::vector<uint32_t>& stamps, JobId id) -> uint32_t& { return grown(stamps, id, 0u); };
  ClaimedBits held_claims(claimed_words_);
  OwnedRanges<JobId> owned;  // every running job's processors and its id, sorted
  bool owned_built = false;
  // Calls f(owner) for each running job holding a processor of `set`, until f returns true (then true).
  const auto any_owner = [&](const ProcSet& set, auto&& f) {
    if (!owned_built) {
      for (const auto& [id, on] : state.running_on) owned.add(on, id);
      owned.sort();
      owned_built = true;
    }
    return owned.any_overlapping(set, f);
  };
  fresh_.clear();
  const ProcSet* avoid = nullptr;
  bool stopped = false;
  for (;;) {
    // lerwf-fill: a waiting job that needs more processors than are left is skipped (it would be neither
    // allotted nor, unless it is the first suspended one, the one to avoid), and `used` only grows: so the walk
    // jumps to the next waiting job that fits, or to the next suspended one while none is to be avoided.
    if (fill_ && wait != waiting_.end() && used < state.machine.total()) {
      const auto free = static_cast<int32_t>(state.machine.total() - used);
      const bool to_avoid = avoid == nullptr;  // a suspended job would be the one to avoid
      if (wait->procs > free && !(wait->held && to_avoid)) wait = waiting_.first_fit(*wait, free, to_avoid);
    }
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
    bool allot = !stopped && used + procs <= state.machine.total();
    // A suspended job that a running job holding one of its processors blocked before is blocked again when that
    // job, in the same run (it resumes where it was; a fresh start may move it), is allotted before it again: no
    // look-up. On CEA-Curie hundreds of suspended jobs wait for the same few long jobs, call after call.
    if (allot && !running && wait->held) {
      const Blocker& b = blocker_of(id);
      if (b.id >= 0 && run_of(b.id) == b.run && slot(allotted_, b.id) == stamp_) allot = false;
    }
    // A suspended job's processors are looked up only when they are read: to check it, or as the next to resume.
    const ProcSet* held =
        !running && wait->held && (allot || avoid == nullptr) ? find_set(state.held, id) : nullptr;
    if (running) advance_running();
    else ++wait;
    if (allot && running) allot = slot(blocked_, id) != stamp_;
    if (allot && held != nullptr) {
      allot = !held_claims.overlaps(*held) && !any_owner(*held, [&](JobId owner) {
        if (slot(allotted_, owner) != stamp_) return false;
        blocker_of(id) = {owner, run_of(owner)};
        return true;
      });
    }
    if (allot) {
      used += procs;
      if (running) {
        slot(allotted_, id) = stamp_;
      } else if (held != nullptr) {
        held_claims.add(*held);
        any_owner(*held, [&](JobId owner) {
          slot(blocked_, owner) = stamp_;
          return false;
        });
      }
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
