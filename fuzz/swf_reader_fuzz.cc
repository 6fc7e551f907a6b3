// libFuzzer entry point for the SWF reader: any input must either parse or raise swf::ReadError -
// never crash, hang, leak, or trip ASan/UBSan. The first byte selects the options so both modes
// (strict and skip_invalid) are explored, and the size of the pieces of the parallel read; the rest is the log
// (plain or gzip, detected by content). The log is read line by line and in parallel: the records, the report and
// the error must be the same.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "schedlab/swf/reader.h"
#include "schedlab/swf/writer.h"

namespace {

using namespace schedlab::swf;

struct Outcome {
  Log log;
  std::string error;
};

Outcome read(std::string_view text, const ReadOptions& options) {
  Outcome o;
  try {
    o.log = parse_log(text, "fuzz", options);
  } catch (const MalformedRecordError& e) {
    o.error = std::string("malformed ") + e.what();
  } catch (const ReadError& e) {
    o.error = e.what();
  }
  return o;
}

bool same_report(const ReadReport& a, const ReadReport& b) {
  if (a.lines != b.lines || a.header_lines != b.header_lines || a.blank_lines != b.blank_lines ||
      a.records != b.records || a.decimal_fields != b.decimal_fields || a.skipped != b.skipped ||
      a.partial_executions.count != b.partial_executions.count ||
      a.partial_executions.first_line != b.partial_executions.first_line)
    return false;
  for (int w = 0; w < kWarningKinds; ++w) {
    const auto i = static_cast<size_t>(w);
    if (a.warnings[i].count != b.warnings[i].count || a.warnings[i].first_line != b.warnings[i].first_line)
      return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  ReadOptions options;
  options.skip_invalid = (data[0] & 1) != 0;
  options.threads = 1;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const Outcome one = read(text, options);
  // Records that parsed must format back and re-parse to the same values.
  if (one.error.empty() && !one.log.records.empty()) {
    const std::string line = format_record(one.log.records.front()) + "\n";
    const Log again = parse_log(line, "again");
    if (again.records.size() != 1 || !(again.records.front() == one.log.records.front())) __builtin_trap();
  }
  ReadOptions parallel = options;
  parallel.threads = 2;
  parallel.parallel_piece_bytes = 1 + 4 * (data[0] >> 1);  // 1 to 509 bytes: piece ends inside most inputs
  const Outcome two = read(text, parallel);
  if (one.error != two.error) __builtin_trap();
  if (one.error.empty()) {
    if (!same_report(one.log.report, two.log.report) || one.log.header.lines != two.log.header.lines ||
        one.log.header.problems != two.log.header.problems || one.log.records != two.log.records)
      __builtin_trap();
  }
  return 0;
}
