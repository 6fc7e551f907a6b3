// One SWF job record: the 18 standard fields, compact (72 bytes) so a million jobs fit in ~72 MB.
//
// Field numbers follow the Standard Workload Format (1-based). -1 means "unknown" in every field.
// Values are integers; a field written with a decimal part (e.g. "14400.0") is stored rounded to the
// nearest integer and counted by the reader. A value outside the 32-bit range is a read error.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace schedlab::swf {

inline constexpr int kFieldCount = 18;

struct Record {
  int32_t job_number = -1;        //  1 job number
  int32_t submit_time = -1;       //  2 submit time, seconds from the log's start
  int32_t wait_time = -1;         //  3 wait time, seconds
  int32_t run_time = -1;          //  4 run time, seconds
  int32_t allocated_procs = -1;   //  5 number of allocated processors
  int32_t avg_cpu_time = -1;      //  6 average CPU time used per processor, seconds
  int32_t used_memory = -1;       //  7 used memory per processor, KB
  int32_t requested_procs = -1;   //  8 requested number of processors
  int32_t requested_time = -1;    //  9 requested (estimated) run time, seconds
  int32_t requested_memory = -1;  // 10 requested memory per processor, KB
  int32_t status = -1;            // 11 1 completed, 0 failed, 5 cancelled; 2/3/4 partial-execution lines
  int32_t user_id = -1;           // 12
  int32_t group_id = -1;          // 13
  int32_t executable = -1;        // 14 application number
  int32_t queue = -1;             // 15
  int32_t partition = -1;         // 16
  int32_t preceding_job = -1;     // 17
  int32_t think_time = -1;        // 18 think time from the preceding job, seconds

  // Field access by SWF number 1..18 (for generic code: writers, CSV, validation).
  int32_t field(int number) const { return (&job_number)[number - 1]; }
  int32_t& field(int number) { return (&job_number)[number - 1]; }

  friend bool operator==(const Record&, const Record&) = default;
};
static_assert(sizeof(Record) == kFieldCount * sizeof(int32_t), "Record must stay a packed array of fields");

// Short machine-friendly names of the 18 fields in order (CSV header, JSON keys, error messages).
inline constexpr std::array<std::string_view, kFieldCount> kFieldNames = {
    "job_number", "submit_time",   "wait_time",     "run_time",   "allocated_procs", "avg_cpu_time",
    "used_memory", "requested_procs", "requested_time", "requested_memory", "status", "user_id",
    "group_id",   "executable",    "queue",         "partition",  "preceding_job",   "think_time"};

}  // namespace schedlab::swf
