// Local times in a zone given by name. The C library converts through the TZ environment variable, which is one
// for the whole process: ScopedTimeZone sets it for its lifetime and restores it, holding one process-wide lock all
// the while, so that two threads (Python threads, which the library lets run without the GIL; a library user's)
// never change TZ under each other's conversions — a day/night or a date silently in the other thread's zone — nor
// call setenv at once (a data race in the C library). Every use of TZ (localtime_r, mktime, tzset) is inside one;
// keep the scope short. Scopes nest in one thread (the lock is recursive).
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace schedlab::base {

class ScopedTimeZone {
 public:
  // `zone`: a TZ value ("Europe/Stockholm", "UTC0"); empty keeps TZ as it is (the scope still serialises).
  explicit ScopedTimeZone(const std::string& zone);
  ~ScopedTimeZone();
  ScopedTimeZone(const ScopedTimeZone&) = delete;
  ScopedTimeZone& operator=(const ScopedTimeZone&) = delete;

 private:
  std::unique_lock<std::recursive_mutex> lock_;
  std::optional<std::string> old_;  // TZ before, if it was set
  bool changed_ = false;
};

// The instants (seconds since the epoch) at which the clocks of the current TZ show this date and time (month
// 1-12), inside a ScopedTimeZone: `first` and `last` are one instant but in the hour the clocks show twice (when
// daylight saving time ends), where they are its two passes. nullopt where the clocks never show it (the hour
// skipped when it begins) and for a date that does not exist (February 30). mktime alone picked one of the two
// passes by a guess that followed the time it had converted before, and moved a skipped time by an hour, without
// a word.
struct LocalInstants {
  int64_t first, last;
};
std::optional<LocalInstants> local_time_instants(int year, int month, int day, int hour, int minute, int second);
// The first pass.
std::optional<int64_t> local_time_instant(int year, int month, int day, int hour, int minute, int second);

// local_time_instants for many times in one zone (a log's timestamps), inside one ScopedTimeZone: the offsets of
// each local hour are found once (at its first and last second: an hour with a clock change inside it is resolved
// time by time) and kept, so a time costs a look-up where mktime was called for each. Not thread-safe (one per
// reader).
class LocalTimes {
 public:
  std::optional<LocalInstants> instants(int year, int month, int day, int hour, int minute, int second);
  // The first pass when it is not before `not_before` (a time known to come earlier: a job's submit before its
  // start), else the last: the one instant, where the clocks show the time once.
  std::optional<int64_t> instant(int year, int month, int day, int hour, int minute, int second, int64_t not_before);

 private:
  struct Offsets {
    int64_t first, last;  // local time - instant of each pass; first == kMixed: time by time
  };
  std::unordered_map<int64_t, Offsets> hour_offsets_;  // by days since 1970-01-01 x 24 + hour
};

// The time zone database: $TZDIR, else /usr/share/zoneinfo.
std::string time_zone_directory();

// Whether `name` ("Europe/Stockholm", "UTC", "EST5EDT") is a zone of the database: a file there that starts as
// the database's files do ("TZif"). Not an absolute path nor one with "..". The C library takes a name it does not
// know for UTC without a word, so a zone that is given is checked here first.
bool time_zone_in_database(const std::string& name);

// The database's zone names (without its "posix/" and "right/" copies), sorted: for a did-you-mean.
std::vector<std::string> time_zone_names();

}  // namespace schedlab::base
