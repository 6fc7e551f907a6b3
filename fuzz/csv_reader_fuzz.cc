// libFuzzer entry point for the CSV reader (swf/csv.h): any input must either parse or raise swf::ReadError —
// never crash, hang, leak, or trip ASan/UBSan — and what parses must write back as CSV and read again to the same
// records and header lines. Each input is read strictly and with skip_invalid (malformed rows skipped).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string_view>

#include "schedlab/swf/csv.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schedlab::swf;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const bool skip : {false, true}) {
    ReadOptions options;
    options.skip_invalid = skip;
    try {
      const Log log = parse_csv(text, "fuzz", options);
      std::ostringstream out;
      write_csv(out, log.header, log.records);
      const Log again = parse_csv(out.str(), "again");  // what was kept is whole: nothing left to skip
      if (!(again.records == log.records) || again.header.lines != log.header.lines) __builtin_trap();
    } catch (const ReadError&) {
    }
  }
  return 0;
}
