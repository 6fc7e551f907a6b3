// A scheduling policy of your own, simulated by schedlab's engine beside a built-in one: "smallest area first"
// starts, at every event, the waiting jobs that fit in the order of their predicted area (processors x predicted
// runtime), with no reservation (so a wide job may wait long). The log is read, the machine and the jobs built
// and the metrics computed by the library exactly as `schedlab simulate` does them.
//   usage: own_policy LOG.swf[.gz]
#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <string_view>
#include <vector>

#include "schedlab/experiments/simulation.h"
#include "schedlab/predict/registry.h"
#include "schedlab/sim/simulate.h"
#include "schedlab/swf/reader.h"

namespace {

using schedlab::sim::Decision;
using schedlab::sim::SimState;
using schedlab::sim::WaitingJob;

class SmallestAreaFirst : public schedlab::sim::Scheduler {
 public:
  std::unique_ptr<schedlab::sim::Scheduler> clone() const override {
    return std::make_unique<SmallestAreaFirst>(*this);
  }
  std::string_view name() const override { return "smallest-area-first"; }

  void schedule(const SimState& state, Decision& decision) override {
    std::vector<WaitingJob> waiting(state.queue.begin(), state.queue.end());
    // Ties by queue order (stable), so the schedule is deterministic.
    std::stable_sort(waiting.begin(), waiting.end(), [](const WaitingJob& a, const WaitingJob& b) {
      return a.procs * a.prediction < b.procs * b.prediction;
    });
    int64_t free = state.machine.free();
    for (const WaitingJob& job : waiting)
      if (job.procs <= free) {
        decision.start.push_back(job.id);
        free -= job.procs;
      }
  }
};

void print(const schedlab::sim::SimResult& r) {
  std::printf("%-22s %10.1f %10.2f %8.4f\n", r.scheduler.c_str(), r.metrics.wait.mean, r.metrics.bounded_slowdown.mean,
              r.metrics.utilization);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: own_policy LOG.swf[.gz]\n");
    return 2;
  }
  try {
    const schedlab::swf::Log log = schedlab::swf::read_log(argv[1]);
    const schedlab::workload::Workload workload = schedlab::experiments::workload_of(log, {});
    const auto estimate = schedlab::predict::make_predictor("estimate");
    std::printf("%-22s %10s %10s %8s\n", "scheduler", "wait (s)", "bsld", "util");
    print(schedlab::sim::simulate(workload, "easy"));
    print(schedlab::sim::simulate(workload, SmallestAreaFirst{}, *estimate));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "own_policy: %s\n", e.what());
    return 1;
  }
  return 0;
}
