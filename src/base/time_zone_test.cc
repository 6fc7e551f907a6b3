// base::ScopedTimeZone: TZ set and restored, and two threads converting in two zones at once each see their own.
#include "schedlab/base/time_zone.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

namespace schedlab::base {
namespace {

// The UTC offset at 2026-01-15 12:00 UTC in the current TZ.
long january_offset() {
  const std::time_t t = 1768478400;
  std::tm tm{};
  return localtime_r(&t, &tm) != nullptr ? tm.tm_gmtoff : -1;
}

TEST(ScopedTimeZone, SetsAndRestoresTz) {
  setenv("TZ", "UTC0", 1);
  tzset();
  {
    const ScopedTimeZone outer("Europe/Stockholm");
    EXPECT_EQ(january_offset(), 3600);
    {
      const ScopedTimeZone inner("America/New_York");  // nests in one thread
      EXPECT_EQ(january_offset(), -18000);
    }
    EXPECT_EQ(january_offset(), 3600);
    const ScopedTimeZone keep("");  // no zone: TZ as it is
    EXPECT_EQ(january_offset(), 3600);
  }
  EXPECT_STREQ(std::getenv("TZ"), "UTC0");
  EXPECT_EQ(january_offset(), 0);
  unsetenv("TZ");
  { const ScopedTimeZone s("Asia/Tokyo"); }
  EXPECT_EQ(std::getenv("TZ"), nullptr);  // unset before, unset after
  tzset();
}

// The database holds zone files; a name it does not hold (the C library's silent UTC), a path out of it or a file
// of it that is not a zone is not one.
TEST(TimeZoneDatabase, HoldsZonesByName) {
  for (const char* zone : {"UTC", "Europe/Stockholm", "America/Argentina/Buenos_Aires", "EST5EDT", "Etc/GMT-14"})
    EXPECT_TRUE(time_zone_in_database(zone)) << zone;
  for (const char* name : {"", "Mars/Olympus", "Europe/Stokholm", "/etc/localtime", "/usr/share/zoneinfo/UTC",
                           "Europe/../UTC", "zone.tab", "Europe", "CET-1CEST,M3.5.0,M10.5.0/3"})
    EXPECT_FALSE(time_zone_in_database(name)) << name;
  const std::vector<std::string> names = time_zone_names();
  EXPECT_GT(names.size(), 300u);
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  for (const char* zone : {"UTC", "Europe/Stockholm", "Asia/Tokyo"})
    EXPECT_TRUE(std::binary_search(names.begin(), names.end(), zone)) << zone;
  for (const char* other : {"zone.tab", "posix/Europe/Stockholm", "right/UTC", "iso3166.tab"})
    EXPECT_FALSE(std::binary_search(names.begin(), names.end(), other)) << other;
}

// Berlin's clock changes of 2026: 29 Mar 02:00 CET -> 03:00 CEST (02:xx skipped), 25 Oct 03:00 CEST -> 02:00 CET
// (02:xx shown twice: the first pass, CEST, is taken). mktime alone gave the pass nearest the time it converted
// before (checked below: the answer changed with the call before it).
TEST(LocalTimeInstant, ClockChanges) {
  const ScopedTimeZone berlin("Europe/Berlin");
  EXPECT_EQ(local_time_instant(2026, 10, 25, 2, 30, 0), 1792888200);  // 00:30 UTC
  EXPECT_EQ(local_time_instant(2026, 10, 25, 3, 0, 0), 1792893600);   // 02:00 UTC, CET
  EXPECT_EQ(local_time_instant(2026, 3, 29, 1, 59, 59), 1774745999);
  EXPECT_EQ(local_time_instant(2026, 3, 29, 3, 0, 0), 1774746000);
  EXPECT_FALSE(local_time_instant(2026, 3, 29, 2, 30, 0).has_value());
  EXPECT_FALSE(local_time_instant(2026, 2, 29, 12, 0, 0).has_value());  // no such date
  EXPECT_FALSE(local_time_instant(2026, 1, 1, 12, 0, 60).has_value());
  const auto both = local_time_instants(2026, 10, 25, 2, 30, 0);
  ASSERT_TRUE(both.has_value());
  EXPECT_EQ(both->last, 1792891800);  // 01:30 UTC, CET
  // A time known to come earlier picks the pass: the first unless it is before it.
  LocalTimes local;
  EXPECT_EQ(local.instant(2026, 10, 25, 2, 30, 0, 1792888000), 1792888200);
  EXPECT_EQ(local.instant(2026, 10, 25, 2, 30, 0, 1792888201), 1792891800);
  EXPECT_EQ(local.instant(2026, 10, 25, 4, 0, 0, 1792899999), 1792893600 + 3600);  // shown once: that one
  const auto guess = [](int hour_before) {  // what mktime says of 02:30 after converting another time
    std::tm before{};
    before.tm_year = 126, before.tm_mon = 9, before.tm_mday = 25, before.tm_hour = hour_before, before.tm_isdst = -1;
    (void)std::mktime(&before);
    std::tm tm{};
    tm.tm_year = 126, tm.tm_mon = 9, tm.tm_mday = 25, tm.tm_hour = 2, tm.tm_min = 30, tm.tm_isdst = -1;
    return std::mktime(&tm);
  };
  EXPECT_NE(guess(1), guess(4));  // the reason for local_time_instant: if this fails, the C library changed
  for (const int hour_before : {1, 4}) {
    (void)guess(hour_before);
    EXPECT_EQ(local_time_instant(2026, 10, 25, 2, 30, 0), 1792888200) << hour_before;
  }
}

// LocalTimes (an offset per hour) against local_time_instant (mktime three ways) over 2026: every 97th minute, and
// the days of a clock change minute by minute, in zones with whole-hour, half-hour and 45-minute offsets, a
// half-hour daylight saving time (Lord Howe), a change at midnight (Santiago) and none (Kathmandu, UTC).
TEST(LocalTimes, AgreeWithLocalTimeInstant) {
  for (const char* zone :
       {"Europe/Berlin", "Australia/Lord_Howe", "America/St_Johns", "America/Santiago", "Asia/Kathmandu", "UTC"}) {
    const ScopedTimeZone in_zone(zone);
    LocalTimes local;
    int64_t skipped = 0, change_days = 0;
    int64_t repeated = 0;
    const auto check = [&](int y, int mo, int d, int h, int mi, int s) {
      const auto expected = local_time_instants(y, mo, d, h, mi, s);
      const auto got = local.instants(y, mo, d, h, mi, s);
      ASSERT_EQ(got.has_value(), expected.has_value()) << zone << " " << y << "-" << mo << "-" << d << " " << h;
      if (!expected) {
        ++skipped;
        return;
      }
      ASSERT_EQ(got->first, expected->first) << zone << " " << y << "-" << mo << "-" << d << " " << h << ":" << mi;
      ASSERT_EQ(got->last, expected->last) << zone << " " << y << "-" << mo << "-" << d << " " << h << ":" << mi;
      if (expected->last != expected->first) ++repeated;
    };
    static constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    for (int mo = 1; mo <= 12; ++mo)
      for (int d = 1; d <= kDays[mo - 1]; ++d) {
        // A clock change that day: its midnight or the next is skipped, or they are not 86,400 s apart.
        const bool last_day = d == kDays[mo - 1];
        const auto midnight = local_time_instant(2026, mo, d, 0, 0, 0);
        const auto next = local_time_instant(mo == 12 && last_day ? 2027 : 2026, last_day ? mo % 12 + 1 : mo,
                                             last_day ? 1 : d + 1, 0, 0, 0);
        const bool change = !midnight || !next || *next - *midnight != 86400;
        change_days += change ? 1 : 0;
        for (int m = change ? 0 : (mo * 31 + d) % 97; m < 24 * 60; m += change ? 1 : 97)
          check(2026, mo, d, m / 60, m % 60, (m * 13) % 60);
      }
    check(2026, 2, 30, 12, 0, 0);  // no such date, either way
    const bool has_dst = std::string(zone) != "UTC" && std::string(zone) != "Asia/Kathmandu";
    EXPECT_EQ(change_days >= 2, has_dst) << zone << " " << change_days;  // (a skipped midnight counts two days)
    EXPECT_EQ(skipped > 1, has_dst) << zone << " " << skipped;  // the skipped and repeated times were met
    EXPECT_EQ(repeated > 1, has_dst) << zone << " " << repeated;
  }
}

// Without the lock, one thread's TZ reached the other's conversions (on two cores, within a few hundred rounds).
TEST(ScopedTimeZone, TwoThreadsEachSeeTheirOwnZone) {
  std::atomic<int> wrong{0};
  const auto convert = [&](const char* zone, long expected) {
    for (int i = 0; i < 2000; ++i) {
      const ScopedTimeZone in_zone(zone);
      if (january_offset() != expected) ++wrong;
    }
  };
  std::thread a(convert, "Europe/Stockholm", 3600L), b(convert, "America/New_York", -18000L);
  a.join();
  b.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace schedlab::base
