// Writes SWF logs: header lines verbatim, then one record per line with the 18 fields separated by
// single spaces. Output is gzip-compressed when the path ends in ".gz"; "-" writes to standard output.
// Reading a log and writing it back gives the same records and the same header lines.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "schedlab/swf/header.h"
#include "schedlab/swf/record.h"

namespace schedlab::swf {

class WriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Formats one record as an SWF line (no line terminator).
std::string format_record(const Record& record);

// Writes header and records to `path` (".gz" -> gzip, "-" -> stdout). Throws WriteError on failure.
// A file appears whole or not at all: it is written beside the path and renamed over it when complete, so a
// failed write leaves what was at the path untouched (standard output and existing non-regular files such as
// /dev/null are written in place). A replaced file keeps its permissions.
void write_log(const std::string& path, const Header& header, const std::vector<Record>& records);

// The same for a log made record by record: `record(i)` gives the i-th of `count` records, called once each in
// order, so a log derived from another (a simulated schedule) is written without a second copy of its records.
// An exception from `record` leaves what was at the path.
void write_log(const std::string& path, const Header& header, size_t count,
               const std::function<Record(size_t)>& record);

// Writes any text output (CSV tables, JSON, fitted models) to `path` the way write_log does: ".gz" -> gzip,
// "-" -> standard output, else a plain file, whole or not at all. Throws WriteError naming the path on failure.
void write_text_file(const std::string& path, std::string_view text);

// The same for text made piece by piece: `head`, then `append(out, i)` appends the i-th of `count` pieces (a row)
// to `out`, written in chunks of about 1 MiB, so a large table is never whole in memory. An exception from
// `append` leaves what was at the path (standard output has had the chunks before it).
void write_text_file(const std::string& path, std::string_view head, size_t count,
                     const std::function<void(std::string& out, size_t i)>& append);

// Throws WriteError when `output` is one of `inputs` (the same file, through any path or link): a command writing
// its result over the log it reads would replace the log ("-" and missing files never match).
void check_output_is_not_input(const std::string& output, const std::vector<std::string>& inputs);

// Writes header and records as plain text to a stream.
void write_log(std::ostream& out, const Header& header, const std::vector<Record>& records);

}  // namespace schedlab::swf
