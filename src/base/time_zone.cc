#include "schedlab/base/time_zone.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string_view>

namespace schedlab::base {
namespace {

std::recursive_mutex& time_zone_mutex() {
  static std::recursive_mutex m;
  return m;
}

}  // namespace

ScopedTimeZone::ScopedTimeZone(const std::string& zone) : lock_(time_zone_mutex()) {
  if (zone.empty()) return;
  if (const char* old = std::getenv("TZ")) old_ = old;
  setenv("TZ", zone.c_str(), 1);
  tzset();
  changed_ = true;
}

ScopedTimeZone::~ScopedTimeZone() {
  if (!changed_) return;
  if (old_) {
    setenv("TZ", old_->c_str(), 1);
  } else {
    unsetenv("TZ");
  }
  tzset();
}

std::optional<LocalInstants> local_time_instants(int year, int month, int day, int hour, int minute, int second) {
  std::optional<LocalInstants> found;
  // With daylight saving time assumed off, then on, then as the library guesses (a zone whose offset changed for
  // another reason than DST): each instant found is kept if the clocks really show the time asked for then.
  for (const int isdst : {0, 1, -1}) {
    std::tm tm{};
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = second;
    tm.tm_isdst = isdst;
    const auto t = static_cast<int64_t>(std::mktime(&tm));
    const auto as_time_t = static_cast<std::time_t>(t);
    std::tm shown{};
    if (localtime_r(&as_time_t, &shown) == nullptr) continue;  // (-1 is also 1969-12-31 23:59:59 UTC: checked as any)
    if (shown.tm_year != year - 1900 || shown.tm_mon != month - 1 || shown.tm_mday != day || shown.tm_hour != hour ||
        shown.tm_min != minute || shown.tm_sec != second)
      continue;
    found = found ? LocalInstants{std::min(found->first, t), std::max(found->last, t)} : LocalInstants{t, t};
  }
  return found;
}

std::optional<int64_t> local_time_instant(int year, int month, int day, int hour, int minute, int second) {
  const auto found = local_time_instants(year, month, day, hour, minute, second);
  return found ? std::optional<int64_t>(found->first) : std::nullopt;
}

namespace {

constexpr int64_t kMixed = INT64_MIN;

// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's days_from_civil).
int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

bool date_exists(int year, int month, int day) {
  static constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1) return false;
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return day <= kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

}  // namespace

std::optional<LocalInstants> LocalTimes::instants(int year, int month, int day, int hour, int minute, int second) {
  if (!date_exists(year, month, day) || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 ||
      second > 59)
    return local_time_instants(year, month, day, hour, minute, second);  // what it says of such a time
  const int64_t hour_key = days_from_civil(year, month, day) * 24 + hour;
  auto it = hour_offsets_.find(hour_key);
  if (it == hour_offsets_.end()) {
    // The same offsets for the whole hour when its first and last seconds have them (clock changes are hours
    // apart): an hour shown once, or twice (both passes from end to end).
    const auto a = local_time_instants(year, month, day, hour, 0, 0);
    const auto b = local_time_instants(year, month, day, hour, 59, 59);
    const int64_t local = hour_key * 3600;
    const bool uniform = a && b && local - a->first == local + 3599 - b->first &&
                         local - a->last == local + 3599 - b->last;
    it = hour_offsets_.emplace(hour_key, uniform ? Offsets{local - a->first, local - a->last} : Offsets{kMixed, 0})
             .first;
  }
  if (it->second.first == kMixed) return local_time_instants(year, month, day, hour, minute, second);
  const int64_t local = hour_key * 3600 + minute * 60 + second;
  return LocalInstants{local - it->second.first, local - it->second.last};
}

std::optional<int64_t> LocalTimes::instant(int year, int month, int day, int hour, int minute, int second,
                                           int64_t not_before) {
  const auto found = instants(year, month, day, hour, minute, second);
  if (!found) return std::nullopt;
  return found->first >= not_before ? found->first : found->last;
}

std::string time_zone_directory() {
  const ScopedTimeZone lock("");  // getenv races with another thread's setenv of TZ: read under the same lock
  const char* dir = std::getenv("TZDIR");
  return dir != nullptr && *dir != '\0' ? dir : "/usr/share/zoneinfo";
}

namespace {

bool is_zone_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  char magic[4] = {};
  return in.read(magic, 4) && std::string_view(magic, 4) == "TZif";
}

}  // namespace

bool time_zone_in_database(const std::string& name) {
  if (name.empty() || name.front() == '/' || name.find("..") != std::string::npos) return false;
  std::error_code ec;
  const std::filesystem::path file = std::filesystem::path(time_zone_directory()) / name;
  return std::filesystem::is_regular_file(file, ec) && is_zone_file(file);
}

std::vector<std::string> time_zone_names() {
  const std::filesystem::path dir = time_zone_directory();
  std::vector<std::string> names;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().lexically_relative(dir).generic_string();
    if (it->is_directory(ec)) {
      if (name == "posix" || name == "right") it.disable_recursion_pending();  // copies of the same zones
      continue;
    }
    if (it->is_regular_file(ec) && is_zone_file(it->path())) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace schedlab::base
