// The JSON form of `schedlab categorize` (analysis/categories.h).
#pragma once

#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "schedlab/analysis/categories.h"

namespace schedlab::experiments {

// {"records", "rule", "keys": [per key: groups, jobs, mean run time, weighted C.V., exclusions],
//  "lowest_cv_key"[, "groups": the `top` largest groups of `list_key`]}
nlohmann::ordered_json to_json(const analysis::Categorization& c, std::optional<analysis::CategoryKey> list_key,
                               int64_t top);

}  // namespace schedlab::experiments
