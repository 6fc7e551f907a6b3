// libFuzzer entry point for the Slurm accounting converter (swf/sacct.h): any input must either convert or raise
// swf::ReadError — never crash, hang, leak, or trip ASan/UBSan — and a converted log must be a valid SWF log:
// jobs numbered 1..N in submit order from 0 (a requeued job's runs as partial-execution lines after it), written
// and read back to the same records. The first byte selects
// keep_unstarted; times are read in UTC (the machine's zone would make runs differ).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string_view>

#include "schedlab/swf/reader.h"
#include "schedlab/swf/sacct.h"
#include "schedlab/swf/writer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schedlab::swf;
  if (size == 0) return 0;
  SacctOptions options;
  options.keep_unstarted = (data[0] & 1) != 0;
  options.timezone = "UTC";
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    const Log log = parse_sacct(text, "fuzz", options);
    // Jobs numbered 1..N in submit order; a requeued job's runs (sacct -D) are partial-execution lines after it.
    int32_t previous = 0, jobs = 0, previous_number = -1;
    for (const Record& r : log.records) {
      if (is_partial_execution(r, previous_number)) {
        if (r.submit_time != previous) __builtin_trap();
        continue;
      }
      if (r.job_number != ++jobs || r.submit_time < previous) __builtin_trap();
      previous = r.submit_time;
      previous_number = r.job_number;
    }
    if (!log.records.empty() && log.records.front().submit_time != 0) __builtin_trap();
    std::ostringstream out;
    write_log(out, log.header, log.records);
    ReadOptions keep;
    keep.keep_partial_executions = true;
    const Log again = parse_log(out.str(), "again", keep);
    if (!(again.records == log.records)) __builtin_trap();
    if (parse_log(out.str(), "jobs").records.size() != static_cast<size_t>(jobs)) __builtin_trap();
  } catch (const ReadError&) {
  }
  return 0;
}
