#include "schedlab/model/profiler_experiment.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <limits>
#include <string>

#include <fmt/core.h>

#include "schedlab/base/count_text.h"
#include "schedlab/base/memory.h"
#include "schedlab/base/version.h"

namespace schedlab::model {

const std::array<ProfilerExecutable, 13> kProfilerExecutables = {{
    {"Test1", 14.4, 5778.8, 1.9, 0.1},
    {"Test2", 14.4, 106.9, 3.7, 0.01},
    {"Test3", 11.6, 6.2, 2.1, 0.001},
    {"Test4", 4.0, 165.7, 0.8, 0.01},
    {"Test5", 3.8, 703.2, 1.4, 0.001},
    {"Test6", 3.5, 122.0, 1.1, 0.1},
    {"Test7", 2.8, 184.9, 1.0, 0.01},
    {"Test8", 2.5, 4980.4, 1.5, 0.1},
    {"Test9", 2.3, 2.4, 0.5, 0.01},
    {"Test10", 2.0, 4.7, 1.0, 0.001},
    {"Test11", 1.7, 11.1, 1.1, 0.01},
    {"Test12", 1.5, 360.9, 1.2, 0.1},
    {"Test13", 35.4, 1147.2, 3.9, 0.01},
}};

namespace {

constexpr double kInt32Max = static_cast<double>(std::numeric_limits<int32_t>::max());

// -ln U with U in (0, 1]: a unit-mean exponential by inversion, never infinite.
double unit_exponential(base::Rng& rng) { return -std::log(1.0 - rng.uniform()); }

void check_options(const ProfilerExperimentOptions& o) {
  if (o.jobs < 1 || o.jobs > std::numeric_limits<int32_t>::max())
    throw ModelError(fmt::format("the number of jobs must be 1 to {} (got {})", std::numeric_limits<int32_t>::max(),
                                 o.jobs));
  base::check_fits_in_memory(static_cast<double>(o.jobs) * 2 * sizeof(swf::Record),
                             fmt::format("{} jobs ({} bytes per job)", o.jobs, 2 * sizeof(swf::Record)));
  if (!(o.mean_interarrival > 0) || !std::isfinite(o.mean_interarrival))
    throw ModelError(fmt::format("the mean inter-arrival time must be > 0 s (got {})", o.mean_interarrival));
  if (o.min_procs < 1 || o.min_procs > o.max_procs || o.max_procs > o.machine_procs)
    throw ModelError(fmt::format("processors must satisfy 1 <= min ({}) <= max ({}) <= machine ({})", o.min_procs,
                                 o.max_procs, o.machine_procs));
}

// Executable index by one uniform draw over the normalised fractions.
size_t draw_executable(base::Rng& rng) {
  double total = 0;
  for (const auto& e : kProfilerExecutables) total += e.fraction_percent;
  const double u = rng.uniform() * total;
  double cumulative = 0;
  for (size_t k = 0; k < kProfilerExecutables.size(); ++k) {
    cumulative += kProfilerExecutables[k].fraction_percent;
    if (u < cumulative) return k;
  }
  return kProfilerExecutables.size() - 1;  // u within rounding of the total
}

int32_t draw_procs(const ProfilerExperimentOptions& o, base::Rng& rng) {
  return o.min_procs + static_cast<int32_t>(rng.below(static_cast<uint64_t>(o.max_procs - o.min_procs) + 1));
}

// A job of executable k (index) with processors and run time drawn (processors first, then work).
swf::Record draw_job(const ProfilerExperimentOptions& o, size_t k, base::Rng& rng) {
  const ProfilerExecutable& e = kProfilerExecutables[k];
  swf::Record r;
  const int32_t p = draw_procs(o, rng);
  const double w = sample_work(e.mean_work, e.cv, rng);
  r.run_time = profiler_job_time(w, e.sequential_fraction, p);
  r.allocated_procs = r.requested_procs = p;
  r.requested_time = r.run_time;
  r.status = 1;
  r.user_id = 1;
  r.executable = static_cast<int32_t>(k + 1);
  return r;
}

void add_common_header(swf::Header& h, const ProfilerExperimentOptions& o, int64_t records) {
  h.add_line("; Version: 2.2");
  h.add_line("; Computer: synthetic 16-node machine of Gibbons's profiler experiment (1997, Tables 6.1/6.2)");
  h.add_line(fmt::format("; Installation: schedlab {} generate profiler-experiment", base::kVersion));
  h.add_line(fmt::format("; MaxJobs: {}", records));
  h.add_line(fmt::format("; MaxRecords: {}", records));
  h.add_line(fmt::format("; MaxNodes: {}", o.machine_procs));
  h.add_line(fmt::format("; MaxProcs: {}", o.machine_procs));
}

void add_model_notes(swf::Header& h) {
  h.add_note("run time t = W (D + (1 - D) / p) rounded to whole seconds (>= 1); work W per executable: Erlang "
             "mixture (C.V. < 1), exponential (C.V. = 1), balanced hyperexponential (C.V. > 1)");
  h.add_note("field 9 (requested time) = the actual run time t; field 12 user = 1; field 14 executable = 1..13 "
             "(Test1..Test13)");
  for (size_t k = 0; k < kProfilerExecutables.size(); ++k) {
    const auto& e = kProfilerExecutables[k];
    h.add_note(fmt::format("executable {} {}: {}% of jobs, mean W {} s, C.V. {}, D {}", k + 1, e.name,
                           e.fraction_percent, e.mean_work, e.cv, e.sequential_fraction));
  }
}

}  // namespace

double sample_work(double mean, double cv, base::Rng& rng) {
  if (!(mean > 0) || !std::isfinite(mean)) throw ModelError(fmt::format("mean work must be > 0 (got {})", mean));
  if (cv == 0) return mean;
  if (!(cv >= 0.05 && cv <= 100))
    throw ModelError(fmt::format("the work C.V. must be 0 or in [0.05, 100] (got {})", cv));
  const double c2 = cv * cv;
  if (cv < 1) {
    const double k = std::ceil(1.0 / c2);
    // T is >= 0 in exact arithmetic (k - 1 < 1/C^2); clamp the rounding error of 1/C^2 near an integer.
    const double t = std::max(0.0, 1.0 - (k - 1) * c2);
    const double a = (t + std::sqrt(k * t)) / (c2 + 1);
    const double phase_mean = mean / (k - 1 + a);
    const auto phases = static_cast<int64_t>(rng.uniform() < a ? k : k - 1);
    double sum = 0;
    for (int64_t i = 0; i < phases; ++i) sum += unit_exponential(rng);
    return phase_mean * sum;
  }
  if (cv == 1) return mean * unit_exponential(rng);
  const double a = 0.5 * (1 - std::sqrt((c2 - 1) / (c2 + 1)));
  const double branch_mean = rng.uniform() < a ? mean / (2 * a) : mean / (2 * (1 - a));
  return branch_mean * unit_exponential(rng);
}

int32_t profiler_job_time(double work, double sequential_fraction, int32_t procs) {
  if (procs < 1) throw ModelError(fmt::format("processors must be >= 1 (got {})", procs));
  if (!(sequential_fraction >= 0 && sequential_fraction <= 1))
    throw ModelError(fmt::format("the sequential fraction D must be in [0, 1] (got {})", sequential_fraction));
  const double t =
      std::round(work * (sequential_fraction + (1 - sequential_fraction) / static_cast<double>(procs)));
  if (!(t <= kInt32Max)) throw ModelError(fmt::format("job time {} s exceeds the SWF field range", t));
  return std::max<int32_t>(1, static_cast<int32_t>(t));
}

std::vector<swf::Record> generate_profiler_experiment(const ProfilerExperimentOptions& options) {
  check_options(options);
  base::Rng rng = base::Rng::stream(options.seed, 0);
  std::vector<swf::Record> jobs;
  jobs.reserve(static_cast<size_t>(options.jobs));
  double arrival = 0;  // unrounded running sum of the gaps
  for (int64_t i = 0; i < options.jobs; ++i) {
    const size_t k = draw_executable(rng);
    swf::Record r = draw_job(options, k, rng);
    const double submit = std::round(arrival);
    if (submit > kInt32Max)
      throw ModelError(fmt::format("job {}: submit time {} s exceeds the SWF field range; ask for fewer jobs", i + 1,
                                   submit));
    r.job_number = static_cast<int32_t>(i + 1);
    r.submit_time = static_cast<int32_t>(submit);
    jobs.push_back(r);
    arrival += options.mean_interarrival * unit_exponential(rng);
  }
  return jobs;
}

swf::Header profiler_experiment_header(const ProfilerExperimentOptions& options) {
  check_options(options);
  swf::Header h;
  add_common_header(h, options, options.jobs);
  h.add_note(fmt::format("generator: profiler experiment (Gibbons 1997, Tables 6.1/6.2), seed {}, {}, "
                         "exponential inter-arrival mean {} s, processors uniform {}..{}",
                         options.seed, base::counted(options.jobs, "job"), options.mean_interarrival, options.min_procs,
                         options.max_procs));
  add_model_notes(h);
  return h;
}

std::vector<swf::Record> generate_profiler_training(const ProfilerExperimentOptions& options,
                                                    int64_t runs_per_executable) {
  check_options(options);
  const auto n_exe = static_cast<int64_t>(kProfilerExecutables.size());
  if (runs_per_executable < 1 || runs_per_executable > std::numeric_limits<int32_t>::max() / n_exe)
    throw ModelError(fmt::format("training runs per executable must be 1 to {} (got {})",
                                 std::numeric_limits<int32_t>::max() / n_exe, runs_per_executable));
  base::Rng rng = base::Rng::stream(options.seed, 1);
  std::vector<swf::Record> runs;
  runs.reserve(static_cast<size_t>(n_exe * runs_per_executable));
  for (size_t k = 0; k < kProfilerExecutables.size(); ++k)
    for (int64_t i = 0; i < runs_per_executable; ++i) runs.push_back(draw_job(options, k, rng));
  base::shuffle(runs.begin(), runs.end(), rng);
  int64_t clock = 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    if (clock > std::numeric_limits<int32_t>::max())
      throw ModelError(fmt::format("training run {}: submit time {} s exceeds the SWF field range; ask for fewer "
                                   "runs", i + 1, clock));
    runs[i].job_number = static_cast<int32_t>(i + 1);
    runs[i].submit_time = static_cast<int32_t>(clock);
    runs[i].wait_time = 0;
    clock += runs[i].run_time;
  }
  return runs;
}

swf::Header profiler_training_header(const ProfilerExperimentOptions& options, int64_t runs_per_executable) {
  check_options(options);
  swf::Header h;
  add_common_header(h, options, runs_per_executable * static_cast<int64_t>(kProfilerExecutables.size()));
  h.add_note(fmt::format("training runs for the profiler's repository (Gibbons 1997, Sec. 6.1): {} runs of each "
                         "executable, seed {}, processors uniform {}..{}; history, not a workload to simulate",
                         runs_per_executable, options.seed, options.min_procs, options.max_procs));
  h.add_note("the runs are in random order, each submitted when the previous one ends (wait 0)");
  add_model_notes(h);
  return h;
}

ProfilerExperimentStats profiler_experiment_stats(const std::vector<swf::Record>& jobs,
                                                  const ProfilerExperimentOptions& options) {
  ProfilerExperimentStats out;
  double area = 0;
  std::map<int32_t, std::pair<int64_t, double>> per_exe;  // executable -> (jobs, sum of run times)
  for (const auto& r : jobs) {
    area += static_cast<double>(r.requested_procs) * r.run_time;
    auto& [n, sum] = per_exe[r.executable];
    ++n;
    sum += r.run_time;
  }
  out.last_submit = jobs.empty() ? 0 : jobs.back().submit_time;
  out.offered_load = out.last_submit > 0
                         ? area / (static_cast<double>(options.machine_procs) * static_cast<double>(out.last_submit))
                         : std::nan("");
  for (size_t k = 0; k < kProfilerExecutables.size(); ++k) {
    const auto it = per_exe.find(static_cast<int32_t>(k + 1));
    const int64_t n = it == per_exe.end() ? 0 : it->second.first;
    out.executables.push_back({static_cast<int32_t>(k + 1), kProfilerExecutables[k].name, n,
                               n > 0 ? it->second.second / static_cast<double>(n) : std::nan("")});
  }
  return out;
}

nlohmann::ordered_json to_json(const ProfilerExperimentStats& stats, const ProfilerExperimentOptions& options,
                               int64_t jobs) {
  nlohmann::ordered_json j;
  j["jobs"] = jobs;
  j["mean_interarrival"] = options.mean_interarrival;
  j["machine_procs"] = options.machine_procs;
  j["last_submit"] = stats.last_submit;
  j["offered_load"] = stats.offered_load;
  auto exes = nlohmann::ordered_json::array();
  for (const auto& e : stats.executables)
    exes.push_back({{"executable", e.number}, {"name", e.name}, {"jobs", e.jobs}, {"mean_runtime", e.mean_runtime}});
  j["executables"] = exes;
  return j;
}

}  // namespace schedlab::model
