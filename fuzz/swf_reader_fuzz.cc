// libFuzzer entry point for the SWF reader: any input must either parse or raise swf::ReadError -
// never crash, hang, leak, or trip ASan/UBSan. The first byte selects the options so both modes
// (strict and skip_invalid) are explored; the rest is the log (plain or gzip, detected by content).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "schedlab/swf/reader.h"
#include "schedlab/swf/writer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schedlab::swf;
  if (size == 0) return 0;
  ReadOptions options;
  options.skip_invalid = (data[0] & 1) != 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    const Log log = parse_log(text, "fuzz", options);
    // Records that parsed must format back and re-parse to the same values.
    if (!log.records.empty()) {
      const std::string line = format_record(log.records.front()) + "\n";
      const Log again = parse_log(line, "again");
      if (again.records.size() != 1 || !(again.records.front() == log.records.front())) __builtin_trap();
    }
  } catch (const ReadError&) {
  }
  return 0;
}
