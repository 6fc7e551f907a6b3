// The SWF header: the ";"-comment lines at the top of a log.
//
// Every header line is kept verbatim and in order in `lines` (so writing a log back reproduces its
// header exactly); the standard keys are also parsed into typed fields. Unknown keys and free
// comments stay in `lines` only. Lines of the form "; Key: value" whose key is standard but whose value
// does not parse as the key's type are kept in `lines` and reported in `problems`.
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

  // Parses one verbatim header line (starting with ';') into the typed fields and appends it to `lines`.
  // `line_number` is used in `problems` messages only.
  void add_line(std::string line, int64_t line_number = 0);

  // Appends a "; Note: text" line (as the archive records the cleaning and filtering applied).
  void add_note(const std::string& text);
};

}  // namespace schedlab::swf
