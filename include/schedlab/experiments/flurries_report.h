// The outputs of `schedlab flurries` (trace/flurries.h) as CSV and JSON.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "schedlab/swf/reader.h"
#include "schedlab/trace/flurries.h"

namespace schedlab::experiments {

// user,week,week_start,jobs,runner_up,runner_up_jobs,ratio — one row per flurry.
std::string flurries_csv(const std::vector<trace::Flurry>& flurries);

// {"rule", "records", "unattributed", "flurry_jobs", "flurries": [... with "week_start_date" in the log's time
// zone, "" when unknown]}; unattributed: trace::unattributed_jobs.
nlohmann::ordered_json to_json(const std::vector<trace::Flurry>& flurries, const trace::FlurryOptions& options,
                               const swf::Log& log);

// Jobs in all the flurries.
int64_t flurry_jobs(const std::vector<trace::Flurry>& flurries);

}  // namespace schedlab::experiments
