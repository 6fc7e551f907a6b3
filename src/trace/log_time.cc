#include "schedlab/trace/log_time.h"

#include <charconv>
#include <ctime>

#include <fmt/core.h>

#include "schedlab/base/duration.h"
#include "schedlab/base/time_zone.h"

namespace schedlab::trace {
namespace {

using base::ScopedTimeZone;

// The TZ value for the log's zone; checks that the zone exists, since the C library silently falls
// back to UTC for unknown names.
std::string tz_value(const swf::Header& header) {
  if (!header.time_zone_string || header.time_zone_string->empty()) return "UTC0";
  const std::string& zone = *header.time_zone_string;
  if (!base::time_zone_in_database(zone))
    throw TimeError(fmt::format("the log's TimeZoneString '{}' is not in the time zone database ({}); "
                                "use a relative time such as +3d instead",
                                zone, base::time_zone_directory()));
  return zone;
}

}  // namespace

bool time_zone_known(const swf::Header& header) {
  try {
    tz_value(header);
    return true;
  } catch (const TimeError&) {
    return false;
  }
}

std::vector<std::string> header_warnings(const swf::Header& header, const std::string& path) {
  std::vector<std::string> out;
  for (const std::string& p : header.problems) out.push_back(fmt::format("{}: header {} (ignored)", path, p));
  if (!time_zone_known(header))
    out.push_back(fmt::format("{}: the header's TimeZoneString '{}' is not in the time zone database: no dates or "
                              "local times (what needs them says so)",
                              path, *header.time_zone_string));
  return out;
}

namespace {

bool parse_int(std::string_view s, int64_t& out) {
  if (s.empty() || s.size() > 12) return false;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (const char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// A duration after the '+', by the one rule of base/duration.h ("+90", "+12h", "+1.5d", "+1d12h").
int64_t parse_relative(std::string_view text) {
  const auto seconds = base::parse_duration(text.substr(1));
  if (!seconds || text.substr(1).starts_with(' '))
    throw TimeError(fmt::format("bad time '{}': a relative time is + then a duration, a number >= 0 with an "
                                "optional unit s, m, h, d or w (e.g. +3600, +12h, +1.5d, +1d12h)", text));
  return *seconds;
}

}  // namespace

std::string log_time_text(std::string_view text, const swf::Header& header) {
  return text.starts_with('+') ? std::string(text) : fmt::format("{} ({})", text, log_time_zone(header));
}

std::string log_time_zone(const swf::Header& header) {
  return header.time_zone_string && !header.time_zone_string->empty() ? *header.time_zone_string : "UTC";
}

int64_t parse_log_time(std::string_view text, const swf::Header& header) {
  if (text.starts_with('+')) return parse_relative(text);

  // YYYY-MM-DD[(T| )HH:MM[:SS]]
  const auto bad = [&] {
    return TimeError(fmt::format("bad time '{}': expected YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS], or a time "
                                 "relative to the log's start such as +3d, +12h, +3600",
                                 text));
  };
  if (text.size() < 10 || text[4] != '-' || text[7] != '-') throw bad();
  int64_t year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  const auto num = [&](size_t pos, size_t len, int64_t& out) {
    const std::string_view part = text.substr(pos, len);
    if (part.size() != len || !all_digits(part) || !parse_int(part, out)) throw bad();
  };
  num(0, 4, year);
  num(5, 2, month);
  num(8, 2, day);
  if (text.size() > 10) {
    if ((text[10] != 'T' && text[10] != ' ') || (text.size() != 16 && text.size() != 19) || text[13] != ':')
      throw bad();
    num(11, 2, hour);
    num(14, 2, minute);
    if (text.size() == 19) {
      if (text[16] != ':') throw bad();
      num(17, 2, second);
    }
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59)
    throw TimeError(fmt::format("bad time '{}': no such date or time of day", text));
  if (!header.unix_start_time)
    throw TimeError(fmt::format("cannot use the date '{}': the log's header has no UnixStartTime, so dates "
                                "cannot be related to submit times; use a time relative to the log's start "
                                "such as +3d, +12h, +3600",
                                text));

  const std::string zone = tz_value(header);
  const ScopedTimeZone tz(zone);
  if (const auto t = base::local_time_instant(static_cast<int>(year), static_cast<int>(month), static_cast<int>(day),
                                              static_cast<int>(hour), static_cast<int>(minute),
                                              static_cast<int>(second)))
    return *t - *header.unix_start_time;  // in a repeated hour, its first pass (the earlier instant)
  // Not shown by the clocks: a date that does not exist (Feb 30), or a time a clock change skips.
  if (!base::local_time_instant(static_cast<int>(year), static_cast<int>(month), static_cast<int>(day), 12, 0, 0))
    throw TimeError(fmt::format("bad time '{}': no such date", text));
  // A date alone is the day's start, which is not always midnight: where the clocks skip from 00:00 (Santiago,
  // Havana, Beirut) it is the first minute they show.
  if (text.size() == 10)
    for (int m = 1; m < 24 * 60; ++m)
      if (const auto t = base::local_time_instant(static_cast<int>(year), static_cast<int>(month),
                                                  static_cast<int>(day), m / 60, m % 60, 0))
        return *t - *header.unix_start_time;
  throw TimeError(fmt::format("bad time '{}': the clocks of {} skip it (at a clock change); give a time before "
                              "or after the change",
                              text, zone == "UTC0" ? "UTC" : zone));
}

std::optional<std::string> format_log_time(int64_t seconds, const swf::Header& header) {
  if (!header.unix_start_time) return std::nullopt;
  const ScopedTimeZone tz(tz_value(header));
  const auto t = static_cast<std::time_t>(*header.unix_start_time + seconds);
  std::tm tm{};
  if (localtime_r(&t, &tm) == nullptr) return std::nullopt;
  char buf[64];
  const size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %Z", &tm);
  return std::string(buf, n);
}

std::optional<std::string> format_log_time_if_known(int64_t seconds, const swf::Header& header) {
  try {
    return format_log_time(seconds, header);
  } catch (const TimeError&) {
    return std::nullopt;
  }
}

}  // namespace schedlab::trace
