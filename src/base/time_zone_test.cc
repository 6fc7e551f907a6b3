// base::ScopedTimeZone: TZ set and restored, and two threads converting in two zones at once each see their own.
#include "schedlab/base/time_zone.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <ctime>
#include <string>
#include <thread>

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
