// The synthetic workload of Gibbons's profiler experiment (1997, Tables 6.1/6.2; docs/predictors.md
// "Synthetic experiment"): 13 executables of the sleeping synthetic application on a 16-processor machine.
//
// Contract of generate_profiler_experiment():
// - Job i (1..jobs) draws, in this order, from one generator base::Rng::stream(seed, 0):
//     executable  k with probability fraction_k / sum of fractions (Table 6.2's fractions sum to 99.9%),
//                 by one uniform u: the first k whose cumulative fraction exceeds u x sum;
//     processors  p uniform over the integers min_procs..max_procs (2..16) (base::Rng::below);
//     work        W from sample_work(mean_k, cv_k) (below);
//     gap         the exponential inter-arrival time to the NEXT job, -mean_interarrival ln(1 - u).
//   Job 1 is submitted at 0; job i+1 at round(sum of the first i gaps) (rounding the running sum, not each gap,
//   so the rounding does not bias the arrival rate).
// - Run time t = W (D_k + (1 - D_k) / p) (Equation 6.1), rounded half away from zero to whole seconds, at least 1.
// - Records: field 1 job number i, 2 submit, 3 wait -1 (not run yet), 4 run time t, 5 and 8 processors p,
//   6 and 7 -1, 9 requested time = t (the thesis's "act" experiments use actual run times; schedulers that use the
//   profiler ignore field 9), 10 -1, 11 status 1, 12 user 1 (the thesis's jobs were all submitted by the
//   experimenter), 13 group -1, 14 executable k (1..13 = Test1..Test13), 15..18 -1.
// - Header: Version, Computer, Installation, MaxJobs, MaxRecords, MaxNodes and MaxProcs (= machine_procs) and
//   "; Note:" lines stating the generator, seed, parameters, the formula and the executables table.
//
// Training runs (the thesis seeded the profiler's repository with 25 random runs of each executable):
// generate_profiler_training() draws runs_per_executable runs of every executable from a separate generator
// base::Rng::stream(seed, 1) (so asking for training runs never changes the experiment): per run, in executable order
// 1..13 and run order, processors then work as above; the runs are then put in a random order (Fisher-Yates
// with the same generator) and logged as run one after another on an idle machine: submit = end of the previous
// run (the first at 0), wait 0, so a profiler or a replay sees each run complete before the next. Job numbers
// are 1..13 x runs. The repository weighs all jobs equally (no decay), so only the runs, not their times,
// matter to it. The file is history for the profiler, not a workload to simulate.
//
// Randomness: only base::Rng's 64-bit words and uniform doubles, std::log and std::sqrt, so the output is
// byte-identical for a seed on every IEEE-754 platform with a correctly rounded log (glibc, musl, libc++).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "schedlab/base/random.h"
#include "schedlab/model/tsafrir.h"  // ModelError
#include "schedlab/swf/header.h"
#include "schedlab/swf/record.h"

namespace schedlab::model {

// One executable of Table 6.2: share of the jobs (percent), mean work W (seconds on one processor), C.V. of
// W, and the sequential fraction D.
struct ProfilerExecutable {
  std::string_view name;
  double fraction_percent;
  double mean_work;
  double cv;
  double sequential_fraction;
};

// Table 6.2, Test1..Test13 in order (executable number = index + 1).
extern const std::array<ProfilerExecutable, 13> kProfilerExecutables;

// Draws W with mean `mean` and coefficient of variation `cv` as the thesis does:
// - cv < 1: Erlang mixture [SLTZ77]: k = ceil(1/C^2), T = 1 - (k-1) C^2, a = (T + sqrt(k T)) / (C^2 + 1);
//   one uniform i picks k phases when i < a, else k-1 phases; each phase is exponential with mean M/(k-1+a).
// - cv = 1: exponential, -M ln U.
// - cv > 1: balanced hyperexponential, a = (1 - sqrt((C^2-1)/(C^2+1))) / 2; one uniform i picks the branch
//   -M/(2a) ln U when i < a, else -M/(2(1-a)) ln U.
// - cv = 0: the constant M (no draw).
// U = 1 - base::Rng::uniform() lies in (0, 1], so ln U is finite. Throws ModelError unless mean > 0 and cv is 0 or in
// [0.05, 100] (below 0.05 the mixture needs over 400 phases).
// (The thesis's typeset Erlang formula - a = T + sqrt(kT)/(C^2+1), k or k+1 phases - gives neither the mean M
// nor the C.V. C; the version above, the spec's, gives both exactly.)
double sample_work(double mean, double cv, base::Rng& rng);

// Equation 6.1 rounded to whole seconds (half away from zero), at least 1 s. Throws ModelError when the result
// exceeds the 32-bit range of an SWF field, p < 1, or D is outside [0, 1].
int32_t profiler_job_time(double work, double sequential_fraction, int32_t procs);

struct ProfilerExperimentOptions {
  uint64_t seed = 1;
  int64_t jobs = 200;
  double mean_interarrival = 150;  // seconds
  int32_t min_procs = 2, max_procs = 16;
  int32_t machine_procs = 16;
};

// Throws ModelError on invalid options (jobs < 1, mean_interarrival <= 0, 1 <= min_procs <= max_procs <=
// machine_procs violated) or when a submit time would exceed the 32-bit range.
std::vector<swf::Record> generate_profiler_experiment(const ProfilerExperimentOptions& options);
swf::Header profiler_experiment_header(const ProfilerExperimentOptions& options);

// What a generated experiment holds: the offered load on the machine over the arrival span (sum of procs x
// runtime / (machine_procs x last submit); NaN when every job is submitted at 0; the thesis aims at about
// 75%) and, per executable 1..13 (kProfilerExecutables), its jobs and mean runtime (NaN without jobs).
struct ProfilerExperimentStats {
  int64_t last_submit = 0;
  double offered_load = 0;
  struct Executable {
    int32_t number = 0;
    std::string_view name;
    int64_t jobs = 0;
    double mean_runtime = 0;
  };
  std::vector<Executable> executables;
};
ProfilerExperimentStats profiler_experiment_stats(const std::vector<swf::Record>& jobs,
                                                  const ProfilerExperimentOptions& options);
// {"jobs", "mean_interarrival", "machine_procs", "last_submit", "offered_load", "executables": [...]}
nlohmann::ordered_json to_json(const ProfilerExperimentStats& stats, const ProfilerExperimentOptions& options,
                               int64_t jobs);

// runs_per_executable >= 1; the experiment options give seed and processor range.
std::vector<swf::Record> generate_profiler_training(const ProfilerExperimentOptions& options,
                                                    int64_t runs_per_executable);
swf::Header profiler_training_header(const ProfilerExperimentOptions& options, int64_t runs_per_executable);

}  // namespace schedlab::model
