#include "schedlab/sim/job_output.h"

#include <cstdint>
#include <cstdio>
#include <stdexcept>

#include <fmt/core.h>

#include "schedlab/swf/writer.h"

namespace schedlab::sim {

namespace {
bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string jobs_csv(const Workload& workload, const SimResult& result) {
  std::string out = "job_id,submit,start,end,procs,runtime,estimate,killed,wait,prediction\n";
  for (size_t i = 0; i < workload.jobs.size(); ++i) {
    const Job& j = workload.jobs[i];
    const JobOutcome& o = result.jobs[i];
    out += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", j.job_number, j.submit, o.start, o.end, j.procs,
                       o.ran, j.estimate, j.killed || o.killed ? 1 : 0, o.start - j.submit, o.prediction_at_start);
  }
  return out;
}

std::vector<swf::Record> simulated_records(const std::vector<swf::Record>& records, const Workload& workload,
                                           const SimResult& result) {
  std::vector<swf::Record> out;
  out.reserve(workload.jobs.size());
  for (size_t i = 0; i < workload.jobs.size(); ++i) {
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
    put(2, workload.jobs[i].submit, "submit time");
    put(3, o.start - workload.jobs[i].submit, "wait");
    put(4, o.ran, "runtime");
    out.push_back(r);
  }
  return out;
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
    swf::write_text_file(path, jobs_csv(workload, result));
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
    h.add_note(fmt::format("simulated by schedlab: scheduler {}, predictor {}, {} processors{}{}; fields 3 and 4 are "
                           "the simulated wait and runtime{}",
                           result.scheduler, result.predictor, result.procs,
                           other_machine ? fmt::format(" (not MaxProcs' {})", *header.max_procs) : "",
                           workload.kill_at_estimate ? ", jobs killed at their estimate" : "", scaled));
    if (workload.excluded_total > 0) {
      std::string reasons;
      for (const auto& [reason, n] : workload.excluded) reasons += fmt::format("{}{} {}", reasons.empty() ? "" : ", ", reason, n);
      h.add_note(fmt::format("{} of {} records were excluded from the simulation and are not in this log ({})",
                             workload.excluded_total, records.size(), reasons));
    }
    swf::write_log(path, h, simulated_records(records, workload, result));
  }
}

}  // namespace schedlab::sim
