#include "schedlab/base/time_zone.h"

#include <cstdlib>
#include <ctime>

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

}  // namespace schedlab::base
