// The obvious Maui of maui_reference.h.
#include "maui_reference.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <vector>

#include "schedlab/sim/state.h"

namespace schedlab::testing {
namespace {

using namespace schedlab::sim;

// Processors in use as a list of intervals [from, to): used(t) sums the intervals that cover t.
class Intervals {
 public:
  explicit Intervals(int64_t total) : total_(total) {}
  void add(int64_t from, int64_t to, int64_t procs) { busy_.push_back({from, to, procs}); }
  int64_t free_at(int64_t t) const {
    int64_t used = 0;
    for (const Busy& b : busy_) used += b.from <= t && t < b.to ? b.procs : 0;
    return total_ - used;
  }
  // Free processors only fall where an interval begins: check the start and every such point in the window.
  bool fits(int64_t start, int64_t procs, int64_t d) const {
    if (free_at(start) < procs) return false;
    for (const Busy& b : busy_)
      if (start < b.from && b.from < start + d && free_at(b.from) < procs) return false;
    return true;
  }
  // The first of `from` and the interval ends after it where the job fits (one always does: procs <= total).
  int64_t earliest_fit(int64_t from, int64_t procs, int64_t d) const {
    std::vector<int64_t> at{from};
    for (const Busy& b : busy_)
      if (b.to > from) at.push_back(b.to);
    std::sort(at.begin(), at.end());
    for (const int64_t t : at)
      if (fits(t, procs, d)) return t;
    return -1;
  }

 private:
  struct Busy {
    int64_t from, to, procs;
  };
  int64_t total_;
  std::vector<Busy> busy_;
};

class SortingMaui final : public Scheduler {
 public:
  using Options = MauiScheduler::Options;
  explicit SortingMaui(const Options& o) : o_(o) {}
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<SortingMaui>(*this); }
  std::string_view name() const override { return "sorting-maui"; }
  void on_start(const SimState&, const RunningJob& job) override { fixed_.erase(job.id); }
  void on_arrival(const SimState&, const WaitingJob& job) override { arrived_.push_back(job.id); }
  void on_termination(const SimState&, const RunningJob&) override { other_event_ = true; }

  void schedule(const SimState& state, Decision& decision) override {
    const int64_t now = state.now;
    Intervals busy(state.machine.total());
    for (const RunningJob& r : state.running) busy.add(now, std::max(r.predicted_end(), now + 1), r.procs);
    std::vector<const WaitingJob*> order;
    for (const WaitingJob& w : state.queue) order.push_back(&w);
    if (o_.priority == Options::Priority::kXfactor) {
      auto x = [now](const WaitingJob* w) {
        const auto p = static_cast<long double>(std::max<int64_t>(w->remaining(), 1));
        return (static_cast<long double>(now - w->submit) + p) / p;
      };
      std::stable_sort(order.begin(), order.end(),
                       [&](const WaitingJob* a, const WaitingJob* b) { return x(a) > x(b); });
    }
    const bool promises = o_.priority == Options::Priority::kFcfs && o_.depth == 1;
    auto duration = [](const WaitingJob* w) { return std::max<int64_t>(w->remaining(), 1); };
    auto try_start = [&](const WaitingJob* w) {
      if (!busy.fits(now, w->procs, duration(w))) return false;
      busy.add(now, now + duration(w), w->procs);
      decision.start.push_back(w->id);
      return true;
    };
    int reserved = 0;
    std::vector<const WaitingJob*> rest;
    for (const WaitingJob* w : order) {
      if (reserved >= o_.depth) {
        rest.push_back(w);
      } else if (!try_start(w)) {
        const int64_t d = duration(w);
        int64_t t = -1;
        if (o_.fixed_reservations) {
          const auto it = fixed_.find(w->id);
          if (it != fixed_.end() && it->second > now && busy.fits(it->second, w->procs, d)) t = it->second;
        }
        if (t < 0) t = busy.earliest_fit(now, w->procs, d);
        if (o_.fixed_reservations) fixed_[w->id] = t;
        busy.add(t, t + d, w->procs);
        if (promises) decision.reservations.push_back({w->id, t});
        ++reserved;
      }
    }
    if (o_.backfill == Options::Backfill::kBestFit)
      std::stable_sort(rest.begin(), rest.end(),
                       [](const WaitingJob* a, const WaitingJob* b) { return a->procs > b->procs; });
    if (o_.backfill == Options::Backfill::kShortest)
      std::stable_sort(rest.begin(), rest.end(),
                       [](const WaitingJob* a, const WaitingJob* b) { return a->remaining() < b->remaining(); });
    const bool only_new = o_.backfill_new_only_at_arrival && !other_event_;
    for (const WaitingJob* w : rest)
      if (!only_new || std::find(arrived_.begin(), arrived_.end(), w->id) != arrived_.end()) try_start(w);
    arrived_.clear();
    other_event_ = false;
  }

 private:
  Options o_;
  std::map<JobId, int64_t> fixed_;
  std::vector<JobId> arrived_;
  bool other_event_ = true;
};

}  // namespace

std::unique_ptr<sim::Scheduler> sorting_maui(const sim::MauiScheduler::Options& options) {
  return std::make_unique<SortingMaui>(options);
}

}  // namespace schedlab::testing
