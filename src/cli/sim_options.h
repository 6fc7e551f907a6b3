// The workload and simulation options that every simulating command takes (simulate, compare), declared once.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "schedlab/sim/job_classes.h"
#include "schedlab/sim/result.h"
#include "schedlab/workload/workload.h"

namespace schedlab::cli {

struct SimCliOptions {
  std::optional<int64_t> procs;
  bool kill_at_estimate = false;
  bool extend_estimates = false;
  std::optional<double> load;
  double arrival_scale = 1.0;
  int64_t bsld_tau = 10;
  double warmup_fraction = 0.0;
  uint64_t seed = 0;
  bool feedback = false;
};

// --procs, --kill-at-estimate, --extend-estimates, --load | --arrival-scale, --feedback, --bsld-tau,
// --warmup-fraction (`warmup_help`), --seed. Returns the options declared (report refuses them with --sweep).
std::vector<CLI::Option*> add_sim_options(CLI::App* cmd, SimCliOptions& o, const std::string& warmup_help);
void apply_sim_options(const SimCliOptions& o, workload::WorkloadOptions& w, sim::SimOptions& s);

// --by-class and --class-limits (simulate, compare): the metrics by job class (sim/job_classes.h).
struct JobClassCliOptions {
  bool by_class = false;
  std::string limits;
};
void add_job_class_options(CLI::App* cmd, JobClassCliOptions& o);
// The limits asked for (--class-limits implies --by-class), or nullopt; a bad one is std::invalid_argument naming
// the option.
std::optional<sim::JobClassLimits> job_class_limits(const JobClassCliOptions& o);

}  // namespace schedlab::cli
