// Reading a command's input log: the library's reader, then the header's problems (a standard key whose value
// does not parse, e.g. "; MaxProcs: abc"; a TimeZoneString the time zone database does not know) as warnings on
// standard error, so that a value the command ignores — and replaces, as the machine size by the largest job —
// is never ignored silently.
#pragma once

#include <string>

#include "schedlab/swf/reader.h"

namespace schedlab::cli {

// swf::read_swf_or_csv (a .csv or .csv.gz name is read as CSV, anything else as SWF), then one "schedlab: warning:
// PATH: header line N: KEY: cannot parse ... (ignored)" per problem, and one for an unknown time zone; then notes
// of the partial-execution lines left out and of the malformed lines skipped (ReadOptions::skip_invalid).
swf::Log read_input_log(const std::string& path, swf::ReadOptions options = {});

}  // namespace schedlab::cli
