#include "cli/sim_options.h"

namespace schedlab::cli {

void add_sim_options(CLI::App* cmd, SimCliOptions& o, const std::string& warmup_help) {
  cmd->add_option("--procs", o.procs, "machine size (default: MaxProcs, MaxNodes, largest job)");
  cmd->add_flag("--kill-at-estimate", o.kill_at_estimate, "cut jobs at their user estimate");
  auto* load = cmd->add_option("--load", o.load, "scale inter-arrival times to this offered load");
  auto* scale = cmd->add_option("--arrival-scale", o.arrival_scale, "multiply inter-arrival times by F");
  load->excludes(scale);
  cmd->add_option("--bsld-tau", o.bsld_tau, "bounded-slowdown threshold in seconds (default 10)");
  cmd->add_option("--warmup-fraction", o.warmup_fraction, warmup_help);
  cmd->add_option("--seed", o.seed, "random seed (default 0)");
}

void apply_sim_options(const SimCliOptions& o, workload::WorkloadOptions& w, sim::SimOptions& s) {
  w.procs = o.procs;
  w.kill_at_estimate = o.kill_at_estimate;
  w.load = o.load;
  w.arrival_scale = o.arrival_scale;
  s.bsld_tau = o.bsld_tau;
  s.warmup_fraction = o.warmup_fraction;
  s.seed = o.seed;
}

}  // namespace schedlab::cli
