#include "schedlab/analysis/runs.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <unordered_map>

#include "schedlab/trace/conventions.h"

namespace schedlab::analysis {

double fit_theta_mle(const std::map<int64_t, int64_t>& histogram, int64_t r_max) {
  if (histogram.size() < 2) return std::numeric_limits<double>::quiet_NaN();
  double n = 0, sum_log = 0;
  for (const auto& [r, c] : histogram) {
    n += static_cast<double>(c);
    sum_log += static_cast<double>(c) * std::log(static_cast<double>(r));
  }
  const double target = sum_log / n;
  std::vector<double> logs(static_cast<size_t>(r_max));
  for (int64_t r = 1; r <= r_max; ++r) logs[static_cast<size_t>(r - 1)] = std::log(static_cast<double>(r));
  const auto expected_log = [&](double theta) {  // E[ln R], decreasing in theta
    double z = 0, s = 0;
    for (const double l : logs) {
      const double p = std::exp(-theta * l);
      z += p;
      s += p * l;
    }
    return s / z;
  };
  double lo = 0.01, hi = 20;
  for (int i = 0; i < 100; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (expected_log(mid) > target) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

double fit_theta_loglog(const std::map<int64_t, int64_t>& histogram) {
  if (histogram.size() < 2) return std::numeric_limits<double>::quiet_NaN();
  std::map<int, double> bins;  // k -> runs with 2^k <= r < 2^(k+1)
  for (const auto& [r, c] : histogram) {
    int k = 0;
    while ((int64_t{2} << k) <= r) ++k;
    bins[k] += static_cast<double>(c);
  }
  std::vector<double> x, y;
  for (const auto& [k, c] : bins) {
    const double lo = std::ldexp(1.0, k), width = lo;  // [2^k, 2^(k+1)) holds 2^k integers
    x.push_back(std::log(lo * std::sqrt(2.0)));
    y.push_back(std::log(c / width));
  }
  if (x.size() < 2) return std::numeric_limits<double>::quiet_NaN();
  const double mx = std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
  const double my = std::accumulate(y.begin(), y.end(), 0.0) / static_cast<double>(y.size());
  double sxy = 0, sxx = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
  }
  return -sxy / sxx;
}

RunsResult find_runs(const std::vector<swf::Record>& records, bool match_executable) {
  RunsResult res;
  std::vector<size_t> order;
  for (size_t i = 0; i < records.size(); ++i) {
    const swf::Record& r = records[i];
    if (r.submit_time < 0) ++res.unknown_submit;
    else if (r.user_id < 0) ++res.unknown_user;
    else if (trace::job_size(r) <= 0) ++res.no_size;
    else if (match_executable && r.executable < 0) ++res.unknown_executable;
    else order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return records[a].submit_time < records[b].submit_time; });
  struct Open {
    int32_t executable = 0, size = 0;
    int64_t length = 0;
  };
  std::unordered_map<int32_t, Open> open;  // user -> current run
  const auto close = [&](const Open& run) {
    ++res.histogram[run.length];
    ++res.runs;
  };
  for (const size_t i : order) {
    const swf::Record& r = records[i];
    const int32_t exe = match_executable ? r.executable : 0;
    const int32_t size = trace::job_size(r);
    ++res.jobs;
    auto [it, fresh] = open.try_emplace(r.user_id, Open{exe, size, 1});
    if (fresh) continue;
    Open& run = it->second;
    if (run.executable == exe && run.size == size) {
      ++run.length;
    } else {
      close(run);
      run = Open{exe, size, 1};
    }
  }
  // Close the runs still open (in user order, so the result does not depend on hashing).
  std::vector<std::pair<int32_t, Open>> rest(open.begin(), open.end());
  std::sort(rest.begin(), rest.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [user, run] : rest) close(run);

  int64_t repeated = 0;
  for (const auto& [len, count] : res.histogram) {
    res.longest = std::max(res.longest, len);
    if (len >= 2) repeated += len * count;
  }
  if (res.runs > 0) {
    res.mean_length = static_cast<double>(res.jobs) / static_cast<double>(res.runs);
    res.jobs_in_repeated_share = static_cast<double>(repeated) / static_cast<double>(res.jobs);
  }
  res.r_max = std::max<int64_t>(1000, res.longest);
  res.theta_mle = fit_theta_mle(res.histogram, res.r_max);
  res.theta_loglog = fit_theta_loglog(res.histogram);
  return res;
}

std::vector<RunLengthGroup> run_length_groups(const RunsResult& r) {
  std::vector<RunLengthGroup> out;
  for (int64_t lo = 1; lo <= r.longest; lo *= 2) {
    RunLengthGroup g{lo, lo * 2 - 1, 0};
    for (auto it = r.histogram.lower_bound(g.from); it != r.histogram.end() && it->first <= g.to; ++it)
      g.runs += it->second;
    out.push_back(g);
  }
  return out;
}

}  // namespace schedlab::analysis
