#include "schedlab/sim/job_output.h"

#include <cstdint>
#include <cstdio>
#include <iterator>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "schedlab/base/count_text.h"
#include "schedlab/swf/writer.h"

namespace schedlab::sim {

namespace {
bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

constexpr std::string_view kCsvHead = "job_id,submit,start,end,procs,runtime,estimate,killed,wait,prediction\n";

void append_csv_row(std::string& out, const Workload& workload, const SimResult& result, size_t i) {
  const Job& j = workload.jobs[i];
  const JobOutcome& o = result.jobs[i];
  const int64_t submit = result.submitted(workload, i);
  fmt::format_to(std::back_inserter(out), "{},{},{},{},{},{},{},{},{},{}\n", j.job_number, submit, o.start, o.end,
                 j.procs, o.ran, j.estimate, j.killed || o.killed ? 1 : 0, o.start - submit, o.prediction_at_start);
}

// The input record of simulated job i with the simulated submit, wait and runtime.
swf::Record simulated_record(const std::vector<swf::Record>& records, const Workload& workload,
                             const SimResult& result, size_t i) {
  swf::Record r = records[workload.record_index[i]];
  const JobOutcome& o = result.jobs[i];
  // The simulation counts in 64 bits: a scaled arrival (--load, --arrival-scale) or a start behind a long queue
  // can pass the SWF's 32-bit fields, which would wrap to a negative time without a word.
  const auto put = [&](int field, int64_t v, const char* what) {
    if (v > INT32_MAX || v < INT32_MIN)
      throw std::runtime_error(fmt::format(
          "job {}: its simulated {} ({} s) does not fit the SWF's 32-bit field {}: write the per-job results as "
          ".csv instead",
          workload.jobs[i].job_number, what, v, field));
    // set_value drops a fraction the log gave these fields: they now hold the simulated integer seconds.
    r.set_value(field, static_cast<double>(v));
  };
  put(2, result.submitted(workload, i), "submit time");
  put(3, o.start - result.submitted(workload, i), "wait");
  put(4, o.ran, "runtime");
  return r;
}

}  // namespace

std::string jobs_csv(const Workload& workload, const SimResult& result) {
  std::string out(kCsvHead);
  for (size_t i = 0; i < workload.jobs.size(); ++i) append_csv_row(out, workload, result, i);
  return out;
}

bool jobs_path_is_swf(const std::string& path) {
  const std::string base = ends_with(path, ".gz") ? path.substr(0, path.size() - 3) : path;
  return path != "-" && ends_with(base, ".swf");
}

void check_jobs_path(const std::string& path) {
  const std::string base = ends_with(path, ".gz") ? path.substr(0, path.size() - 3) : path;
  if (path != "-" && !ends_with(base, ".csv") && !ends_with(base, ".swf"))
    throw std::invalid_argument(fmt::format(
        "--jobs-out {}: the file name must end in .csv, .swf, .csv.gz or .swf.gz (or be - for CSV on standard output)",
        path));
}

void write_jobs(const std::string& path, const swf::Header& header, const std::vector<swf::Record>& records,
                const Workload& workload, const SimResult& result) {
  check_jobs_path(path);
  const std::string base = ends_with(path, ".gz") ? path.substr(0, path.size() - 3) : path;
  if (path == "-" || ends_with(base, ".csv")) {
    // Row by row: a table of a million jobs is not held whole (nor is the schedule's SWF copy below).
    swf::write_text_file(path, kCsvHead, workload.jobs.size(),
                         [&](std::string& out, size_t i) { append_csv_row(out, workload, result, i); });
  } else if (ends_with(base, ".swf")) {
    swf::Header h = header;
    // The machine simulated, when it is not the one the header's MaxProcs describes (--procs), and the records
    // the simulation left out — they are not in this log, and a reader of it should not have to guess why.
    const bool other_machine = header.max_procs && *header.max_procs != result.procs;
    // Scaled arrivals (--load, --arrival-scale) change field 2 itself: say by how much, or the log reads as the
    // original with other waits.
    const std::string scaled =
        workload.arrival_scale != 1.0
            ? fmt::format("; field 2 is the submit time with inter-arrival times x {:g} (offered load {:.4f}, {:.4f} "
                          "in the log)",
                          workload.arrival_scale, workload.offered_load, workload.offered_load_before)
            : "";
    // With feedback field 2 is the simulation's too, for the jobs that followed another.
    const std::string feedback =
        workload.has_feedback()
            ? fmt::format("; field 2 of the {} job{} that follow{} a preceding job (field 17) is the simulated submit, "
                          "its think time (field 18) after that job's simulated end",
                          workload.following, workload.following == 1 ? "" : "s", workload.following == 1 ? "s" : "")
            : "";
    h.add_note(fmt::format("simulated by schedlab: scheduler {}, predictor {}, {}{}{}; fields 3 and 4 are "
                           "the simulated wait and runtime{}{}",
                           result.scheduler, result.predictor, base::counted(result.procs, "processor"),
                           other_machine ? fmt::format(" (not MaxProcs' {})", *header.max_procs) : "",
                           workload.kill_at_estimate ? ", jobs killed at their estimate" : "", scaled, feedback));
    if (workload.excluded_total > 0) {
      std::string reasons;
      for (const auto& [reason, n] : workload.excluded) reasons += fmt::format("{}{} {}", reasons.empty() ? "" : ", ", reason, n);
      h.add_note(fmt::format("{} of {} records were excluded from the simulation and are not in this log ({})",
                             workload.excluded_total, records.size(), reasons));
    }
    swf::write_log(path, h, workload.jobs.size(),
                   [&](size_t i) { return simulated_record(records, workload, result, i); });
  }
}

}  // namespace schedlab::sim
