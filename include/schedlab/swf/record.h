// One SWF job record: the 18 standard fields, compact (80 bytes) so a million jobs fit in ~80 MB.
//
// Field numbers follow the Standard Workload Format (1-based). -1 means "unknown" in every field.
// Every field has an integer value (the int32 members, what the simulator and the analyses use): a field
// the log wrote with a fractional part ("107.77" CPU seconds in some archive versions) holds it rounded half
// away from zero. The fractional value itself is kept beside it, exactly as read (to the 15-17 significant
// digits of a double), and written back by the SWF and CSV writers: value(n) returns it. Assigning a new
// integer to a member makes the member's stored fraction stale, and a stale fraction is never used (value(n)
// then returns the integer), so code that rewrites a field (simulated wait and run times) cannot write an
// old fraction by mistake. A value outside the 32-bit range is a read error.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace schedlab::swf {

inline constexpr int kFieldCount = 18;

// The 18 integer fields, trivially copyable (a copy of a Record of integers is a 72-byte memcpy).
struct RecordFields {
  int32_t job_number = -1;        //  1 job number
  int32_t submit_time = -1;       //  2 submit time, seconds from the log's start
  int32_t wait_time = -1;         //  3 wait time, seconds
  int32_t run_time = -1;          //  4 run time, seconds
  int32_t allocated_procs = -1;   //  5 number of allocated processors
  int32_t avg_cpu_time = -1;      //  6 average CPU time used per processor, seconds
  int32_t used_memory = -1;       //  7 used memory per processor, KB
  int32_t requested_procs = -1;   //  8 requested number of processors
  int32_t requested_time = -1;    //  9 requested (estimated) run time, seconds
  int32_t requested_memory = -1;  // 10 requested memory per processor, KB
  int32_t status = -1;            // 11 1 completed, 0 failed, 5 cancelled; 2/3/4 partial-execution lines
  int32_t user_id = -1;           // 12
  int32_t group_id = -1;          // 13
  int32_t executable = -1;        // 14 application number
  int32_t queue = -1;             // 15
  int32_t partition = -1;         // 16
  int32_t preceding_job = -1;     // 17
  int32_t think_time = -1;        // 18 think time from the preceding job, seconds
};

struct Record : RecordFields {
  // Field access by SWF number 1..18 (for generic code: writers, CSV, validation), through a table of
  // member pointers (well-defined, unlike indexing across members; compiles to an offset load).
  int32_t field(int number) const;
  int32_t& field(int number);

  // The exact value of field `number`: its fraction when the log gave one (and the integer member still
  // holds its rounding), else the integer.
  double value(int number) const;
  // True when field `number` has a (current) fractional value.
  bool fractional(int number) const;
  // Sets field `number` to `v`: the integer member to v rounded half away from zero, and the fraction to v
  // when v is not an integer (else none). Requires v to round into the 32-bit range.
  void set_value(int number, double v);
  // True when any field has a current fractional value.
  bool has_fractions() const;
  // Appends field `number` as SWF/CSV text: the integer, or the fraction as the shortest plain decimal that
  // reads back as the same double ("107.77"; never an exponent).
  void append_text(std::string& out, int number) const;
  // Drops every fraction (the integer members stay).
  void clear_fractions() { fractions_.reset(); }

  Record() = default;
  Record(const Record& other);
  Record& operator=(const Record& other);
  Record(Record&&) noexcept = default;
  Record& operator=(Record&&) noexcept = default;
  ~Record() = default;

  // Equal when every field's exact value is equal.
  friend bool operator==(const Record& a, const Record& b);

 private:
  struct Fraction {
    int32_t number;  // SWF field number; 0 ends the array
    double value;
  };
  // Null for the usual all-integer record, so integer records cost one pointer and no allocation; else one
  // allocation holding the fractions and a terminating {0, 0}.
  std::unique_ptr<Fraction[]> fractions_;
  const Fraction* find(int number) const;
  static size_t count(const Fraction* f);
  // The reader collects a line's fractions and hands them over at once (one allocation per line).
  friend class Reader;
  void adopt_fractions(const Fraction* f, size_t n);
};
static_assert(sizeof(RecordFields) == kFieldCount * sizeof(int32_t));
static_assert(sizeof(Record) == kFieldCount * sizeof(int32_t) + sizeof(void*),
              "Record must stay a packed array of fields and one pointer");

// The integer members in SWF field order.
inline constexpr std::array<int32_t RecordFields::*, kFieldCount> kRecordMembers = {
    &Record::job_number,      &Record::submit_time,      &Record::wait_time,       &Record::run_time,
    &Record::allocated_procs, &Record::avg_cpu_time,     &Record::used_memory,     &Record::requested_procs,
    &Record::requested_time,  &Record::requested_memory, &Record::status,          &Record::user_id,
    &Record::group_id,        &Record::executable,       &Record::queue,           &Record::partition,
    &Record::preceding_job,   &Record::think_time};

inline int32_t Record::field(int number) const { return this->*kRecordMembers[static_cast<size_t>(number - 1)]; }
inline int32_t& Record::field(int number) { return this->*kRecordMembers[static_cast<size_t>(number - 1)]; }

// Short machine-friendly names of the 18 fields in order (CSV header, JSON keys, error messages).
inline constexpr std::array<std::string_view, kFieldCount> kFieldNames = {
    "job_number", "submit_time",   "wait_time",     "run_time",   "allocated_procs", "avg_cpu_time",
    "used_memory", "requested_procs", "requested_time", "requested_memory", "status", "user_id",
    "group_id",   "executable",    "queue",         "partition",  "preceding_job",   "think_time"};

}  // namespace schedlab::swf
