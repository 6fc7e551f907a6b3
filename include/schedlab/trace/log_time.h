// Times in a log: converting user-given dates to seconds from the log's start and back.
//
// SWF submit times are seconds from the log's start, which the header gives as UnixStartTime (epoch
// seconds). Calendar dates are interpreted in the log's time zone: the header's TimeZoneString (an IANA
// name such as "Europe/Stockholm", looked up in the C library's time zone database through the TZ
// environment variable), or UTC when the header has UnixStartTime but no TimeZoneString. The deprecated
// numeric TimeZone key is not used. These functions set TZ temporarily (and restore it) inside a
// base::ScopedTimeZone, so they are thread-safe with each other and with every other user of TZ in schedlab.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "schedlab/swf/header.h"

namespace schedlab::trace {

class TimeError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Parses a point in time into seconds from the log's start. Accepted forms:
// - relative to the log's start: "+" and a duration (base/duration.h): "+3600", "+90m", "+12h", "+1.5d", "+1w",
//   "+1d12h";
// - absolute, in the log's time zone: "YYYY-MM-DD" (midnight), "YYYY-MM-DDTHH:MM" or "YYYY-MM-DDTHH:MM:SS"
//   (a space may replace the 'T'). Absolute forms need UnixStartTime in the header.
// Throws TimeError with a message naming the text on anything else.
int64_t parse_log_time(std::string_view text, const swf::Header& header);

// The time zone absolute dates are interpreted in: TimeZoneString, or "UTC" when absent.
std::string log_time_zone(const swf::Header& header);
// False when the header names a TimeZoneString that is not in the system's time zone database (the C library
// would fall back to UTC without a word); true for a known zone or none.
bool time_zone_known(const swf::Header& header);

// What a reader of the log `path` should be told about its header, one message per problem (the caller adds its
// own "warning:" prefix): each standard key whose value did not parse and was ignored ("PATH: header line 1:
// MaxProcs: cannot parse 'abc' as a non-negative integer (ignored)"), and a TimeZoneString the database does not
// know. Empty for a sound header.
std::vector<std::string> header_warnings(const swf::Header& header, const std::string& path);

// A time as the user wrote it, for notes: "+3d" as it is, a date followed by the zone it was read in
// ("1996-10-01 (Europe/Stockholm)").
std::string log_time_text(std::string_view text, const swf::Header& header);

// "YYYY-MM-DD HH:MM:SS ZZZ" in the log's time zone for `seconds` from the log's start, or nullopt when
// the header has no UnixStartTime.
std::optional<std::string> format_log_time(int64_t seconds, const swf::Header& header);
// The same, and nullopt too when the zone is not in the system's database (reports then show seconds).
std::optional<std::string> format_log_time_if_known(int64_t seconds, const swf::Header& header);

// What to do about a header without UnixStartTime, for the messages of the analyses that need local time.
inline constexpr std::string_view kAddUnixStartTime =
    "add the header line '; UnixStartTime: N', N the Unix time of the log's second 0";

}  // namespace schedlab::trace
