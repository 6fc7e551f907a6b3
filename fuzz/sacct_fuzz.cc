// libFuzzer entry point for the Slurm accounting converter (swf/sacct.h): any input must either convert or raise
// swf::ReadError — never crash, hang, leak, or trip ASan/UBSan — and a converted log must be a valid SWF log:
// jobs numbered 1..N in submit order from 0, written and read back to the same records. The first byte selects
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
    int32_t previous = 0;
    for (size_t i = 0; i < log.records.size(); ++i) {
      const Record& r = log.records[i];
      if (r.job_number != static_cast<int32_t>(i + 1) || r.submit_time < previous) __builtin_trap();
      previous = r.submit_time;
    }
    if (!log.records.empty() && log.records.front().submit_time != 0) __builtin_trap();
    std::ostringstream out;
    write_log(out, log.header, log.records);
    const Log again = parse_log(out.str(), "again");
    if (!(again.records == log.records)) __builtin_trap();
  } catch (const ReadError&) {
  }
  return 0;
}
