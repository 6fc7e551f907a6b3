#include "schedlab/trace/filter_log.h"

#include <fmt/core.h>

namespace schedlab::trace {

FilteredLog filter_log(const swf::Log& log, const FilterSpec& spec, const std::optional<FlurryOptions>& drop_flurries) {
  FilteredLog out;
  out.result = apply_filter(log.records, spec);
  out.header = log.header;
  for (const auto& note : filter_notes(spec, out.result)) out.header.add_note(note);
  if (drop_flurries) {
    const auto flurries = find_flurries(log.records, *drop_flurries);
    auto kept = trace::drop_flurries(out.result.kept, flurries, first_submit_time(log.records),
                                     drop_flurries->week_seconds);
    out.flurry_dropped = static_cast<int64_t>(out.result.kept.size() - kept.size());
    out.result.kept = std::move(kept);
    for (const auto& note : flurry_notes(flurries, *drop_flurries, out.flurry_dropped)) out.header.add_note(note);
  }
  if (log.report.skipped_total() > 0)
    out.header.add_note(fmt::format("filter: the input had {} invalid lines, skipped (--skip-invalid)",
                                    log.report.skipped_total()));
  return out;
}

}  // namespace schedlab::trace
