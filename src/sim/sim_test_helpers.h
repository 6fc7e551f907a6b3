// Test helpers for the simulator tests: small hand-made workloads and a checked simulation run.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <exception>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "schedlab/predict/predictor.h"
#include "schedlab/sim/engine.h"
#include "schedlab/sim/kill_at_prediction.h"
#include "schedlab/sim/simulate.h"
#include "schedlab/workload/workload.h"
#include "schedlab/swf/header.h"
#include "schedlab/swf/reader.h"
#include "schedlab/swf/record.h"
#include "test_util.h"

namespace schedlab::sim::testing {

// One job of a hand-made log and its records: tests/test_util.h.
using schedlab::testing::J;
using schedlab::testing::records;

// The reference tests' random workload for 16 processors: 40 to 139 jobs, a quarter of them submitted with the one
// before; run times 0 (one in ten) to 299 s; sizes mostly 1 to 6, one in four up to the whole machine; estimates in
// tens of seconds, a quarter of them below the run time (overdue jobs), the rest up to 400 s above it (early ends).
inline std::vector<J> random_jobs(std::mt19937& rng) {
  std::vector<J> jobs;
  int32_t t = 0;
  const int n = 40 + static_cast<int>(rng() % 100);
  for (int32_t k = 1; k <= n; ++k) {
    t += static_cast<int32_t>(rng() % 4 == 0 ? 0 : rng() % 40);
    const auto run = static_cast<int32_t>(rng() % 10 == 0 ? 0 : rng() % 300);
    const int32_t est = rng() % 4 == 0 ? std::max(1, run / 2) : run + static_cast<int32_t>(rng() % 400);
    jobs.push_back({k, t, run, static_cast<int32_t>(1 + rng() % (rng() % 4 == 0 ? 16 : 6)), (est / 10) * 10 + 10});
  }
  return jobs;
}

// The reference tests' bursts: `count` jobs, `per_burst` of them submitted together every `gap` seconds; run times 0
// (one in eight) to 600 s; sizes mostly 1 to 8, one in three up to `machine`; estimates 0 to 200 s above the run
// time, one in five of them half the run time below that (overdue jobs).
inline std::vector<J> burst_jobs(std::mt19937& rng, int32_t count, int32_t per_burst, int32_t gap, uint32_t machine) {
  std::vector<J> jobs;
  for (int32_t k = 1; k <= count; ++k) {
    const int32_t submit = (k - 1) / per_burst * gap;
    const auto run = static_cast<int32_t>(rng() % 8 == 0 ? 0 : 1 + rng() % 600);
    const auto procs = static_cast<int32_t>(rng() % 3 == 0 ? 1 + rng() % machine : 1 + rng() % 8);
    const int32_t est = run + static_cast<int32_t>(rng() % 3) * 100 + (rng() % 5 == 0 ? -run / 2 : 0);
    jobs.push_back({k, submit, run, procs, est});
  }
  return jobs;
}

inline Workload workload(int64_t procs, const std::vector<J>& jobs) {
  WorkloadOptions o;
  o.procs = procs;
  return build_workload(swf::Header{}, records(jobs), o);
}

// The first `jobs` jobs of the bundled KTH log on its 100 processors.
inline Workload kth_prefix(size_t jobs) {
  swf::Log log = swf::read_log(schedlab::testing::bundled_kth());
  log.records.resize(jobs);
  return build_workload(log.header, log.records, WorkloadOptions{});
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

// Every job's start, end, run time and suspensions in `got` are those of `want` (a reference implementation's run),
// and so are the total suspensions; the first three differences are reported, named by `what`.
inline void expect_same_outcomes(const Workload& w, const SimResult& got, const SimResult& want,
                                 const std::string& what) {
  ASSERT_EQ(got.jobs.size(), want.jobs.size()) << what;
  size_t differ = 0;
  for (size_t i = 0; i < want.jobs.size(); ++i) {
    const JobOutcome& a = got.jobs[i];
    const JobOutcome& b = want.jobs[i];
    if (a.start != b.start || a.end != b.end || a.ran != b.ran || a.suspensions != b.suspensions) {
      if (differ++ < 3)
        ADD_FAILURE() << what << ": job " << w.jobs[i].job_number << " start " << a.start << " end " << a.end
                      << " suspended " << a.suspensions << ", the reference " << b.start << " " << b.end << " "
                      << b.suspensions;
    }
  }
  EXPECT_EQ(differ, 0u) << what;
  EXPECT_EQ(got.suspensions, want.suspensions) << what;
}

// Simulates `w` with --check under `real` and under `reference`, both wrapped in easy-kill when `kill`, with the
// predictor `p`, and expects the same outcome for every job (named by `what`; an exception is a failure too). The
// real scheduler, unwrapped, is handed to `seen` (for its statistics: what its rules did over the run).
template <class Real, class Seen>
void expect_same_as_reference(const Workload& w, const predict::Predictor& p, std::unique_ptr<Scheduler> real,
                              std::unique_ptr<Scheduler> reference, bool kill, const std::string& what, Seen seen) {
  SimOptions so;
  so.check = true;  // the promises both report are kept, and the scheduler checks itself at every call
  if (kill) {
    real = std::make_unique<KillAtPrediction>("easy-kill", std::move(real));
    reference = std::make_unique<KillAtPrediction>("easy-kill", std::move(reference));
  }
  try {
    Engine engine(w, std::move(real), p.clone(), so);
    while (engine.step()) {
    }
    const Scheduler& used = engine.scheduler();
    const auto* killing = dynamic_cast<const KillAtPrediction*>(&used);
    seen(dynamic_cast<const Real&>(killing ? killing->inner() : used));
    const SimResult want = simulate(w, *reference, p, so);
    expect_same_outcomes(w, engine.result(), want, what);
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": " << e.what();
  }
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

// A predictor for hand-made scenarios: the estimate, plus scripted updates issued when a given job
// arrives or terminates, and an optional fixed extension on every deadline miss.
class ScriptedPredictor final : public predict::Predictor {
 public:
  std::map<JobId, predict::Updates> on_arrival_of, on_termination_of;
  int64_t deadline_extension = 0;

  std::unique_ptr<predict::Predictor> clone() const override { return std::make_unique<ScriptedPredictor>(*this); }
  std::string_view name() const override { return "scripted"; }
  int64_t on_arrival(int64_t, const Job& job, predict::Updates& updates) override {
    if (auto it = on_arrival_of.find(job.id); it != on_arrival_of.end()) {
      updates.insert(updates.end(), it->second.begin(), it->second.end());
    }
    return job.estimate;
  }
  void on_termination(int64_t, const Job& job, int64_t, predict::Updates& updates) override {
    if (auto it = on_termination_of.find(job.id); it != on_termination_of.end()) {
      updates.insert(updates.end(), it->second.begin(), it->second.end());
    }
  }
  void on_deadline_miss(int64_t, const Job& job, int64_t, int64_t prediction, predict::Updates& updates) override {
    if (deadline_extension > 0) updates.push_back({job.id, prediction + deadline_extension});
  }
};

}  // namespace schedlab::sim::testing
