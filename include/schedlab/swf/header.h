// The SWF header: the ";"-comment lines at the top of a log.
//
// Every header line is kept verbatim and in order in `lines` (so writing a log back reproduces its
// header exactly); the standard keys are also parsed into typed fields. Unknown keys and free
// comments stay in `lines` only. Lines of the form "; Key: value" whose key is standard but whose value
// does not parse as the key's type are kept in `lines` and reported in `problems`.
//
// Parsing rules (implemented in src/swf/header.cc):
// - A header line is optional blanks, ';', then "Key: value" or free text. Keys are matched
//   case-insensitively and may be preceded by any blanks (";MaxProcs: 1", ";   Note: x"); values are trimmed.
// - Integer keys take the leading integer and ignore free text after a blank
//   ("MaxNodes: 338 (batch partition; 512 total)" -> 338). "-1", "N/A", "NA", "unknown", "none", "-" and an
//   empty value mean "not given": the field stays absent and no problem is reported. Other negative values
//   are problems (UnixStartTime alone may be negative). AllowOveruse takes Yes/No/True/False/Y/N/1/0.
// - A key given twice: the last value wins (list keys - Acknowledge, Information, Conversion, Queue,
//   Partition, Note - collect every value).
// - Multi-line values: a line that is not a "Key:" line and is indented after ';' by a tab or at least
//   two spaces, directly after a text key's line (or another such continuation), is appended to that
//   key's last value with '\n' (e.g. the filter lines under "Note: THIS IS A CLEANED VERSION").
//   It is, like every line, also kept verbatim in `lines`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace schedlab::swf {

struct Header {
  // Verbatim header lines without the line terminator, e.g. "; MaxProcs: 100".
  std::vector<std::string> lines;

  // Typed standard keys (absent when the log does not give them).
  std::optional<std::string> version;             // Version (kept as text: "2", "2.2", "SWF v2")
  std::optional<std::string> computer;            // Computer
  std::optional<std::string> installation;        // Installation
  std::vector<std::string> acknowledge;           // Acknowledge (may repeat)
  std::vector<std::string> information;           // Information (may repeat)
  std::vector<std::string> conversion;            // Conversion (may repeat)
  std::optional<int64_t> max_jobs;                // MaxJobs
  std::optional<int64_t> max_records;             // MaxRecords
  std::optional<std::string> preemption;          // Preemption (No / Yes / Double / TS)
  std::optional<int64_t> unix_start_time;         // UnixStartTime
  std::optional<std::string> time_zone;           // TimeZone (deprecated numeric offset, kept as text)
  std::optional<std::string> time_zone_string;    // TimeZoneString, e.g. "Europe/Stockholm"
  std::optional<std::string> start_time;          // StartTime (human-readable)
  std::optional<std::string> end_time;            // EndTime (human-readable)
  std::optional<int64_t> max_nodes;               // MaxNodes
  std::optional<int64_t> max_procs;               // MaxProcs
  std::optional<int64_t> max_runtime;             // MaxRuntime, seconds
  std::optional<int64_t> max_memory;              // MaxMemory, KB
  std::optional<bool> allow_overuse;              // AllowOveruse (Yes/No/True/False)
  std::optional<int64_t> max_queues;              // MaxQueues
  std::vector<std::string> queues;                // Queue (may repeat)
  std::optional<int64_t> max_partitions;          // MaxPartitions
  std::vector<std::string> partitions;            // Partition (may repeat)
  std::vector<std::string> notes;                 // Note (may repeat)

  // Header lines that named a standard key with a value of the wrong type ("line N: MaxProcs: ...").
  std::vector<std::string> problems;

  // Internal state of add_line (which text key a continuation line would extend; -1 none). Public only
  // so that Header stays a plain aggregate-like struct; copying a Header copies it consistently.
  int continuation_key = -1;

  // Parses one verbatim header line (starting with ';') into the typed fields and appends it to `lines`.
  // `line_number` is used in `problems` messages only.
  void add_line(std::string line, int64_t line_number = 0);

  // Appends a "; Note: text" line (as the archive records the cleaning and filtering applied).
  void add_note(const std::string& text);
};

}  // namespace schedlab::swf
