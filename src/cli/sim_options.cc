#include "cli/sim_options.h"

#include <stdexcept>

#include <fmt/core.h>

namespace schedlab::cli {

std::vector<CLI::Option*> add_sim_options(CLI::App* cmd, SimCliOptions& o, const std::string& warmup_help) {
  // A braced list evaluates left to right: --help lists the options in this order.
  std::vector<CLI::Option*> added = {
      cmd->add_option("--procs", o.procs, "machine size (default: MaxProcs, MaxNodes, largest job)"),
      cmd->add_flag("--kill-at-estimate", o.kill_at_estimate, "cut jobs at their user estimate"),
      cmd->add_flag("--extend-estimates", o.extend_estimates,
                    "raise the estimate of jobs that ran longer than it to their runtime"),
      cmd->add_option("--load", o.load, "scale inter-arrival times to this offered load"),
      cmd->add_option("--arrival-scale", o.arrival_scale, "multiply inter-arrival times by F"),
      cmd->add_flag("--feedback", o.feedback,
                    "submit a job that names a preceding job (SWF fields 17-18) its think time after that job ends in "
                    "the simulation, not at its logged time"),
      cmd->add_option("--bsld-tau", o.bsld_tau, "bounded-slowdown threshold in seconds (default 10)"),
      cmd->add_option("--warmup-fraction", o.warmup_fraction, warmup_help),
      cmd->add_option("--seed", o.seed, "random seed (default 0)"),
  };
  cmd->get_option("--load")->excludes(cmd->get_option("--arrival-scale"));
  return added;
}

void apply_sim_options(const SimCliOptions& o, workload::WorkloadOptions& w, sim::SimOptions& s) {
  w.procs = o.procs;
  w.kill_at_estimate = o.kill_at_estimate;
  w.extend_estimates = o.extend_estimates;
  w.load = o.load;
  w.arrival_scale = o.arrival_scale;
  w.feedback = o.feedback;
  s.bsld_tau = o.bsld_tau;
  s.warmup_fraction = o.warmup_fraction;
  s.seed = o.seed;
}

void add_job_class_options(CLI::App* cmd, JobClassCliOptions& o) {
  cmd->add_flag("--by-class", o.by_class,
                "the metrics of short/long x narrow/wide jobs as well (who gains and who pays; Srinivasan et al. 2002)");
  cmd->add_option("--class-limits", o.limits,
                  "RUNTIME,PROCS: short jobs run at most RUNTIME, narrow ones use at most PROCS (default 1h,8; implies "
                  "--by-class)");
}

std::optional<sim::JobClassLimits> job_class_limits(const JobClassCliOptions& o) {
  if (!o.by_class && o.limits.empty()) return std::nullopt;
  if (o.limits.empty()) return sim::JobClassLimits{};
  try {
    return sim::parse_job_class_limits(o.limits);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("--class-limits: {}", e.what()));
  }
}

}  // namespace schedlab::cli
