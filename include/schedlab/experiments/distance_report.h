// The output of `schedlab analyze distance` (analysis/log_distance.h) as JSON, shared by the CLI, the Python
// module and the report.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "schedlab/analysis/log_distance.h"

namespace schedlab::experiments {

// {"a": {"procs", "jobs_per_day", "offered_load"}, "b": {...}, "attributes": {name: {"ks", "median_a", "median_b",
// "count_a", "count_b"}}}; NaN as null.
nlohmann::ordered_json to_json(const analysis::LogDistance& d);

}  // namespace schedlab::experiments
