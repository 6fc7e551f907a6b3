#include "schedlab/base/time_zone.h"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>


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

std::optional<int64_t> local_time_instant(int year, int month, int day, int hour, int minute, int second) {
  std::optional<int64_t> first;
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
    const std::time_t t = std::mktime(&tm);
    std::tm shown{};
    if (localtime_r(&t, &shown) == nullptr) continue;  // (-1 is also 1969-12-31 23:59:59 UTC: checked as any)
    if (shown.tm_year != year - 1900 || shown.tm_mon != month - 1 || shown.tm_mday != day || shown.tm_hour != hour ||
        shown.tm_min != minute || shown.tm_sec != second)
      continue;
    if (!first || static_cast<int64_t>(t) < *first) first = static_cast<int64_t>(t);
  }
  return first;
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
