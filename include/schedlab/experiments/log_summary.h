// The JSON form of a log's summary (analysis/summary.h), as `schedlab stats --json` prints it (without the
// path), for the CLI, the Python module and the report.
#pragma once

#include <nlohmann/json.hpp>

#include "schedlab/analysis/summary.h"
#include "schedlab/swf/header.h"
#include "schedlab/swf/sacct.h"

namespace schedlab::experiments {

// {"count", "min", "p10", "p25", "median", "p75", "p90", "p99", "max", "mean", "cv"}
nlohmann::ordered_json to_json(const analysis::Distribution& d);

// Records, exclusions by reason, machine, distinct counts, submit span (with dates in the log's time zone
// when the header allows), offered load, distributions, estimates, reading counts and warnings.
nlohmann::ordered_json to_json(const analysis::Summary& s, const swf::Header& header);

// What the sacct converter counted (swf/sacct.h): {"rows", "jobs", "unstarted", "unfinished", "steps", "states"}.
nlohmann::ordered_json to_json(const swf::SacctReport& r);

}  // namespace schedlab::experiments
