#include "schedlab/sim/lerwf.h"

#include <algorithm>
#include <map>

namespace schedlab::sim {

namespace {
// A set of claimed processors as disjoint ranges lo -> hi.
class Claimed {
 public:
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
}  // namespace

void LerwfScheduler::schedule(const SimState& state, Decision& decision) {
  const int64_t now = state.now;
  order_.clear();
  for (const RunningJob& r : state.running) {
    const auto on = state.running_on.find(r.id);
    order_.push_back({state.expected_end(r) - now, true, r.id, r.procs,
                      on == state.running_on.end() ? nullptr : &on->second});
  }
  for (const WaitingJob& w : state.queue) {
    const auto held = state.held.find(w.id);
    order_.push_back({w.remaining(), false, w.id, w.procs, held == state.held.end() ? nullptr : &held->second});
  }
  std::sort(order_.begin(), order_.end(), [](const Candidate& a, const Candidate& b) {
    if (a.remaining != b.remaining) return a.remaining < b.remaining;
    if (a.running != b.running) return a.running;
    return a.id < b.id;
  });

  int64_t used = 0;
  Claimed claimed;
  std::vector<JobId> fresh;
  const ProcSet* avoid = nullptr;
  bool stopped = false;
  for (const Candidate& c : order_) {
    bool allot = !stopped && used + c.procs <= state.machine.total() && (c.set == nullptr || !claimed.overlaps(*c.set));
    if (allot) {
      used += c.procs;
      if (c.set != nullptr) claimed.add(*c.set);
      if (!c.running) {
        if (c.set != nullptr) {
          decision.start.push_back(c.id);  // resumptions first: their processors must still be free
        } else {
          fresh.push_back(c.id);
        }
      }
      continue;
    }
    if (!fill_) stopped = true;
    if (c.running) {
      decision.suspend.push_back(c.id);
    } else if (c.set != nullptr && avoid == nullptr) {
      avoid = c.set;  // the next suspended job to resume: keep its processors free if possible
    }
  }
  decision.start.insert(decision.start.end(), fresh.begin(), fresh.end());
  if (avoid != nullptr) decision.avoid = *avoid;
}

}  // namespace schedlab::sim
