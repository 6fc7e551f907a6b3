// SWF logs as CSV, for spreadsheets and data-frame libraries.
//
// Format written (and expected back):
// - First, every SWF header line, verbatim and in order, each prefixed with '#': the SWF line
//   "; MaxProcs: 100" becomes "#; MaxProcs: 100". (pandas: read_csv(path, comment='#'); R: comment.char='#'.)
//   A header line ending in ',' is written in double quotes, '"' doubled inside: "#; Note: a,".
// - Then one column-name row: the 18 names of kFieldNames in order, comma-separated.
// - Then one row per record: the 18 fields, comma-separated, no quoting, '\n' line ends; each an integer,
//   or the field's exact fractional value ("107.77") where the record keeps one (swf/record.h).
// - The output is gzip-compressed when the path ends in ".gz"; "-" writes to standard output.
// So SWF -> CSV -> SWF gives back exactly the same records and the same header lines.
//
// Reading accepts what it writes, plus: '#' lines anywhere (taken as header lines; the text after the
// '#' is kept verbatim when it starts with ';', otherwise the '#' is replaced by ';': "# text" -> "; text"), blank
// lines, CRLF line ends (every trailing '\r' of a line is removed), spaces and tabs around fields, and numbers with
// a decimal part or exponent (kept exactly and counted in ReadReport::decimal_fields, as the SWF reader does); and
// what a spreadsheet or a CSV library makes of the file: a UTF-8 byte order mark, fields and column names in double
// quotes (RFC 4180), a '#' line in quotes as the row's only cell, and rows padded with empty cells (the commas
// ending an unquoted '#' line, the empty cells after the 18th field, a row of commas only, taken as a blank line).
// The column-name row must match kFieldNames exactly. Gzip input is detected by content. Errors are swf::ReadError
// with "file:line:column: what is wrong" (column = 1-based character position). The reader's semantic warnings
// (ReadReport::warnings) are counted as for SWF (swf::RecordChecks), at the CSV's line numbers; ReadReport also
// counts lines, header lines, blank lines, records and decimal fields.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "schedlab/swf/header.h"
#include "schedlab/swf/reader.h"
#include "schedlab/swf/record.h"

namespace schedlab::swf {

// Writes header and records as CSV to `path` (".gz" -> gzip, "-" -> stdout). Throws WriteError.
void write_csv(const std::string& path, const Header& header, const std::vector<Record>& records);

// Writes header and records as plain CSV text to a stream.
void write_csv(std::ostream& out, const Header& header, const std::vector<Record>& records);

// Reads a CSV log (plain or gzip). Throws ReadError on bad input, with file:line:column; a data row that is not a
// record (wrong_field_count, non_numeric, out_of_range, empty_field, malformed_quotes) is a MalformedRecordError,
// or with options.skip_invalid skipped and counted by that reason, as the SWF reader's lines. Partial-execution
// lines as the SWF reader has them (options.keep_partial_executions).
Log read_csv(const std::string& path, ReadOptions options = {});

// The whole of a text file, plain or gzip (by content); "-" is standard input, named "<stdin>" in messages.
// Throws ReadError naming the file.
std::string read_text(const std::string& path);

// Parses CSV text held in memory; `name` stands for the file name in messages.
Log parse_csv(std::string_view text, const std::string& name = "<memory>", ReadOptions options = {});

// True for a name ending in ".csv" or ".csv.gz" (what convert writes as CSV).
bool is_csv_name(const std::string& path);

// A log from a file in either format, chosen by name as convert chooses: read_csv for a CSV name, read_log (SWF,
// "-" = standard input) for any other, with the same options. (skip_invalid was refused for a CSV, with the advice
// to convert it to SWF first, which could not read the bad row either; a CSV edited in a spreadsheet has them.)
Log read_swf_or_csv(const std::string& path, ReadOptions options = {});
// The writing side: write_csv for a CSV name, swf::write_log (".gz" compresses, "-" = standard output) for any other,
// so that every command writing a log writes what a reader of the same name expects.
void write_swf_or_csv(const std::string& path, const Header& header, const std::vector<Record>& records);

}  // namespace schedlab::swf
