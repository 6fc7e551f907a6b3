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
