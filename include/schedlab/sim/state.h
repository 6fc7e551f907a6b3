// The simulator state a scheduler sees: a PLAIN COPYABLE VALUE. Adaptive schedulers can copy the real
// state into candidate schedulers and run them side by side.
//
// Invariants kept by the engine (sim/simulate.h):
// - `queue` holds the waiting jobs ordered by (submit, job id) — job ids already follow that order.
// - `running` holds the running jobs ordered by (start + prediction, job id), i.e. by predicted end.
//   A job past its predicted end stays in place and is "overdue": its expected end is `now`
//   (expected_end()), which keeps the order valid since max(., now) is monotone.
// - predictions are >= 0; machine.free() == machine.total() - sum of running procs.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "schedlab/predict/job.h"
#include "schedlab/sim/machine.h"

namespace schedlab::sim {

using predict::Job;
using predict::JobId;

struct WaitingJob {
  JobId id = -1;
  int64_t submit = 0;
  int32_t procs = 0;
  int64_t prediction = 0;  // current predicted runtime
  friend bool operator==(const WaitingJob&, const WaitingJob&) = default;
};

struct RunningJob {
  JobId id = -1;
  int64_t start = 0;
  int32_t procs = 0;
  int64_t prediction = 0;  // current predicted runtime, from `start`
  Allocation allocation;
  int64_t predicted_end() const { return start + prediction; }
  friend bool operator==(const RunningJob&, const RunningJob&) = default;
};

struct SimState {
  int64_t now = 0;
  Machine machine;
  std::vector<WaitingJob> queue;    // by (submit, id)
  std::vector<RunningJob> running;  // by (predicted_end(), id)
  // The workload's jobs indexed by JobId (shared and immutable; not owned).
  const std::vector<Job>* jobs = nullptr;

  const Job& job(JobId id) const { return (*jobs)[static_cast<size_t>(id)]; }
  // When the scheduler expects a running job to end: start + prediction, or now when overdue.
  int64_t expected_end(const RunningJob& r) const { return std::max(r.predicted_end(), now); }

  friend bool operator==(const SimState&, const SimState&) = default;
};

}  // namespace schedlab::sim
