// The outputs of `schedlab analyze runs` (analysis/runs.h) as CSV and JSON.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "schedlab/analysis/runs.h"

namespace schedlab::experiments {

// length,runs — one row per run length.
std::string runs_csv(const analysis::RunsResult& r);

// {"equivalence", "jobs", "excluded", "runs", "mean_length", "longest", "jobs_in_repeated_runs_share",
//  "theta", "histogram": [[length, runs], ...]}
nlohmann::ordered_json to_json(const analysis::RunsResult& r, std::string_view equivalence);

}  // namespace schedlab::experiments
