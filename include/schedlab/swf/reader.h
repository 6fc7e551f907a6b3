// Streaming reader of Standard Workload Format logs: plain text, gzip (detected by content, not by
// name), or standard input ("-").
//
// Contract:
// - Header lines (starting with ';') before and between records go to Header; blank lines are skipped.
// - Fields may be separated by any run of spaces and tabs; CRLF line ends are accepted. A numeric field
//   written with a decimal part or an exponent is counted in ReadReport::decimal_fields; its value is kept
//   exactly when it is not an integer (Record::value), and its integer member holds it rounded.
// - A record with the wrong number of fields, a non-numeric field or a value outside the 32-bit range is
//   a ReadError "file:line: field N (name): what is wrong" - unless ReadOptions::skip_invalid, in which
//   case the line is skipped and counted by reason in ReadReport::skipped.
// - A missing file, a directory, an empty file, a truncated gzip stream and binary (non-text) content
//   each raise a ReadError with its own message. The reader never crashes or hangs on any input.
// - Semantic oddities are not errors: they are counted in ReadReport::warnings (with the first line).
// - The lines of a preempted job's bursts (is_partial_execution) are left out, counted in
//   ReadReport::partial_executions, unless ReadOptions::keep_partial_executions: a job is its summary line.
//
// Details (implemented in src/swf/reader.cc):
// - A header line is a line whose first non-blank character is ';'. It is kept verbatim without its line
//   terminator (the '\r' of CRLF is removed — every trailing '\r', so that writing a line and reading it back
//   gives it unchanged — other trailing blanks are kept). Header lines found between
//   records are added to the same Header (a writer puts them back at the top).
// - Integer members hold decimals rounded half away from zero ("3.5" -> 4, "-2.5" -> -3), and the record
//   keeps "3.5" and "-2.5" as their exact values; a leading '+' is accepted;
//   exponents ("1e3") are accepted as decimals. "inf", "nan", hex and anything else is non_numeric.
// - When a line has a wrong field count and a bad field, the field count is reported.
// - Error messages, with FILE the path ("<stdin>" for "-", the name given to parse_log):
//     FILE:LINE: expected 18 fields, found K                         (skip reason "wrong_field_count")
//     FILE:LINE: field N (name): not a number: "tok"                 (skip reason "non_numeric")
//     FILE:LINE: field N (name): value "tok" is outside the 32-bit integer range   ("out_of_range")
//     FILE: cannot open: <strerror>          FILE: is a directory, not a log file
//     FILE: empty file, no records or header (0 bytes, or only blank lines)
//     FILE: truncated gzip stream (unexpected end of file)     FILE: corrupt gzip stream: <zlib message>
//     FILE: trailing garbage after the end of the gzip stream  (concatenated gzip members are accepted)
//     FILE:LINE: binary data, not an SWF text log   (a NUL byte, or more than 5% control characters other
//                than tab/CR/LF/FF/VT, in the first 64 KiB of (decompressed) content; LINE is where the
//                first such byte is)
//     FILE:LINE: line too long (more than 1048576 bytes without a line break), not an SWF text log
//   Input faults are always errors, also with skip_invalid.
// - Warnings, counted on accepted records only:
//     kNegativeWait              wait_time < -1
//     kNegativeRuntimeCompleted  status == 1 and run_time < 0 (so a completed job with unknown runtime -1
//                                counts too)
//     kSizeAboveMaxProcs         size (requested_procs if > 0, else allocated_procs) > header MaxProcs, when
//                                the header read so far gives MaxProcs
//     kSubmitOutOfOrder          submit_time < submit_time of the previous record with a known (>= 0) submit
//                                time; records with submit_time < 0 are not compared
//     kDuplicateJobNumber        job_number >= 0 seen before (bitset below 2^24, hash set above)
//     kEstimateBelowRuntime      0 < requested_time < run_time
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "schedlab/swf/header.h"
#include "schedlab/swf/record.h"

namespace schedlab::swf {

class ReadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// A malformed record line of an SWF file: the errors ReadOptions::skip_invalid skips instead (so a command can
// point to it).
class MalformedRecordError : public ReadError {
 public:
  using ReadError::ReadError;
};

struct ReadOptions {
  bool skip_invalid = false;  // skip malformed records (counted by reason) instead of failing
  // Partial-execution lines (is_partial_execution below) are left out, and counted, unless this is set: every job
  // then counts once, by its summary line, as the SWF definition lets a program that does not study preemption do.
  // The commands that copy a log (convert, filter) set it, so that no line is lost.
  bool keep_partial_executions = false;
  // Threads that parse a log read whole (read_log, parse_log, Reader::next_batch): 0 = every core, 1 = line by line
  // on the calling thread. The records, the report and every error are the same for any number.
  int threads = 0;
  // Bytes of text parsed as one piece in parallel (0 = 256 KiB); tests make it small, to put piece ends everywhere.
  size_t parallel_piece_bytes = 0;
};

// The SWF definition's partial-execution lines: a job that was preempted (swapped out, checkpointed) is a summary
// line (status 0, 1 or 5) followed by a line per burst of execution, with the same job number and status 2 (to be
// continued), 3 (the last; the job completed) or 4 (the last; it failed). A record is such a line when its status is
// 2, 3 or 4 and its job number (>= 0) is that of the record line just before it. A status of 2 to 4 on a job number
// of its own is a job: some archive logs hold exit codes there (Sandia-Ross-2001: 1,994 jobs of status 2).
inline bool is_partial_execution(const Record& r, int32_t previous_job_number) {
  return r.status >= 2 && r.status <= 4 && r.job_number >= 0 && r.job_number == previous_job_number;
}

enum class Warning {
  kNegativeWait,              // field 3 < -1
  kNegativeRuntimeCompleted,  // field 4 < 0 on a completed job (status 1)
  kSizeAboveMaxProcs,         // job size (field 8, else 5) > header MaxProcs
  kSubmitOutOfOrder,          // field 2 smaller than the previous record's
  kDuplicateJobNumber,        // field 1 seen before
  kEstimateBelowRuntime,      // 0 < field 9 < field 4
};
inline constexpr int kWarningKinds = 6;
std::string_view warning_name(Warning w);  // "negative_wait", ...

struct WarningCount {
  int64_t count = 0;
  int64_t first_line = 0;  // line number of the first occurrence (0 if none)
};

struct ReadReport {
  int64_t lines = 0;             // physical lines read
  int64_t header_lines = 0;
  int64_t blank_lines = 0;
  int64_t records = 0;           // records accepted
  int64_t decimal_fields = 0;    // fields written with a decimal part or exponent ("107.77", "142.00", "1e3")
  std::map<std::string, int64_t> skipped;  // reason -> count (only with skip_invalid)
  // Partial-execution lines found (count and first line): left out of the records unless the read kept them.
  WarningCount partial_executions;
  bool partial_executions_kept = false;  // ReadOptions::keep_partial_executions of the read
  std::array<WarningCount, kWarningKinds> warnings{};

  int64_t skipped_total() const;
  const WarningCount& warning(Warning w) const { return warnings[static_cast<int>(w)]; }
};

// The semantic checks above, for records that reach a log another way (the CSV reader, columns from Python):
// the same rules, counted into a ReadReport. `line` is what first_line records: the line in the file, or the
// 1-based row for records built in memory. Feed the records in log order.
class RecordChecks {
 public:
  void check(const Record& record, const Header& header, int64_t line, ReadReport& report);
  // Whether `record`, the next record line of the log (before check), is a partial-execution line to leave out;
  // counts it in report.partial_executions when it is a partial-execution line at all. Every reader calls this for
  // each record line, in log order, so that the rule is one.
  bool leave_out(const Record& record, int64_t line, ReadReport& report, const ReadOptions& options);

 private:
  int32_t last_submit_ = INT32_MIN;
  std::vector<uint64_t> seen_job_numbers_;       // bitset over job numbers < 2^24, for duplicate detection
  std::unordered_set<int32_t> big_job_numbers_;  // job numbers >= 2^24 seen
  int32_t previous_job_number_ = -1;             // of the record line before, kept or left out
};

// Pull-style reader: construct, then call next() until it returns false.
class Reader {
 public:
  // Opens `path` ("-" = standard input). Throws ReadError if it cannot be opened or is not text.
  // The header lines at the top of the log are read by the constructor.
  explicit Reader(const std::string& path, ReadOptions options = {});
  // Reads a log held in memory (plain or gzip); `text` must outlive the Reader. `name` is used in messages.
  struct FromMemory {};
  Reader(FromMemory, std::string_view text, const std::string& name, ReadOptions options = {});
  ~Reader();
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  // Reads the next record; false at the end of the log. Throws ReadError on bad input.
  bool next(Record& record);

  const Header& header() const { return header_; }  // complete once next() has returned false
  const ReadReport& report() const { return report_; }
  const std::string& path() const { return path_; }
  // Appends the next records to `out`; false at the end of the log (out may have gained records in this call).
  // Where the text is in memory or a plain stream (not a gzip stream above 1 GiB of text) and more than one thread
  // is allowed (ReadOptions::threads), a span of lines is parsed in pieces on several threads and merged in file
  // order; else up to 65,536 records are read by next(). Either way the records, the report and the first error
  // are those that next() would give. Throws ReadError on bad input.
  bool next_batch(std::vector<Record>& out);
  // Whether next_batch parses in parallel now.
  bool parallel() const;
  // Size in bytes of the text when known (a plain regular file or memory; a gzip file or gzip text in memory
  // decompressed whole, as every one below 1 GiB of text is), -1 otherwise (a pipe, a larger gzip stream).
  int64_t size_hint() const;
  // Bytes of text read so far (lines handed to the parser, header included).
  int64_t bytes_read() const;

 private:
  class Source;
  struct LineFault;
  static bool parse_fields(std::string_view line, Record& record, int64_t& decimal_fields, LineFault& fault);
  struct Piece;  // a piece of text parsed on its own (the parallel read)
  static void parse_piece(std::string_view text, bool skip_invalid, Piece& piece);
  void merge(Piece& piece, std::vector<Record>& out);
  void read_header();
  bool classify(std::string_view line);
  bool next_line(std::string_view& line);
  bool parse_record(std::string_view line, Record& record);
  [[noreturn]] void fail(const std::string& what) const;

  std::string path_;
  ReadOptions options_;
  std::unique_ptr<Source> source_;
  Header header_;
  ReadReport report_;
  int64_t line_number_ = 0;
  std::string name_;  // path_ as shown in messages
  RecordChecks checks_;
  bool pending_ = false;                    // a record line already read by the constructor
  std::string_view pending_line_;
  std::vector<Piece> slots_;  // the pieces being parsed or waiting for the merge (next_batch)
  mutable int parallel_ = -1;  // parallel(), once known (-1: not yet)
};

// A whole log in memory.
struct Log {
  std::string path;
  Header header;
  std::vector<Record> records;
  ReadReport report;
};

// What a command says of a log whose partial-execution lines were left out: "PATH: N partial-execution lines
// (status 2-4 after their job's summary line; the first at line L) left out: each job counts once, by its summary
// line". Empty when there were none or they were kept.
std::string partial_executions_note(const Log& log);
std::string partial_executions_note(const std::string& path, const ReadReport& report);  // a streamed read's

// What a command says of a log read with skip_invalid whose malformed lines were skipped: "PATH: 2 malformed lines
// skipped: non_numeric 1, wrong_field_count 1" (by reason, in name order). Empty when none was.
std::string skipped_lines_note(const Log& log);

// Reads a whole log. Throws ReadError on bad input (see Reader).
Log read_log(const std::string& path, ReadOptions options = {});

// Parses a whole log held in memory (tests, fuzzing). `name` stands for the file name in messages.
Log parse_log(std::string_view text, const std::string& name = "<memory>", ReadOptions options = {});

// A log of records built in memory (`records` in log order), with the report a reader would have given: records
// counted and every record checked (first_line = its 1-based row), and decimal_fields the fields that hold a
// fraction (a float column's 107.77: what the file would have written with a decimal part); partial-execution
// lines left out unless options.keep_partial_executions (skip_invalid has no meaning here). No line or header-line
// counts.
Log log_from_records(std::string path, Header header, std::vector<Record> records, ReadOptions options = {});

}  // namespace schedlab::swf
