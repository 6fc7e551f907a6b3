// Slurm accounting (sacct) output as an SWF log: a site's own history as schedlab input (docs/slurm.md).
//
// Input: the text of `sacct -P -a -X -D -S START -E END --format=JobID,JobName,User,Group,Partition,Submit,Eligible,
// Start,End,Elapsed,Timelimit,State,AllocCPUS,ReqCPUS,NodeList` (plain or gzip): a header row of column names, then
// '|'-separated rows. Columns are found by name (case-insensitive, any order, extra columns ignored). Required: JobID,
// Submit, Start, End, State, AllocCPUS (or NCPUS), Timelimit; optional: JobName, User, Group, Partition, ReqCPUS,
// Elapsed, NodeList, Eligible.
//
// Mapping (one row = one job, but for sacct -D's requeued jobs below; array tasks are separate rows with -X).
// Job-step rows (JobID "123.batch", "123.0": sacct without -X) are left out and counted, so a log read without -X
// gives the same jobs. A heterogeneous job's
// components (JobID "123+0", "123+1", ...) are one job: the first component's row (its submit, status, user,
// group, name, partition) with the processors (allocated and requested) summed, the shortest wait, and the longest
// runtime and time limit (-1 when one is unlimited); the others are counted as merged.
// - With an Eligible column, a job eligible after its Submit (a begin time, a dependency, a hold) is submitted at
//   its Eligible time (at most its Start): the time it reached the scheduler; counted (held) in the report and Note.
// - Times "YYYY-MM-DDTHH:MM:SS" in `timezone` (sacct prints the machine's local time; default the TZ variable,
//   else the machine's zone), which must be a zone of the time zone database (std::invalid_argument otherwise,
//   with the nearest name: the C library reads an unknown zone as UTC without a word); the header names it. A time
//   the clocks show twice (daylight saving time's end) is its first pass unless a time known to come before it is
//   later (the row's Submit for its Start and Eligible, its Start for its End, the row above's Submit for a
//   Submit, when its JobID is larger), then its second; a time they skip is a ReadError. UnixStartTime = the first
//   submit; submit = seconds after it; wait = Start - Submit; runtime = End - Start (Elapsed when End is absent).
//   A negative wait or runtime becomes 0, counted in the report and the header's Note.
// - Allocated processors = AllocCPUS; requested = ReqCPUS when given, else AllocCPUS. Requested time = Timelimit
//   ([D-]HH:MM:SS, [D-]HH:MM, MM:SS, MM or D-HH; UNLIMITED / Partition_Limit -> -1).
// - A JobID on several rows (sacct -D: a requeued job's runs, the earlier ones REQUEUED/PREEMPTED/NODE_FAIL; the
//   rows need not be adjacent) is one job: a summary line (the first row's Submit, the wait until the first run,
//   the runs' summed runtime, the last row's status and limit, the last run's allocation) followed, when it ran
//   more than once, by a partial-execution line per run (same job number and submit; wait until that run; its
//   runtime and allocation; status 2, the last 3 if the job completed, else 4). Its last row unfinished: the job is
//   unfinished (all its rows counted so). A requeued heterogeneous job keeps the last row of each component.
// - Status: COMPLETED 1; FAILED, TIMEOUT, NODE_FAIL, OUT_OF_MEMORY, BOOT_FAIL, DEADLINE, PREEMPTED 0; CANCELLED
//   (also "CANCELLED by UID") 5. Jobs still PENDING, RUNNING, SUSPENDED, REQUEUED... are left out (counted).
// - A job that never started (Start "Unknown"/"None", e.g. cancelled while pending; or NodeList "None assigned":
//   a job cancelled before its begin time gets the cancel time as Start) is left out and counted, or,
//   with keep_unstarted, kept with status 5, wait -1 and runtime -1.
// - User, group, partition and job name -> numbers 1, 2, ... in order of first appearance (fields 12, 13, 16, 14);
//   the mappings are kept as "; Note: users: 1=alice, 2=bob" header lines. Job numbers 1..N in submit order.
// - Header: Version, Computer, Conversion, UnixStartTime, TimeZoneString, MaxProcs (`procs`, else the largest
//   allocation), MaxJobs/MaxRecords, and a Note with the conversion's counts.
// Errors (swf::ReadError): an empty file, a missing required column, a malformed timestamp, duration or count,
// rows of several clusters (a Cluster column with two values; one JobID for two users' or names' jobs) —
// "FILE:LINE: column NAME: what is wrong".
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schedlab/swf/reader.h"

namespace schedlab::swf {

struct SacctOptions {
  bool keep_unstarted = false;
  std::optional<int64_t> procs;
  std::string timezone;  // empty: TZ, else the machine's
};

struct SacctReport {
  int64_t rows = 0, jobs = 0, unstarted = 0, unfinished = 0;
  int64_t steps = 0;                      // job-step rows (JobID with a '.': sacct without -X), left out
  int64_t het_components = 0;             // heterogeneous-job rows merged into their job's first component
  // sacct -D: jobs that ran more than once (requeued), the rows folded into them beyond the first, the
  // partial-execution lines written for their runs, and a requeued heterogeneous job's earlier rows (left out).
  int64_t requeued_jobs = 0, requeued_rows = 0, partial_executions = 0, het_requeued_rows = 0;
  // Jobs on a JobID that an earlier job in the rows had (Slurm gives an id again when its range cycles or its state
  // is lost): rows after a run that ended its job (any end but REQUEUED, PREEMPTED, NODE_FAIL) are another job.
  int64_t reused_ids = 0;
  // Rows whose Eligible time (the column given) came after their Submit: submitted at it (a begin time, a
  // dependency, a hold), and the first such line.
  int64_t held = 0, held_line = 0;
  std::map<std::string, int64_t> states;  // rows per state (first word), steps not included
  // Kept jobs whose Start is before their Submit (wait set to 0) or whose End is before their Start (runtime set
  // to 0), and the first line of each: clock skew or a requeue, said rather than clamped in silence.
  int64_t start_before_submit = 0, end_before_start = 0;
  int64_t start_before_submit_line = 0, end_before_start_line = 0;
};

Log parse_sacct(std::string_view text, const std::string& name, const SacctOptions& options,
                SacctReport* report = nullptr);
Log read_sacct(const std::string& path, const SacctOptions& options, SacctReport* report = nullptr);

// What a reader of `path` should be told of the report, one message per kind (the caller adds its "warning:"):
// "PATH:LINE: N job(s) started before their submit time (the first here): wait set to 0", and the same for ends
// before starts. Empty when neither occurred.
std::vector<std::string> sacct_warnings(const SacctReport& report, const std::string& path);

}  // namespace schedlab::swf
