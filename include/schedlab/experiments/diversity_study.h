// The diversity study of `schedlab analyze diversity` (analysis/diversity.h): one attribute of several
// logs against their pool, with CSV and JSON outputs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "schedlab/analysis/attribute.h"
#include "schedlab/analysis/diversity.h"
#include "schedlab/swf/reader.h"

namespace schedlab::experiments {

// One log's part: its known values of the attribute, how many jobs had none (or no submit time), and for the
// estimate how many of the values are runtimes standing in for a missing estimate (the project's convention).
struct DiversityLog {
  std::string name;   // as given (a path); the CSV and the text use its file name
  std::vector<double> values;
  int64_t without_value = 0;  // every job not in `values` (the first job's missing inter-arrival time included)
  // The jobs left out, by reason: no submit time; a submit time but no known value (the first job's missing
  // inter-arrival time is no gap and not counted).
  int64_t without_submit = 0, unknown_value = 0;
  int64_t estimate_from_runtime = 0;
};
// Throws std::invalid_argument naming the log when no job has a known value.
DiversityLog diversity_log(std::string name, const swf::Log& log, analysis::Attribute attribute);

struct DiversityStudy {
  analysis::Attribute attribute = analysis::Attribute::kRuntime;
  analysis::DiversityOptions options;
  std::vector<std::string> names;
  std::vector<int64_t> without_value, without_submit, unknown_value;
  std::vector<int64_t> estimate_from_runtime;
  analysis::DiversityResult result;
};
// Throws std::invalid_argument with fewer than two logs or bad options.
DiversityStudy run_diversity_study(std::vector<DiversityLog> logs, analysis::Attribute attribute,
                                   const analysis::DiversityOptions& options);

// log,jobs,job_weighted,same_weight,baseline_job_weighted,baseline_same_weight,top_bin_job_weighted,
// top_bin_same_weight — one row per log.
std::string diversity_csv(const DiversityStudy& study);
// {"attribute", "options", "logs": [...], "bins"}; with the estimate, each log's jobs_estimate_from_runtime.
nlohmann::ordered_json to_json(const DiversityStudy& study);

}  // namespace schedlab::experiments
