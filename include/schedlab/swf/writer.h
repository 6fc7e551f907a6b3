// Writes SWF logs: header lines verbatim, then one record per line with the 18 fields separated by
// single spaces. Output is gzip-compressed when the path ends in ".gz"; "-" writes to standard output.
// Reading a log and writing it back gives the same records and the same header lines.
#pragma once

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
void write_log(const std::string& path, const Header& header, const std::vector<Record>& records);

// Writes any text output (CSV tables, JSON, fitted models) to `path` the way write_log does: ".gz" -> gzip,
// "-" -> standard output, else a plain file. Throws WriteError naming the path on failure.
void write_text_file(const std::string& path, std::string_view text);

// Writes header and records as plain text to a stream.
void write_log(std::ostream& out, const Header& header, const std::vector<Record>& records);

}  // namespace schedlab::swf
