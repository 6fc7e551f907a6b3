// Selecting records of a log by submit time, user, size, status, queue and partition.
//
// Every record that is not kept is counted under exactly one reason: the first criterion it fails, in
// the order of FilterReason below. Nothing is dropped silently. The criteria:
// - time: keep submit time (field 2) in [from, to) - `from` inclusive, `to` exclusive, both in seconds
//   from the log's start (see trace/log_time.h to turn dates into seconds). A record with an unknown
//   submit time (< 0) is excluded as kUnknownSubmit when either bound is given.
// - users: keep only user ids (field 12) in `users` (when set), and drop those in `exclude_users`.
// - size (trace::job_size): keep min_procs <= size <= max_procs. A record with no size (<= 0) is excluded
//   as kUnknownSize when either bound is given.
// - status (field 11), queue (field 15), partition (field 16): keep only the listed values (when set).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "schedlab/swf/header.h"
#include "schedlab/swf/record.h"

namespace schedlab::trace {

struct FilterSpec {
  std::optional<int64_t> from;  // seconds from the log's start, inclusive
  std::optional<int64_t> to;    // seconds from the log's start, exclusive
  // How the user wrote the bounds (e.g. "1996-10-01 (Europe/Stockholm)"); used in the note lines only.
  std::string from_text, to_text;

  std::optional<std::set<int32_t>> users;  // keep only these user ids
  std::set<int32_t> exclude_users;         // drop these user ids
  std::optional<int64_t> min_procs, max_procs;
  std::optional<std::set<int32_t>> statuses, queues, partitions;

  bool empty() const;  // true when no criterion is set
};

enum class FilterReason {
  kUnknownSubmit,  // a time bound is given and the submit time is < 0
  kBeforeFrom,     // submit < from
  kNotBeforeTo,    // submit >= to
  kUser,           // user not in `users`, or in `exclude_users`
  kUnknownSize,    // a size bound is given and the job has no size (<= 0)
  kBelowMinProcs,  // size < min_procs
  kAboveMaxProcs,  // size > max_procs
  kStatus,         // status not listed
  kQueue,          // queue not listed
  kPartition,      // partition not listed
};
inline constexpr int kFilterReasons = 10;
std::string_view filter_reason_name(FilterReason r);  // "unknown_submit", "before_from", ...

struct FilterResult {
  std::vector<swf::Record> kept;  // in the input's order
  std::array<int64_t, kFilterReasons> excluded{};  // index = static_cast<int>(FilterReason)
  int64_t excluded_total() const;
};

// Throws std::invalid_argument when the criteria contradict each other or are out of range: from not before to,
// min_procs above max_procs, a size bound below 1.
void check_filter_spec(const FilterSpec& spec);

// The reason `r` is excluded, or nullopt when it is kept.
std::optional<FilterReason> filter_check(const swf::Record& r, const FilterSpec& spec);

FilterResult apply_filter(const std::vector<swf::Record>& records, const FilterSpec& spec);

// When the time window alone keeps no record (each is before `from` or not before `to`), what the log spans, for the
// user who mistyped a year or gave the dates of another log: "the log's jobs were submitted from 1996-09-23
// 12:11:46 CEST to 1997-08-29 ... (--from/--to keep none of them)" (seconds from the log start without
// UnixStartTime). Empty otherwise.
std::string filter_window_hint(const std::vector<swf::Record>& records, const FilterSpec& spec,
                               const FilterResult& result, const swf::Header& header);

// The listed ids no record of the log has — a typo, or an id of another log — one text per option, naming the log's
// own values, those of the most records first: "--status 7: no record has status 7 (the log's: 1 (28018
// records), 0 (471))". Such a list kept (or, for --exclude-users, dropped) less than it says, often nothing, with
// no other sign than the counts. Empty when every listed id occurs. Options: --users, --exclude-users, --status,
// --queue, --partition.
std::vector<std::string> filter_value_hints(const std::vector<swf::Record>& records, const FilterSpec& spec);

// When --partition keeps part of a machine whose header gives its size (MaxProcs, else MaxNodes): the kept log
// still says the whole machine's, which every simulation of it takes unless told --procs. "--partition 2 keeps
// one partition's jobs, but MaxProcs 93312 is the whole machine's: simulate them with --procs set to the partition's
// size (the largest kept job uses 2048)". Empty otherwise (no partition criterion, or none left out for it; no size
// in the header; no job kept).
std::string filter_machine_hint(const swf::Header& header, const FilterSpec& spec, const FilterResult& result,
                                std::string_view partition_text);

// When kept jobs name a preceding job (SWF field 17) that the filter left out: "3 kept jobs name a preceding job the
// filter left out (SWF field 17): simulate --feedback submits them at their logged submit times". Empty otherwise.
std::string filter_dependency_hint(const FilterResult& result);

// Every warning above, in the order a user should read them (the window, the machine, the ids, the dependencies), for
// the CLI and the Python module alike. `partition_text`: --partition as given (the machine hint names it).
std::vector<std::string> filter_hints(const std::vector<swf::Record>& records, const swf::Header& header,
                                      const FilterSpec& spec, const FilterResult& result,
                                      std::string_view partition_text);

// The text of the "; Note:" lines (without the "; Note: " prefix) that record the filter in the output's
// header: the criteria, the number of records kept out of the input, and the exclusions by reason.
std::vector<std::string> filter_notes(const FilterSpec& spec, const FilterResult& result);

}  // namespace schedlab::trace
