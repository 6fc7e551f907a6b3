// The outputs of `schedlab analyze locality` (analysis/locality.h) as CSV and JSON.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "schedlab/analysis/attribute.h"
#include "schedlab/analysis/locality.h"

namespace schedlab::experiments {

// slice,start,jobs,usable,m,top_bin — one row per slice holding a job (an empty slice has no row: its index
// is missing; m and top_bin are empty for a slice too small to use).
std::string locality_csv(const analysis::LocalityResult& r);

// {"attribute", "options", "jobs", "unknown_submit", "unknown_value", "slices", "usable_slices", "m_prime",
//  ["baseline", "m", "p_value" with a bootstrap], "bins", "series": [per slice holding a job, as the CSV]}
nlohmann::ordered_json to_json(const analysis::LocalityResult& r, const analysis::LocalityOptions& options,
                               const analysis::AttributeSeries& series, analysis::Attribute attribute);

}  // namespace schedlab::experiments
