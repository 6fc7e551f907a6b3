#include "schedlab/trace/filter.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <unordered_set>
#include <utility>

#include <fmt/core.h>
#include <fmt/ranges.h>

#include "schedlab/base/count_text.h"
#include "schedlab/base/version.h"
#include "schedlab/trace/conventions.h"
#include "schedlab/trace/log_time.h"

namespace schedlab::trace {

bool FilterSpec::empty() const {
  return !from && !to && !users && exclude_users.empty() && !min_procs && !max_procs && !statuses &&
         !queues && !partitions;
}

void check_filter_spec(const FilterSpec& spec) {
  if (spec.from && spec.to && *spec.from >= *spec.to) {
    // "--from 1996-10-01 --to +60d" reads as a 60-day window, but a relative time counts from the log start.
    const bool relative_to = spec.to_text.starts_with('+') && !spec.from_text.starts_with('+');
    throw std::invalid_argument(fmt::format(
        "--from ({} s from the log start) must be before --to ({} s){}", *spec.from, *spec.to,
        relative_to ? fmt::format("; --to {} counts from the log start, not from --from ({} after --from is --to +{})",
                                  spec.to_text, spec.to_text.substr(1), *spec.from + *spec.to)
                    : ""));
  }
  for (const auto& [name, bound] :
       {std::pair{"--min-procs", spec.min_procs}, std::pair{"--max-procs", spec.max_procs}})
    if (bound && *bound < 1) throw std::invalid_argument(fmt::format("{} must be >= 1 (got {})", name, *bound));
  if (spec.min_procs && spec.max_procs && *spec.min_procs > *spec.max_procs)
    throw std::invalid_argument(
        fmt::format("--min-procs ({}) is larger than --max-procs ({})", *spec.min_procs, *spec.max_procs));
}

std::string_view filter_reason_name(FilterReason r) {
  switch (r) {
    case FilterReason::kUnknownSubmit: return "unknown_submit";
    case FilterReason::kBeforeFrom: return "before_from";
    case FilterReason::kNotBeforeTo: return "not_before_to";
    case FilterReason::kUser: return "user";
    case FilterReason::kUnknownSize: return "unknown_size";
    case FilterReason::kBelowMinProcs: return "below_min_procs";
    case FilterReason::kAboveMaxProcs: return "above_max_procs";
    case FilterReason::kStatus: return "status";
    case FilterReason::kQueue: return "queue";
    case FilterReason::kPartition: return "partition";
  }
  return "?";
}

int64_t FilterResult::excluded_total() const {
  int64_t total = 0;
  for (const int64_t n : excluded) total += n;
  return total;
}

std::optional<FilterReason> filter_check(const swf::Record& r, const FilterSpec& spec) {
  if (spec.from || spec.to) {
    if (r.submit_time < 0) return FilterReason::kUnknownSubmit;
    if (spec.from && r.submit_time < *spec.from) return FilterReason::kBeforeFrom;
    if (spec.to && r.submit_time >= *spec.to) return FilterReason::kNotBeforeTo;
  }
  if (spec.users && !spec.users->contains(r.user_id)) return FilterReason::kUser;
  if (spec.exclude_users.contains(r.user_id)) return FilterReason::kUser;
  if (spec.min_procs || spec.max_procs) {
    const int32_t size = job_size(r);
    if (size <= 0) return FilterReason::kUnknownSize;
    if (spec.min_procs && size < *spec.min_procs) return FilterReason::kBelowMinProcs;
    if (spec.max_procs && size > *spec.max_procs) return FilterReason::kAboveMaxProcs;
  }
  if (spec.statuses && !spec.statuses->contains(r.status)) return FilterReason::kStatus;
  if (spec.queues && !spec.queues->contains(r.queue)) return FilterReason::kQueue;
  if (spec.partitions && !spec.partitions->contains(r.partition)) return FilterReason::kPartition;
  return std::nullopt;
}

FilterResult apply_filter(const std::vector<swf::Record>& records, const FilterSpec& spec) {
  FilterResult result;
  result.kept.reserve(records.size());
  for (const auto& r : records) {
    if (const auto reason = filter_check(r, spec)) ++result.excluded[static_cast<int>(*reason)];
    else result.kept.push_back(r);
  }
  return result;
}

std::vector<std::string> filter_notes(const FilterSpec& spec, const FilterResult& result) {
  std::vector<std::string> notes;
  const int64_t total = static_cast<int64_t>(result.kept.size()) + result.excluded_total();
  notes.push_back(fmt::format("FILTERED by schedlab {} filter: {} of {} kept, {} excluded", base::kVersion,
                              result.kept.size(), base::counted(total, "record"), result.excluded_total()));
  const auto bound_text = [](const std::string& text, int64_t seconds) {
    return text.empty() ? fmt::format("{} s", seconds) : fmt::format("{} = {} s", text, seconds);
  };
  if (spec.from) notes.push_back(fmt::format("filter: submit time >= {} from the log start (inclusive)",
                                             bound_text(spec.from_text, *spec.from)));
  if (spec.to) notes.push_back(fmt::format("filter: submit time < {} from the log start (exclusive)",
                                           bound_text(spec.to_text, *spec.to)));
  if (spec.users) notes.push_back(fmt::format("filter: user in {}", fmt::join(*spec.users, ",")));
  if (!spec.exclude_users.empty())
    notes.push_back(fmt::format("filter: user not in {}", fmt::join(spec.exclude_users, ",")));
  if (spec.min_procs) notes.push_back(fmt::format("filter: job size >= {} processors", *spec.min_procs));
  if (spec.max_procs) notes.push_back(fmt::format("filter: job size <= {} processors", *spec.max_procs));
  if (spec.statuses) notes.push_back(fmt::format("filter: status in {}", fmt::join(*spec.statuses, ",")));
  if (spec.queues) notes.push_back(fmt::format("filter: queue in {}", fmt::join(*spec.queues, ",")));
  if (spec.partitions)
    notes.push_back(fmt::format("filter: partition in {}", fmt::join(*spec.partitions, ",")));
  if (spec.empty()) notes.push_back("filter: no criteria (all records kept)");
  notes.push_back("filter: header keys above (MaxJobs, MaxRecords, EndTime, ...) describe the unfiltered log");
  for (int i = 0; i < kFilterReasons; ++i) {
    if (result.excluded[i] == 0) continue;
    notes.push_back(fmt::format("filter: excluded {}: {}", base::counted(result.excluded[i], "record"),
                                filter_reason_name(static_cast<FilterReason>(i))));
  }
  return notes;
}

std::vector<std::string> filter_hints(const std::vector<swf::Record>& records, const swf::Header& header,
                                      const FilterSpec& spec, const FilterResult& result,
                                      std::string_view partition_text) {
  std::vector<std::string> hints;
  if (std::string w = filter_window_hint(records, spec, result, header); !w.empty()) hints.push_back(std::move(w));
  if (std::string w = filter_machine_hint(header, spec, result, partition_text); !w.empty())
    hints.push_back(std::move(w));
  for (std::string& w : filter_value_hints(records, spec)) hints.push_back(std::move(w));
  if (std::string w = filter_dependency_hint(result); !w.empty()) hints.push_back(std::move(w));
  return hints;
}

std::string filter_dependency_hint(const FilterResult& result) {
  bool any = false;
  for (const swf::Record& r : result.kept) any = any || r.preceding_job >= 0;
  if (!any) return "";  // (the archive's logs name none: no set built)
  std::unordered_set<int32_t> kept;
  kept.reserve(result.kept.size());
  for (const swf::Record& r : result.kept) kept.insert(r.job_number);
  int64_t dangling = 0;
  for (const swf::Record& r : result.kept) dangling += r.preceding_job >= 0 && !kept.contains(r.preceding_job) ? 1 : 0;
  if (dangling == 0) return "";
  return fmt::format("{} kept job{} name{} a preceding job the filter left out (SWF field 17): simulate --feedback "
                     "submits {} at {} logged submit time{}",
                     dangling, dangling == 1 ? "" : "s", dangling == 1 ? "s" : "", dangling == 1 ? "it" : "them",
                     dangling == 1 ? "its" : "their", dangling == 1 ? "" : "s");
}

std::string filter_machine_hint(const swf::Header& header, const FilterSpec& spec, const FilterResult& result,
                                std::string_view partition_text) {
  const auto size = header.max_procs ? header.max_procs : header.max_nodes;
  // Only when it left some jobs out: a log of one partition is its machine already.
  if (!spec.partitions || !size || result.kept.empty() ||
      result.excluded[static_cast<size_t>(FilterReason::kPartition)] == 0)
    return "";
  int64_t largest = 0;
  for (const swf::Record& r : result.kept) largest = std::max<int64_t>(largest, job_size(r));
  const bool one = spec.partitions->size() == 1;
  return fmt::format("--partition {} keeps {} jobs, but {} {} is the whole machine's: simulate them with --procs set "
                     "to {} size (the largest kept job uses {})",
                     partition_text, one ? "one partition's" : "some partitions'",
                     header.max_procs ? "MaxProcs" : "MaxNodes", *size, one ? "the partition's" : "their", largest);
}

std::string filter_window_hint(const std::vector<swf::Record>& records, const FilterSpec& spec,
                               const FilterResult& result, const swf::Header& header) {
  if (!result.kept.empty() || (!spec.from && !spec.to)) return "";
  int64_t first = INT64_MAX, last = INT64_MIN;
  for (const swf::Record& r : records) {
    if (r.submit_time < 0) continue;
    if ((!spec.from || r.submit_time >= *spec.from) && (!spec.to || r.submit_time < *spec.to))
      return "";  // the dates keep this one: another criterion left nothing
    first = std::min<int64_t>(first, r.submit_time);
    last = std::max<int64_t>(last, r.submit_time);
  }
  if (first > last) return "";
  auto when = [&](int64_t t) { return format_log_time(t, header).value_or(fmt::format("+{} s", t)); };
  return fmt::format("the log's jobs were submitted from {} to {}; --from/--to keep none of them", when(first),
                     when(last));
}

std::vector<std::string> filter_value_hints(const std::vector<swf::Record>& records, const FilterSpec& spec) {
  struct Listed {
    const char* option;
    const char* what;  // one of the field's values, as the message names it
    const std::set<int32_t>* ids;
    int32_t swf::Record::*field;
  };
  std::vector<Listed> lists;
  if (spec.users) lists.push_back({"--users", "user", &*spec.users, &swf::Record::user_id});
  if (!spec.exclude_users.empty())
    lists.push_back({"--exclude-users", "user", &spec.exclude_users, &swf::Record::user_id});
  if (spec.statuses) lists.push_back({"--status", "status", &*spec.statuses, &swf::Record::status});
  if (spec.queues) lists.push_back({"--queue", "queue", &*spec.queues, &swf::Record::queue});
  if (spec.partitions) lists.push_back({"--partition", "partition", &*spec.partitions, &swf::Record::partition});
  std::vector<std::string> hints;
  for (const Listed& l : lists) {
    std::map<int32_t, int64_t> count;  // the log's values of the field
    for (const swf::Record& r : records) ++count[r.*(l.field)];
    std::vector<int32_t> absent;
    for (const int32_t id : *l.ids)
      if (!count.contains(id)) absent.push_back(id);
    if (absent.empty()) continue;
    std::vector<std::pair<int32_t, int64_t>> common(count.begin(), count.end());
    std::stable_sort(common.begin(), common.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    constexpr size_t kShown = 8;
    std::string theirs;
    for (size_t i = 0; i < std::min(common.size(), kShown); ++i)
      theirs += fmt::format("{}{} ({}{})", i == 0 ? "" : ", ", common[i].first, common[i].second,
                            i == 0 ? (common[i].second == 1 ? " record" : " records") : "");
    if (common.size() > kShown) theirs += fmt::format(" and {} more", common.size() - kShown);
    hints.push_back(fmt::format("{} {}: no record has {} {}{} (the log's: {})", l.option, fmt::join(absent, ","),
                                l.what, fmt::join(absent, " or "),
                                l.ids != &spec.exclude_users ? ""
                                : absent.size() == 1         ? ", so nothing was dropped for it"
                                                             : ", so nothing was dropped for them",
                                common.empty() ? "no records" : theirs));
  }
  return hints;
}

}  // namespace schedlab::trace
