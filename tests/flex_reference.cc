// The obvious Flex of flex_reference.h.
#include "flex_reference.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "hold_steps.h"
#include "schedlab/sim/state.h"

namespace schedlab::testing {
namespace {

using namespace schedlab::sim;

class TryingFlex final : public Scheduler {
 public:
  using Options = FlexScheduler::Options;
  explicit TryingFlex(const Options& o) : o_(o) {}
  std::unique_ptr<Scheduler> clone() const override { return std::make_unique<TryingFlex>(*this); }
  std::string_view name() const override { return "trying-flex"; }
  void on_arrival(const SimState&, const WaitingJob& job) override { arrived_.push_back(job.id); }
  void on_start(const SimState& state, const RunningJob& job) override {
    const auto it = std::find_if(order_.begin(), order_.end(), [&](const Item& e) { return e.id == job.id; });
    if (it == order_.end()) throw std::logic_error("reference flex: a job started without a reservation");
    order_.erase(it);
    wait_sum_ += static_cast<double>(state.now - state.submitted(job.id));
    ++started_;
  }
  void on_termination(const SimState& state, const RunningJob& job) override {
    if (state.now < std::max(job.predicted_end(), job.start + 1)) compress_ = true;  // processors given back early
  }
  void on_prediction_change(const SimState&, JobId, int64_t) override { compress_ = true; }

  void schedule(const SimState& state, Decision& decision) override {
    state_ = &state;
    const int64_t now = state.now;
    running_.clear();
    for (const RunningJob& r : state.running) running_.push_back({now, std::max(r.predicted_end(), now + 1), r.procs});
    for (const Item& e : order_) compress_ = compress_ || e.reservation < now;  // (see the compression below)
    // The holds follow the predictions; a job needing longer than at the last call has grown.
    std::vector<bool> grown(order_.size(), false);
    for (size_t i = 0; i < order_.size(); ++i) {
      const WaitingJob* w = state.queue.find(order_[i].id);
      if (w == nullptr) throw std::logic_error("reference flex: a job left the queue without starting");
      const int64_t held = std::max<int64_t>(w->remaining(), 1);
      grown[i] = held > order_[i].held;
      order_[i].held = held;
    }
    // Each job at its reservation where it still fits, in priority order, the rest then at their earliest fit; unless
    // that moves a job that did not grow past its deadline (and its reservation): then the grown jobs are tried at
    // their reservations only after all the others.
    std::vector<int64_t> placed = place_all(grown, false);
    for (size_t i = 0; i < order_.size(); ++i) {
      if (!grown[i] && placed[i] > std::max(order_[i].deadline, order_[i].reservation)) {
        placed = place_all(grown, true);
        break;
      }
    }
    for (size_t i = 0; i < order_.size(); ++i) order_[i].reservation = placed[i];
    // One compression pass in priority order, each job to its earliest fit if that is earlier: after processors were
    // given back early, an insertion, a changed prediction, while a running job is overdue, or when a reservation
    // passed unused (the schedule was redrawn).
    bool overdue = false;
    for (const RunningJob& r : state.running) overdue = overdue || r.predicted_end() <= now;
    for (size_t i = 0; i < order_.size() && (compress_ || overdue); ++i) {
      Item& e = order_[i];
      if (e.reservation <= now) continue;
      const int64_t t = steps(order_.size(), i).earliest_fit(now, e.procs, e.held);
      if (t < e.reservation) e.reservation = t;
    }
    compress_ = false;
    for (const JobId id : arrived_) place_arrival(*state.queue.find(id));
    arrived_.clear();
    int64_t wake = std::numeric_limits<int64_t>::max();
    for (const Item& e : order_) {
      if (e.reservation == now) {
        decision.start.push_back(e.id);
      } else {
        wake = std::min(wake, e.reservation);
      }
    }
    if (!overdue && wake != std::numeric_limits<int64_t>::max()) decision.wake_at = wake;
  }

 private:
  struct Item {
    JobId id = -1;
    int64_t procs = 0, held = 0, submit = 0, reservation = 0, deadline = 0;
  };

  static Hold hold_of(const Item& e) { return {e.reservation, e.reservation + e.held, e.procs}; }
  // The free processors with the running jobs and the reservations of order_[0, count), but for order_[except].
  HoldSteps steps(size_t count, size_t except = std::numeric_limits<size_t>::max()) const {
    std::vector<Hold> holds = running_;
    for (size_t i = 0; i < count; ++i)
      if (i != except) holds.push_back(hold_of(order_[i]));
    return HoldSteps(state_->machine.total(), state_->now, holds);
  }

  // Every job's start when each keeps its reservation where it still fits, in priority order (with `grown_last`,
  // the grown jobs after all the others), and the others then take their earliest fits in priority order.
  std::vector<int64_t> place_all(const std::vector<bool>& grown, bool grown_last) const {
    const int64_t now = state_->now;
    std::vector<Hold> holds = running_;
    std::vector<int64_t> placed(order_.size(), -1);
    auto keep = [&](size_t i) {
      const Item& e = order_[i];
      if (e.reservation >= now && HoldSteps(state_->machine.total(), now, holds).fits(e.reservation, e.procs, e.held)) {
        holds.push_back(hold_of(e));
        placed[i] = e.reservation;
      }
    };
    for (size_t i = 0; i < order_.size(); ++i)
      if (!grown_last || !grown[i]) keep(i);
    if (grown_last)
      for (size_t i = 0; i < order_.size(); ++i)
        if (grown[i]) keep(i);
    for (size_t i = 0; i < order_.size(); ++i) {
      if (placed[i] >= 0) continue;
      const Item& e = order_[i];
      placed[i] = HoldSteps(state_->machine.total(), now, holds).earliest_fit(now, e.procs, e.held);
      holds.push_back({placed[i], placed[i] + e.held, e.procs});
    }
    return placed;
  }

  double cost(const Item& e, int64_t start) const {
    const int64_t now = state_->now;
    switch (o_.cost) {
      case Options::Cost::kWork:
        return static_cast<double>(e.procs) * static_cast<double>(start - now);
      case Options::Cost::kWait:
        return static_cast<double>(start - now);
      case Options::Cost::kBoundedSlowdown:
        return static_cast<double>(start - e.submit + e.held) / static_cast<double>(std::max<int64_t>(e.held, 10));
    }
    return 0;
  }

  // Every position of the queue is a candidate: the jobs before it keep their reservations, the new job takes its
  // earliest fit among them, and the jobs from it on keep their reservation where still free, else take their next
  // fit; a position is tried only if it is the last to give the new job that start, and that start is before its
  // place last. A candidate that pushes a job past its deadline is dropped; the cheapest wins, ties to the later
  // position and to last.
  void place_arrival(const WaitingJob& job) {
    const int64_t now = state_->now;
    Item item{job.id, job.procs, std::max<int64_t>(job.remaining(), 1), job.submit, 0, 0};
    const double mean_wait = started_ > 0 ? wait_sum_ / static_cast<double>(started_) : 0.0;
    const double slack_base = o_.slack == Options::Slack::kEstimate
                                  ? static_cast<double>(std::max<int64_t>(job.prediction, 60))
                                  : mean_wait;
    const auto slack = static_cast<int64_t>(o_.slack_factor * slack_base);
    const size_t q = order_.size();
    const int64_t last = steps(q).earliest_fit(now, item.procs, item.held);
    double best_cost = cost(item, last);
    size_t best_k = q;
    int64_t best_start = last;
    std::vector<int64_t> best_starts;
    for (size_t k = 0; k < q && last > now; ++k) {
      const int64_t t = steps(k).earliest_fit(now, item.procs, item.held);
      if (t >= last || steps(k + 1).earliest_fit(now, item.procs, item.held) == t) continue;
      std::vector<Hold> trial = running_;
      for (size_t i = 0; i < k; ++i) trial.push_back(hold_of(order_[i]));
      trial.push_back({t, t + item.held, item.procs});
      double c = cost(item, t);
      bool within_deadlines = true;
      std::vector<int64_t> starts;
      for (size_t i = k; i < q; ++i) {
        const Item& e = order_[i];
        const int64_t ti = HoldSteps(state_->machine.total(), now, trial).earliest_fit(e.reservation, e.procs, e.held);
        trial.push_back({ti, ti + e.held, e.procs});
        if (ti != e.reservation) c += cost(e, ti) - cost(e, e.reservation);
        within_deadlines = within_deadlines && ti <= e.deadline;
        starts.push_back(ti);
      }
      if (within_deadlines && (best_k == q ? c < best_cost : c <= best_cost)) {
        best_cost = c;
        best_k = k;
        best_start = t;
        best_starts = starts;
      }
    }
    compress_ = compress_ || best_k < q;  // compressed at the next call
    for (size_t i = best_k; i < q; ++i) order_[i].reservation = best_starts[i - best_k];
    item.reservation = best_start;
    item.deadline = best_start + slack;
    order_.insert(order_.begin() + static_cast<std::ptrdiff_t>(best_k), item);
  }

  Options o_;
  const SimState* state_ = nullptr;
  std::vector<Item> order_;     // waiting jobs in priority order
  std::vector<JobId> arrived_;  // since the last call
  std::vector<Hold> running_;   // the running jobs' holds at this call
  double wait_sum_ = 0;
  int64_t started_ = 0;
  bool compress_ = false;  // at the next call
};

}  // namespace

std::unique_ptr<sim::Scheduler> trying_flex(const sim::FlexScheduler::Options& options) {
  return std::make_unique<TryingFlex>(options);
}

}  // namespace schedlab::testing
