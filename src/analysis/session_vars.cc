#include "schedlab/analysis/session_vars.h"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <stdexcept>
#include <string>

#include <fmt/core.h>

#include "schedlab/base/time_zone.h"
#include "schedlab/analysis/distribution.h"
#include "schedlab/trace/conventions.h"
#include "schedlab/trace/log_time.h"

namespace schedlab::analysis {
namespace {

constexpr int64_t kDay = 86400;
constexpr int64_t kDayStart = 7 * 3600 + 1800, kDayEnd = 17 * 3600 + 1800;

int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// 1970-01-01 was a Thursday: weekday index 0 = Monday.
int weekday(int64_t local) { return static_cast<int>(((floor_div(local, kDay) + 3) % 7 + 7) % 7); }

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return quantile_sorted(v, 0.5);
}
double interval_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return quantile_sorted(v, 0.95) - quantile_sorted(v, 0.05);
}
// Values more than 5% above the previous unique one, in integers: x * 100 > last * 105 exactly (on the sizes scaled
// to 128 processors in floating point, 189 after 180 on a 430-processor machine, exactly 5% above, counted as
// new on the last bit of a product). The count does not depend on the scale: it is taken on the log's own whole
// numbers.
double unique_count(std::vector<int64_t> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  int64_t last = v.front();
  int n = 1;
  for (const int64_t x : v)
    if (x * 100 > last * 105) {
      ++n;
      last = x;
    }
  return n;
}

}  // namespace

bool is_daytime(int64_t local) {
  const int64_t s = local - floor_div(local, kDay) * kDay;
  return s >= kDayStart && s < kDayEnd;
}
bool is_workday(int64_t local) { return weekday(local) < 5; }

double daytime_share(int64_t a, int64_t b) {
  if (b <= a) return is_daytime(a) ? 1.0 : 0.0;
  int64_t in = 0;
  for (int64_t d = floor_div(a, kDay); d <= floor_div(b, kDay); ++d) {
    const int64_t lo = std::max(a, d * kDay + kDayStart), hi = std::min(b, d * kDay + kDayEnd);
    if (hi > lo) in += hi - lo;
  }
  return static_cast<double>(in) / static_cast<double>(b - a);
}

double workday_share(int64_t a, int64_t b) {
  if (b <= a) return is_workday(a) ? 1.0 : 0.0;
  int64_t in = 0;
  for (int64_t d = floor_div(a, kDay); d <= floor_div(b, kDay); ++d) {
    if (weekday(d * kDay) >= 5) continue;
    const int64_t lo = std::max(a, d * kDay), hi = std::min(b, (d + 1) * kDay);
    if (hi > lo) in += hi - lo;
  }
  return static_cast<double>(in) / static_cast<double>(b - a);
}

std::vector<int64_t> utc_offsets(const swf::Header& header, const std::vector<int64_t>& times) {
  if (!header.unix_start_time)
    throw std::invalid_argument(fmt::format(
        "the log's header has no UnixStartTime: day/night and weekday/weekend need it ({})", trace::kAddUnixStartTime));
  const std::string zone = trace::log_time_zone(header);
  // An unknown name would be read as UTC by the C library, and every local time would be off in silence.
  if (!trace::time_zone_known(header))
    throw trace::TimeError(fmt::format("the log's TimeZoneString '{}' is not in the time zone database: local "
                                       "times (day/night, weekday/weekend) need it; correct the header, or remove "
                                       "the line to read the log in UTC",
                                       zone));
  std::vector<int64_t> out;
  out.reserve(times.size());
  const base::ScopedTimeZone in_zone(zone);
  for (const int64_t t : times) {
    const auto epoch = static_cast<std::time_t>(*header.unix_start_time + t);
    std::tm tm{};
    out.push_back(localtime_r(&epoch, &tm) ? static_cast<int64_t>(tm.tm_gmtoff) : 0);
  }
  return out;
}

std::vector<SessionRow> session_variables(const std::vector<swf::Record>& records, const swf::Header& header,
                                          const std::vector<trace::Session>& sessions, int64_t machine_procs) {
  if (machine_procs <= 0) throw std::invalid_argument("session_variables: the machine size must be positive");
  std::vector<int64_t> starts;
  starts.reserve(sessions.size());
  for (const auto& s : sessions) starts.push_back(s.start);
  const std::vector<int64_t> offsets = utc_offsets(header, starts);
  const double scale = 128.0 / static_cast<double>(machine_procs);
  std::vector<SessionRow> rows;
  rows.reserve(sessions.size());
  for (size_t k = 0; k < sessions.size(); ++k) {
    const trace::Session& s = sessions[k];
    std::vector<double> run, par, ia, think;
    std::vector<int64_t> runtimes, sizes;  // whole seconds and processors, for the unique counts
    for (size_t i = 0; i < s.jobs.size(); ++i) {
      const swf::Record& r = records[s.jobs[i]];
      runtimes.push_back(std::max(r.run_time, 0));
      sizes.push_back(std::max(trace::job_size(r), 0));
      run.push_back(static_cast<double>(runtimes.back()));
      par.push_back(static_cast<double>(sizes.back()) * scale);
      if (i > 0) {
        const swf::Record& p = records[s.jobs[i - 1]];
        ia.push_back(r.submit_time - p.submit_time);
        think.push_back(static_cast<double>(r.submit_time - trace::recorded_end(p)));
      }
    }
    SessionRow row{};
    row[kJ] = static_cast<double>(s.jobs.size());
    row[kD] = static_cast<double>(s.end - s.start);
    row[kRm] = median_of(run);
    row[kRi] = interval_of(run);
    row[kPm] = median_of(par);
    row[kPi] = interval_of(par);
    row[kIm] = median_of(ia);
    row[kIi] = interval_of(ia);
    row[kTm] = median_of(think);
    row[kTi] = interval_of(think);
    row[kUP] = unique_count(std::move(sizes));
    row[kUR] = unique_count(std::move(runtimes));
    const int64_t local_start = *header.unix_start_time + s.start + offsets[k];
    const int64_t local_end = *header.unix_start_time + s.end + offsets[k];
    row[kSD] = is_daytime(local_start) ? 1 : 0;
    row[kPD] = daytime_share(local_start, local_end);
    row[kSW] = is_workday(local_start) ? 1 : 0;
    row[kPW] = workday_share(local_start, local_end);
    rows.push_back(row);
  }
  return rows;
}

}  // namespace schedlab::analysis
