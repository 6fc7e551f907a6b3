// The obvious preemptive schedulers of preemptive_references.h.
#include "preemptive_references.h"

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

#include "schedlab/sim/machine.h"
#include "schedlab/sim/state.h"
#include "sim/availability_profile.h"

namespace schedlab::testing {
namespace {

using namespace schedlab::sim;

class WalkingEasyPreemptive final : public Scheduler {
 public:
  explicit WalkingEasyPreemptive(int64_t resume_delay) : resume_delay_(resume_delay) {}
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<WalkingEasyPreemptive>(*this); }
  std::string_view name() const override { return "easy-preemptive"; }
  Overrun overrun() const override { return Overrun::kSuspend; }
  bool needs_processors() const override { return true; }
  int64_t resume_delay() const override { return resume_delay_; }

  void schedule(const SimState& state, Decision& decision) override {
    const int64_t now = state.now;
    std::vector<std::pair<ProcSet, int64_t>> busy;  // processors and expected end: running, then started now
    std::vector<std::pair<int64_t, int64_t>> until;
    for (const RunningJob& r : state.running) {
      const int64_t end = std::max(r.predicted_end(), now + 1);
      until.emplace_back(end, r.procs);
      busy.emplace_back(state.running_on.at(r.id), end);
    }
    AvailabilityProfile profile(state.machine.total(), now);
    profile.assign(now, std::move(until));
    for (const WaitingJob& w : state.queue) {
      if (const auto held = state.held.find(w.id); held != state.held.end()) {
        decision.avoid = held->second;
        break;
      }
    }
    Machine machine = state.machine;
    for (const WaitingJob& w : state.queue) {
      const int64_t d = std::max<int64_t>(w.remaining(), 1);
      const auto held = state.held.find(w.id);
      int64_t from = now;
      if (held != state.held.end())
        for (const auto& [set, end] : busy)
          if (overlaps(set, held->second)) from = std::max(from, end);
      if (profile.reserve_earliest(from, w.procs, d) != now) continue;
      Allocation a = held != state.held.end() ? machine.allocate_exactly(w.id, held->second)
                                              : machine.allocate(w.id, w.procs, decision.avoid);
      decision.start.push_back(w.id);
      busy.emplace_back(std::move(a.ranges), now + d);
    }
  }

 private:
  int64_t resume_delay_;
};

class SortingLerwf final : public Scheduler {
 public:
  SortingLerwf(bool fill, int64_t resume_delay) : fill_(fill), resume_delay_(resume_delay) {}
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<SortingLerwf>(*this); }
  std::string_view name() const override { return fill_ ? "lerwf-fill" : "lerwf"; }
  bool needs_processors() const override { return true; }
  int64_t resume_delay() const override { return resume_delay_; }

  void schedule(const SimState& state, Decision& decision) override {
    struct Candidate {
      int64_t remaining;
      bool running;
      JobId id;
      int32_t procs;
      const ProcSet* set;
    };
    std::vector<Candidate> order;
    for (const RunningJob& r : state.running) {
      const auto on = state.running_on.find(r.id);
      order.push_back({state.expected_end(r) - state.now, true, r.id, r.procs,
                       on == state.running_on.end() ? nullptr : &on->second});
    }
    for (const WaitingJob& w : state.queue) {
      const auto held = state.held.find(w.id);
      order.push_back({w.remaining(), false, w.id, w.procs, held == state.held.end() ? nullptr : &held->second});
    }
    std::sort(order.begin(), order.end(), [](const Candidate& a, const Candidate& b) {
      if (a.remaining != b.remaining) return a.remaining < b.remaining;
      if (a.running != b.running) return a.running;
      return a.id < b.id;
    });
    int64_t used = 0;
    std::vector<ProcRange> claimed;
    const auto overlaps = [&](const ProcSet& set) {
      for (const ProcRange& a : set)
        for (const ProcRange& b : claimed)
          if (a.lo < b.hi && b.lo < a.hi) return true;
      return false;
    };
    std::vector<JobId> fresh;
    const ProcSet* avoid = nullptr;
    bool stopped = false;
    for (const Candidate& c : order) {
      if (!stopped && used + c.procs <= state.machine.total() && (c.set == nullptr || !overlaps(*c.set))) {
        used += c.procs;
        if (c.set != nullptr) claimed.insert(claimed.end(), c.set->begin(), c.set->end());
        if (!c.running) (c.set != nullptr ? decision.start : fresh).push_back(c.id);
        continue;
      }
      if (!fill_) stopped = true;
      if (c.running) decision.suspend.push_back(c.id);
      else if (c.set != nullptr && avoid == nullptr) avoid = c.set;
    }
    decision.start.insert(decision.start.end(), fresh.begin(), fresh.end());
    if (avoid != nullptr) decision.avoid = *avoid;
  }

 private:
  bool fill_;
  int64_t resume_delay_;
};

}  // namespace

std::unique_ptr<sim::Scheduler> walking_easy_preemptive(int64_t resume_delay) {
  return std::make_unique<WalkingEasyPreemptive>(resume_delay);
}

std::unique_ptr<sim::Scheduler> sorting_lerwf(bool fill, int64_t resume_delay) {
  return std::make_unique<SortingLerwf>(fill, resume_delay);
}

}  // namespace schedlab::testing
