// The workload and simulation options that every simulating command takes (simulate, compare), declared once.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "schedlab/sim/result.h"
#include "schedlab/workload/workload.h"

namespace schedlab::cli {

struct SimCliOptions {
  std::optional<int64_t> procs;
  bool kill_at_estimate = false;
  std::optional<double> load;
  double arrival_scale = 1.0;
  int64_t bsld_tau = 10;
  double warmup_fraction = 0.0;
  uint64_t seed = 0;
};

// --procs, --kill-at-estimate, --load | --arrival-scale, --bsld-tau, --warmup-fraction (`warmup_help`), --seed.
void add_sim_options(CLI::App* cmd, SimCliOptions& o, const std::string& warmup_help);
void apply_sim_options(const SimCliOptions& o, workload::WorkloadOptions& w, sim::SimOptions& s);

}  // namespace schedlab::cli
