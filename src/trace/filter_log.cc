#include "schedlab/trace/filter_log.h"

#include <fmt/core.h>

namespace schedlab::trace {

namespace {

// The log's records without their partial-execution lines: the jobs the criteria judge.
std::vector<swf::Record> jobs_of(const std::vector<swf::Record>& records) {
  std::vector<swf::Record> jobs;
  int32_t previous = -1;
  for (const auto& r : records) {
    if (!swf::is_partial_execution(r, previous)) jobs.push_back(r);
    previous = r.job_number;
  }
  return jobs;
}

// The kept jobs (in log order, copies of some of the records' jobs) with the partial-execution lines of each, as
// they followed it in `records`. A job is recognised by equality with the next kept one: identical records are
// judged alike by every criterion, so which of two equal ones is taken does not matter.
std::vector<swf::Record> with_partial_executions(const std::vector<swf::Record>& records,
                                                 std::vector<swf::Record> kept_jobs, int64_t& lines_kept) {
  std::vector<swf::Record> out;
  out.reserve(kept_jobs.size());
  size_t next = 0;
  bool keeping = false;
  int32_t previous = -1;
  for (const auto& r : records) {
    if (swf::is_partial_execution(r, previous)) {
      if (keeping) {
        out.push_back(r);
        ++lines_kept;
      }
    } else {
      keeping = next < kept_jobs.size() && kept_jobs[next] == r;
      if (keeping) out.push_back(std::move(kept_jobs[next++]));
    }
    previous = r.job_number;
  }
  return out;
}

}  // namespace

FilteredLog filter_log(const swf::Log& log, const FilterSpec& spec, const std::optional<FlurryOptions>& drop_flurries) {
  // The criteria and the flurries are about jobs: a log read with its partial-execution lines is judged by its
  // summary lines, and each kept job keeps its partial-execution lines.
  const bool partial = log.report.partial_executions_kept && log.report.partial_executions.count > 0;
  std::vector<swf::Record> jobs_storage;
  if (partial) jobs_storage = jobs_of(log.records);
  const std::vector<swf::Record>& records = partial ? jobs_storage : log.records;
  FilteredLog out;
  out.result = apply_filter(records, spec);
  out.header = log.header;
  for (const auto& note : filter_notes(spec, out.result)) out.header.add_note(note);
  if (drop_flurries) {
    const auto flurries = find_flurries(records, *drop_flurries);
    auto kept = trace::drop_flurries(out.result.kept, flurries, first_submit_time(records),
                                     drop_flurries->week_seconds);
    out.flurry_dropped = static_cast<int64_t>(out.result.kept.size() - kept.size());
    out.result.kept = std::move(kept);
    for (const auto& note : flurry_notes(flurries, *drop_flurries, out.flurry_dropped)) out.header.add_note(note);
  }
  if (partial) {
    out.result.kept = with_partial_executions(log.records, std::move(out.result.kept), out.partial_executions_kept);
    out.header.add_note(fmt::format("filter: {} partial-execution lines (status 2-4) kept with their jobs, {} left "
                                    "out with theirs",
                                    out.partial_executions_kept,
                                    log.report.partial_executions.count - out.partial_executions_kept));
  }
  if (log.report.skipped_total() > 0)
    out.header.add_note(fmt::format("filter: the input had {} invalid lines, skipped (--skip-invalid)",
                                    log.report.skipped_total()));
  return out;
}

}  // namespace schedlab::trace
