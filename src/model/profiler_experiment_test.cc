#include "schedlab/model/profiler_experiment.h"

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "schedlab/swf/reader.h"
#include "schedlab/swf/writer.h"

namespace schedlab::model {
namespace {

struct Moments {
  double mean = 0, cv = 0;
};

Moments sample_moments(double mean, double cv, int n, uint64_t seed) {
  base::Rng rng(seed);
  double m = 0, m2 = 0;  // Welford
  for (int i = 1; i <= n; ++i) {
    const double x = sample_work(mean, cv, rng);
    EXPECT_GE(x, 0.0);
    const double d = x - m;
    m += d / i;
    m2 += d * (x - m);
  }
  return {m, std::sqrt(m2 / (n - 1)) / m};
}

// 200,000 draws per regime. Tolerances are about 4 standard errors of the estimate, worked out from the
// distributions' moments: the mean's relative standard error is C/sqrt(n) (0.18% at C = 0.8, 0.87% at C = 3.9);
// the sample C.V.'s comes from the fourth moment: about 0.2% for the Erlang mixtures, 0.3% for the exponential, 0.9%
// at C = 1.9 (E[W^4] = 793 M^4) and 1.6% at C = 3.9 (E[W^4] = 46,300 M^4).
// A wrong formula misses by far more: the thesis's typeset Erlang variant gives mean 1.30 M and C.V. 0.75 at
// C = 0.8; an unbalanced or unscaled hyperexponential branch changes the mean by a factor.
TEST(ProfilerExperiment, WorkMomentsMatchForEachRegime) {
  constexpr int kDraws = 200000;
  struct Case {
    double mean, cv, mean_tol, cv_tol;
  };
  const Case cases[] = {
      {2.4, 0.5, 0.005, 0.01},      // Test9: k = 4, a = 1: a pure Erlang-4
      {165.7, 0.8, 0.008, 0.01},    // Test4: k = 2, a = 0.737: mixture of 1 and 2 phases
      {1000.0, 0.3, 0.005, 0.01},   // k = 12: mixture of 11 and 12 phases
      {184.9, 1.0, 0.01, 0.01},     // Test7: exponential
      {5778.8, 1.9, 0.02, 0.04},    // Test1: hyperexponential
      {1147.2, 3.9, 0.035, 0.065},  // Test13: hyperexponential, heavy
  };
  uint64_t seed = 11;
  for (const Case& c : cases) {
    const Moments m = sample_moments(c.mean, c.cv, kDraws, seed++);
    EXPECT_NEAR(m.mean / c.mean, 1.0, c.mean_tol) << "C.V. " << c.cv;
    EXPECT_NEAR(m.cv / c.cv, 1.0, c.cv_tol) << "C.V. " << c.cv;
  }
}

TEST(ProfilerExperiment, WorkEdgeCases) {
  base::Rng rng(1);
  EXPECT_EQ(sample_work(42.0, 0.0, rng), 42.0);
  EXPECT_THROW(sample_work(0.0, 1.0, rng), ModelError);
  EXPECT_THROW(sample_work(10.0, 0.01, rng), ModelError);
  EXPECT_THROW(sample_work(10.0, -1.0, rng), ModelError);
  // C = 1/sqrt(3): 1/C^2 is 3 up to rounding; both sides of the boundary must give a valid Erlang-3.
  const Moments m = sample_moments(100.0, 1 / std::sqrt(3.0), 200000, 5);
  EXPECT_NEAR(m.mean, 100.0, 0.5);
  EXPECT_NEAR(m.cv, 1 / std::sqrt(3.0), 0.006);
}

TEST(ProfilerExperiment, JobTimeIsEquation61) {
  EXPECT_EQ(profiler_job_time(1000, 0.1, 4), 325);   // 1000 (0.1 + 0.9/4)
  EXPECT_EQ(profiler_job_time(1000, 0.01, 16), 72);  // 1000 (0.01 + 0.99/16) = 71.875
  EXPECT_EQ(profiler_job_time(2.5, 0.0, 1), 3);      // half away from zero
  EXPECT_EQ(profiler_job_time(0.2, 0.001, 2), 1);    // at least one second
  EXPECT_EQ(profiler_job_time(0.0, 0.5, 2), 1);
  EXPECT_THROW(profiler_job_time(10, 0.1, 0), ModelError);
  EXPECT_THROW(profiler_job_time(10, 1.5, 2), ModelError);
  EXPECT_THROW(profiler_job_time(1e12, 0.5, 2), ModelError);
}

std::string as_swf(const swf::Header& h, const std::vector<swf::Record>& r) {
  std::ostringstream out;
  swf::write_log(out, h, r);
  return out.str();
}

std::string experiment_text(uint64_t seed) {
  ProfilerExperimentOptions o;
  o.seed = seed;
  return as_swf(profiler_experiment_header(o), generate_profiler_experiment(o));
}

TEST(ProfilerExperiment, SameSeedSameBytesOtherSeedOtherBytes) {
  const std::string a = experiment_text(7);
  EXPECT_EQ(a, experiment_text(7));
  EXPECT_NE(a, experiment_text(8));
  EXPECT_NE(a.find("seed 7, 200 jobs"), std::string::npos);
}

TEST(ProfilerExperiment, DefaultWorkloadIsValidSwfWithTheTableFields) {
  ProfilerExperimentOptions o;
  o.seed = 3;
  const swf::Log log = swf::parse_log(experiment_text(3), "experiment.swf");
  ASSERT_EQ(log.records.size(), 200u);
  EXPECT_EQ(log.header.max_procs, 16);
  EXPECT_EQ(log.header.max_nodes, 16);
  EXPECT_EQ(log.header.max_jobs, 200);
  EXPECT_TRUE(log.header.problems.empty());
  for (const auto& w : log.report.warnings) EXPECT_EQ(w.count, 0);
  EXPECT_EQ(log.records.front().submit_time, 0);
  for (size_t i = 0; i < log.records.size(); ++i) {
    const swf::Record& r = log.records[i];
    EXPECT_EQ(r.job_number, static_cast<int32_t>(i + 1));
    if (i > 0) {
      EXPECT_GE(r.submit_time, log.records[i - 1].submit_time);
    }
    EXPECT_EQ(r.wait_time, -1);
    EXPECT_GE(r.run_time, 1);
    EXPECT_GE(r.requested_procs, 2);
    EXPECT_LE(r.requested_procs, 16);
    EXPECT_EQ(r.allocated_procs, r.requested_procs);
    EXPECT_EQ(r.requested_time, r.run_time);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.user_id, 1);
    EXPECT_GE(r.executable, 1);
    EXPECT_LE(r.executable, 13);
  }
  // The records are exactly what the library returned (the writer/reader round trip loses nothing).
  EXPECT_EQ(log.records, generate_profiler_experiment(o));
}

// A long run of the generator against the table: executable shares, processor range and mean, inter-arrival
// mean, and each executable's mean run time E[t] = M (D + (1 - D) E[1/p]) with E[1/p] = (H_16 - 1)/15 for p
// uniform on 2..16. Tolerances: 5 standard errors (binomial for shares; the sample's own s/sqrt(n) for means).
TEST(ProfilerExperiment, LongRunMatchesTable62) {
  ProfilerExperimentOptions o;
  o.seed = 99;
  o.jobs = 100000;
  const auto jobs = generate_profiler_experiment(o);
  ASSERT_EQ(jobs.size(), 100000u);
  double harmonic16 = 0;
  for (int p = 1; p <= 16; ++p) harmonic16 += 1.0 / p;
  const double mean_inverse_p = (harmonic16 - 1) / 15;
  std::map<int32_t, std::vector<double>> times;
  std::map<int32_t, int64_t> procs_count;
  double procs_sum = 0;
  for (const auto& r : jobs) {
    times[r.executable].push_back(r.run_time);
    ++procs_count[r.requested_procs];
    procs_sum += r.requested_procs;
  }
  EXPECT_EQ(procs_count.size(), 15u);  // every size 2..16 occurs
  EXPECT_EQ(procs_count.begin()->first, 2);
  EXPECT_EQ(procs_count.rbegin()->first, 16);
  EXPECT_NEAR(procs_sum / 1e5, 9.0, 5 * std::sqrt((15.0 * 15 - 1) / 12 / 1e5));
  // 99,999 gaps of mean 150 s (standard error 150/sqrt(99,999) = 0.47 s).
  EXPECT_NEAR(jobs.back().submit_time / 99999.0, 150.0, 2.4);
  ASSERT_EQ(times.size(), 13u);
  for (size_t k = 0; k < kProfilerExecutables.size(); ++k) {
    const auto& e = kProfilerExecutables[k];
    const auto& t = times[static_cast<int32_t>(k + 1)];
    const double share = e.fraction_percent / 99.9;  // Table 6.2's fractions sum to 99.9%
    EXPECT_NEAR(static_cast<double>(t.size()) / 1e5, share, 5 * std::sqrt(share * (1 - share) / 1e5)) << e.name;
    const double expected = e.mean_work * (e.sequential_fraction + (1 - e.sequential_fraction) * mean_inverse_p);
    if (expected < 50) continue;  // rounding to whole seconds (>= 1) dominates the tiny executables
    double sum = 0, sq = 0;
    for (const double x : t) sum += x;
    const double mean = sum / static_cast<double>(t.size());
    for (const double x : t) sq += (x - mean) * (x - mean);
    const double se = std::sqrt(sq / static_cast<double>(t.size() - 1) / static_cast<double>(t.size()));
    EXPECT_NEAR(mean, expected, 5 * se) << e.name;
  }
}

TEST(ProfilerExperiment, TrainingRunsEveryExecutableBackToBack) {
  ProfilerExperimentOptions o;
  o.seed = 4;
  const auto runs = generate_profiler_training(o, 25);
  ASSERT_EQ(runs.size(), 325u);
  std::map<int32_t, int> per_exe;
  int64_t clock = 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    const auto& r = runs[i];
    ++per_exe[r.executable];
    EXPECT_EQ(r.job_number, static_cast<int32_t>(i + 1));
    EXPECT_EQ(r.submit_time, clock);
    EXPECT_EQ(r.wait_time, 0);
    EXPECT_GE(r.requested_procs, 2);
    EXPECT_LE(r.requested_procs, 16);
    clock += r.run_time;
  }
  ASSERT_EQ(per_exe.size(), 13u);
  for (const auto& [exe, n] : per_exe) EXPECT_EQ(n, 25) << exe;
  // Shuffled: the first 25 runs are not all executable 1.
  int first_block_exe1 = 0;
  for (size_t i = 0; i < 25; ++i) first_block_exe1 += runs[i].executable == 1;
  EXPECT_LT(first_block_exe1, 25);
  const swf::Log log = swf::parse_log(as_swf(profiler_training_header(o, 25), runs), "training.swf");
  EXPECT_EQ(log.records, runs);
  EXPECT_EQ(log.header.max_procs, 16);
  for (const auto& w : log.report.warnings) EXPECT_EQ(w.count, 0);
  EXPECT_EQ(runs, generate_profiler_training(o, 25));
  EXPECT_THROW(generate_profiler_training(o, 0), ModelError);
}

TEST(ProfilerExperiment, RejectsBadOptions) {
  ProfilerExperimentOptions o;
  o.jobs = 0;
  EXPECT_THROW(generate_profiler_experiment(o), ModelError);
  o = {};
  o.mean_interarrival = 0;
  EXPECT_THROW(generate_profiler_experiment(o), ModelError);
  o = {};
  o.max_procs = 17;
  EXPECT_THROW(generate_profiler_experiment(o), ModelError);
  o = {};
  o.min_procs = 0;
  EXPECT_THROW(generate_profiler_experiment(o), ModelError);
  o = {};
  o.jobs = 30000;
  o.mean_interarrival = 1e5;  // about 3e9 s: beyond the 32-bit submit field
  EXPECT_THROW(generate_profiler_experiment(o), ModelError);
}

// Offered load and per-executable means, hand-computed: 2x100 + 4x50 + 8x25 = 600 processor-seconds over 16
// processors x 100 s = 37.5%.
TEST(ProfilerExperimentStats, LoadAndPerExecutableMeans) {
  std::vector<swf::Record> jobs(3);
  jobs[0].submit_time = 0, jobs[0].run_time = 100, jobs[0].requested_procs = 2, jobs[0].executable = 1;
  jobs[1].submit_time = 40, jobs[1].run_time = 50, jobs[1].requested_procs = 4, jobs[1].executable = 1;
  jobs[2].submit_time = 100, jobs[2].run_time = 25, jobs[2].requested_procs = 8, jobs[2].executable = 13;
  const ProfilerExperimentStats s = profiler_experiment_stats(jobs, ProfilerExperimentOptions{});
  EXPECT_EQ(s.last_submit, 100);
  EXPECT_DOUBLE_EQ(s.offered_load, 0.375);
  ASSERT_EQ(s.executables.size(), 13u);
  EXPECT_EQ(s.executables[0].jobs, 2);
  EXPECT_DOUBLE_EQ(s.executables[0].mean_runtime, 75);
  EXPECT_EQ(s.executables[1].jobs, 0);
  EXPECT_TRUE(std::isnan(s.executables[1].mean_runtime));
  EXPECT_EQ(s.executables[12].number, 13);
  EXPECT_DOUBLE_EQ(s.executables[12].mean_runtime, 25);
  const auto j = to_json(s, ProfilerExperimentOptions{}, 3);
  EXPECT_EQ(j["jobs"].get<int64_t>(), 3);
  EXPECT_DOUBLE_EQ(j["offered_load"].get<double>(), 0.375);
  EXPECT_EQ(j["executables"].size(), 13u);
}

}  // namespace
}  // namespace schedlab::model
