// Per-job results of a simulation, as CSV or SWF.
//
// CSV columns (one row per simulated job, in workload order = (submit, job number)):
//   job_id (SWF job number), submit, start, end, procs, runtime (simulated: end - start), estimate,
//   killed (0/1), wait (start - submit), prediction (the prediction the job started with).
// SWF: the input records of the simulated jobs with field 2 = submit (after arrival scaling),
//   field 3 = simulated wait and field 4 = simulated runtime; the input header plus a Note line saying how
//   it was simulated. Excluded records are not written. A value past the 32-bit fields (a submit scaled by
//   --load beyond 2^31 - 1 s) is a std::runtime_error naming the job, and nothing is written at the path.
// Both: ".gz" at the end of the path compresses with gzip. The format is chosen by extension (".csv[.gz]" or
// ".swf[.gz]"); "-" is the CSV on standard output; anything else is an error (check_jobs_path, before a
// simulation whose results could not be written is run).
#pragma once

#include <string>
#include <vector>

#include "schedlab/sim/simulate.h"
#include "schedlab/workload/workload.h"
#include "schedlab/swf/header.h"
#include "schedlab/swf/record.h"

namespace schedlab::sim {

std::string jobs_csv(const Workload& workload, const SimResult& result);

// Whether write_jobs writes `path` as SWF, the one form that needs the log's records (the CSV is made from the
// workload and the result alone: a caller writing CSV can let the records go before simulating).
bool jobs_path_is_swf(const std::string& path);

// Throws std::invalid_argument naming `path` when it is neither "-" nor a name ending in .csv, .swf, .csv.gz or
// .swf.gz.
void check_jobs_path(const std::string& path);

// Writes per-job results to `path`, CSV or SWF by extension ("-": CSV on standard output), row by row (no copy of
// the table or of the records in memory); `header` and `records` are read for SWF only. Throws
// std::runtime_error on failure, std::invalid_argument for a path check_jobs_path refuses.
void write_jobs(const std::string& path, const swf::Header& header, const std::vector<swf::Record>& records,
                const Workload& workload, const SimResult& result);

}  // namespace schedlab::sim
