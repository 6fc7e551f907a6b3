// Test helpers for the simulator tests: small hand-made workloads and a checked simulation run.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "schedlab/sim/simulate.h"
#include "schedlab/workload/workload.h"
#include "schedlab/swf/header.h"
#include "schedlab/swf/record.h"

namespace schedlab::sim::testing {

// One job of a hand-made log: SWF job number, submit, runtime, processors, estimate (-1 = none).
struct J {
  int32_t number;
  int32_t submit;
  int32_t run;
  int32_t procs;
  int32_t estimate;
};

inline std::vector<swf::Record> records(std::initializer_list<J> jobs) {
  std::vector<swf::Record> out;
  for (const J& j : jobs) {
    swf::Record r;
    r.job_number = j.number;
    r.submit_time = j.submit;
    r.run_time = j.run;
    r.requested_procs = j.procs;
    r.allocated_procs = j.procs;
    r.requested_time = j.estimate;
    r.status = 1;
    r.user_id = 1;
    out.push_back(r);
  }
  return out;
}

inline Workload workload(int64_t procs, std::initializer_list<J> jobs, bool kill_at_estimate = false) {
  WorkloadOptions o;
  o.procs = procs;
  o.kill_at_estimate = kill_at_estimate;
  return build_workload(swf::Header{}, records(jobs), o);
}

// Simulates with --check on.
inline SimResult run(const Workload& w, const std::string& scheduler, const std::string& predictor = "estimate") {
  SimOptions o;
  o.check = true;
  return simulate(w, scheduler, predictor, o);
}

// Start time of the job with SWF job number `number`.
inline int64_t start_of(const Workload& w, const SimResult& r, int32_t number) {
  for (size_t i = 0; i < w.jobs.size(); ++i) {
    if (w.jobs[i].job_number == number) return r.jobs[i].start;
  }
  return -2;
}

// Start times of jobs 1..n in SWF job-number order.
inline std::vector<int64_t> starts(const Workload& w, const SimResult& r) {
  std::vector<int64_t> out;
  for (int32_t n = 1;; ++n) {
    const int64_t s = start_of(w, r, n);
    if (s == -2) break;
    out.push_back(s);
  }
  return out;
}

}  // namespace schedlab::sim::testing
