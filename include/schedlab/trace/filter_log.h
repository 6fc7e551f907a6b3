// Filtering a whole log as `schedlab filter` does it: the spec's criteria (trace/filter.h), then optionally
// the flurries dropped from the kept jobs (trace/flurries.h: found in the whole input, weeks from its first
// submit); the header keeps the input's lines and gains notes saying what was done, and how many invalid
// input lines were skipped. A log read with its partial-execution lines (swf::ReadOptions::keep_partial_executions)
// is judged by its jobs (the summary lines): each kept job keeps the partial-execution lines that followed it, and
// the excluded counts are of jobs.
#pragma once

#include <cstdint>
#include <optional>

#include "schedlab/swf/reader.h"
#include "schedlab/trace/filter.h"
#include "schedlab/trace/flurries.h"

namespace schedlab::trace {

struct FilteredLog {
  swf::Header header;     // the input's, with the notes
  FilterResult result;    // the kept records and the exclusions by reason
  int64_t flurry_dropped = 0;
  int64_t partial_executions_kept = 0;  // partial-execution lines kept with their jobs (in result.kept)
};

FilteredLog filter_log(const swf::Log& log, const FilterSpec& spec, const std::optional<FlurryOptions>& drop_flurries);

}  // namespace schedlab::trace
