#include "schedlab/trace/log_time.h"

#include <gtest/gtest.h>

namespace schedlab::trace {
namespace {

// KTH: UnixStartTime 843480031 = Mon Sep 23 14:00:31 CEST 1996 (12:00:31 UTC).
swf::Header kth_header() {
  swf::Header h;
  h.unix_start_time = 843480031;
  h.time_zone_string = "Europe/Stockholm";
  return h;
}

TEST(LogTime, RelativeForms) {
  const swf::Header none;  // relative times need no UnixStartTime
  EXPECT_EQ(parse_log_time("+3600", none), 3600);
  EXPECT_EQ(parse_log_time("+0", none), 0);
  EXPECT_EQ(parse_log_time("+90s", none), 90);
  EXPECT_EQ(parse_log_time("+5m", none), 300);
  EXPECT_EQ(parse_log_time("+12h", none), 43200);
  EXPECT_EQ(parse_log_time("+3d", none), 259200);
  EXPECT_EQ(parse_log_time("+2w", none), 1209600);
  // The duration rule of every other option (base/duration.h): fractions and compound forms.
  EXPECT_EQ(parse_log_time("+1.5d", none), 129600);
  EXPECT_EQ(parse_log_time("+1d12h", none), 129600);
}

TEST(LogTime, BadRelativeForms) {
  const swf::Header none;
  EXPECT_THROW(parse_log_time("+", none), TimeError);
  EXPECT_THROW(parse_log_time("+d", none), TimeError);
  EXPECT_THROW(parse_log_time("+3x", none), TimeError);
  EXPECT_THROW(parse_log_time("+-3", none), TimeError);
  EXPECT_THROW(parse_log_time("+ 3d", none), TimeError);
  EXPECT_THROW(parse_log_time("+99999999999999999999w", none), TimeError);  // beyond 2^53 s, no overflow
  EXPECT_THROW(parse_log_time("yesterday", none), TimeError);
}

TEST(LogTime, DatesInTheLogsTimeZone) {
  const swf::Header h = kth_header();
  EXPECT_EQ(parse_log_time("1996-09-23T14:00:31", h), 0);
  EXPECT_EQ(parse_log_time("1996-09-23 14:00:31", h), 0);
  EXPECT_EQ(parse_log_time("1996-09-23T15:00", h), 3569);
  // midnight Sep 24 CEST is 9:59:29 after the start
  EXPECT_EQ(parse_log_time("1996-09-24", h), 9 * 3600 + 59 * 60 + 29);
  // after the switch to CET (27 Oct 1996): 28 Oct 00:00 CET = 27 Oct 23:00 UTC,
  // 34 days 10:59:29 after 23 Sep 12:00:31 UTC
  EXPECT_EQ(parse_log_time("1996-10-28", h), 34 * 86400 + 10 * 3600 + 59 * 60 + 29);
  // before the start is allowed (negative)
  EXPECT_EQ(parse_log_time("1996-09-23T14:00:30", h), -1);
}

TEST(LogTime, UtcWithoutTimeZoneString) {
  swf::Header h;
  h.unix_start_time = 0;
  EXPECT_EQ(parse_log_time("1970-01-02", h), 86400);
  EXPECT_EQ(log_time_zone(h), "UTC");
  EXPECT_EQ(format_log_time(86400 + 3661, h).value(), "1970-01-02 01:01:01 UTC");
}

TEST(LogTime, DatesNeedUnixStartTime) {
  const swf::Header none;
  try {
    parse_log_time("1996-10-01", none);
    FAIL() << "expected TimeError";
  } catch (const TimeError& e) {
    EXPECT_NE(std::string(e.what()).find("UnixStartTime"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(format_log_time(0, none).has_value());
}

TEST(LogTime, BadDates) {
  const swf::Header h = kth_header();
  EXPECT_THROW(parse_log_time("1996-13-01", h), TimeError);
  EXPECT_THROW(parse_log_time("1996-02-30", h), TimeError);
  EXPECT_THROW(parse_log_time("1996-9-1", h), TimeError);
  EXPECT_THROW(parse_log_time("1996-09-01T25:00", h), TimeError);
  EXPECT_THROW(parse_log_time("1996-09-01T10", h), TimeError);
  EXPECT_THROW(parse_log_time("1996-09-01X10:00", h), TimeError);
  EXPECT_THROW(parse_log_time("", h), TimeError);
}

// The clock changes of 1996 in Stockholm: 31 Mar 02:00 CET -> 03:00 CEST, 27 Oct 03:00 CEST -> 02:00 CET. A time
// shown twice is its first pass (mktime's guess took the second: a --from of 02:30 left out the first half hour);
// a time never shown is refused (mktime moved it by an hour without a word); "1970-01-01 00:59:59" in Stockholm is
// epoch -1, mktime's error value.
TEST(LogTime, ClockChanges) {
  swf::Header h = kth_header();
  h.unix_start_time = 0;
  EXPECT_EQ(parse_log_time("1996-10-27T02:30", h), 846376200);  // 00:30 UTC, CEST; the CET pass is 01:30 UTC
  EXPECT_EQ(parse_log_time("1996-10-27T01:59:59", h), 846374399);
  EXPECT_EQ(parse_log_time("1996-10-27T03:00", h), 846381600);  // 02:00 UTC, CET
  EXPECT_EQ(parse_log_time("1996-03-31T01:59:59", h), 828233999);
  EXPECT_EQ(parse_log_time("1996-03-31T03:00", h), 828234000);
  try {
    parse_log_time("1996-03-31T02:30", h);
    FAIL() << "expected TimeError";
  } catch (const TimeError& e) {
    EXPECT_EQ(std::string(e.what()), "bad time '1996-03-31T02:30': the clocks of Europe/Stockholm skip it (at a clock "
                                     "change); give a time before or after the change");
  }
  EXPECT_EQ(parse_log_time("1970-01-01T00:59:59", h), -1);
  // A date alone is the day's start: where the clocks skip from midnight to 01:00 (Santiago, 6 Sep 2026), 01:00.
  swf::Header santiago = h;
  santiago.time_zone_string = "America/Santiago";
  EXPECT_EQ(parse_log_time("2026-09-06", santiago), parse_log_time("2026-09-06T01:00", santiago));
  EXPECT_EQ(parse_log_time("2026-09-06T01:00", santiago), 1788667200);  // 04:00 UTC (-03)
  EXPECT_THROW(parse_log_time("2026-09-06T00:30", santiago), TimeError);
  try {
    parse_log_time("1996-02-30", h);
    FAIL() << "expected TimeError";
  } catch (const TimeError& e) {
    EXPECT_EQ(std::string(e.what()), "bad time '1996-02-30': no such date");
  }
}

TEST(LogTime, UnknownZoneIsAnError) {
  swf::Header h = kth_header();
  h.time_zone_string = "Mars/Olympus_Mons";
  EXPECT_THROW(parse_log_time("1996-10-01", h), TimeError);
}

TEST(LogTime, FormatInTheLogsZone) {
  const swf::Header h = kth_header();
  EXPECT_EQ(format_log_time(0, h).value(), "1996-09-23 14:00:31 CEST");
  EXPECT_EQ(format_log_time(34 * 86400 + 10 * 3600 + 59 * 60 + 29, h).value(), "1996-10-28 00:00:00 CET");
}

}  // namespace
}  // namespace schedlab::trace
