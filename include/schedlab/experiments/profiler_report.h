// JSON forms of the historical profiler's results (predict/profiler.h, predict/profiler_db.h), as
// `schedlab profiler` prints them.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "schedlab/predict/profiler.h"
#include "schedlab/predict/profiler_db.h"

namespace schedlab::experiments {

// {"ok"[, "estimate", "half_width", "confidence", "lower", "upper", "std_error", "dof", "corrected", "level",
//  "method", "samples", "buckets", "function" {a, b, c} or "sd"]}
nlohmann::json to_json(const predict::profiler::Estimate& e, double confidence);

// {"logs": [one per ingested log], "database": {"jobs", "entries", "sources"}}
nlohmann::json to_json(const std::vector<predict::profiler::IngestReport>& reports,
                       const predict::profiler::DbSummary& summary);

// {"a", "b" (estimates), "difference", "confidence", "t", "dof", "critical", "accepted"}; infinite t and dof as
// "inf" / "-inf".
nlohmann::json to_json(const predict::profiler::Comparison& c, double difference, double confidence);

}  // namespace schedlab::experiments
