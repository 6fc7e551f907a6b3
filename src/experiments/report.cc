#include "schedlab/experiments/report.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include <fmt/core.h>
#include <fmt/ranges.h>

#include "schedlab/analysis/attribute.h"
#include "schedlab/analysis/locality.h"
#include "schedlab/analysis/session_vars.h"
#include "schedlab/analysis/summary.h"
#include "schedlab/base/count_text.h"
#include "schedlab/base/csv_field.h"
#include "schedlab/base/csv_number.h"
#include "schedlab/base/nearest.h"
#include "schedlab/base/threads.h"
#include "schedlab/experiments/compare.h"
#include "schedlab/experiments/log_summary.h"
#include "schedlab/experiments/results_json.h"
#include "schedlab/experiments/session_study.h"
#include "schedlab/experiments/simulation.h"
#include "schedlab/experiments/sweep.h"
#include "schedlab/model/estimate_bins.h"
#include "schedlab/trace/conventions.h"
#include "schedlab/trace/flurries.h"
#include "schedlab/trace/id_names.h"
#include "schedlab/trace/log_time.h"
#include "schedlab/workload/workload.h"

namespace schedlab::experiments {
namespace {

using json = nlohmann::json;

// The parameters of a sweep's row, in the order tried for the x axis.
const std::vector<std::string> kSweepParameters = {
    "load",     "arrival_scale",    "procs",            "estimate_model",  "predictor", "correction",
    "bsld_tau", "warmup_fraction",  "kill_at_estimate", "extend_estimates", "feedback",  "log",       "scheduler",
    "seed"};

json number(double v) { return std::isfinite(v) ? json(v) : json(); }

// Log-spaced histogram: 4 bins per decade from 1 (values below 1 in a first bin [0, 1)).
json log_histogram(const std::vector<double>& values) {
  std::map<int, int64_t> bins;  // k: [10^(k/4), 10^((k+1)/4)); -1: [0, 1)
  for (double v : values) {
    if (!(v >= 0)) continue;
    const int k = v < 1 ? -1 : static_cast<int>(std::floor(std::log10(v) * 4 + 1e-9));
    ++bins[k];
  }
  json out = json::array();
  for (const auto& [k, n] : bins) {
    const double lo = k < 0 ? 0 : std::pow(10.0, k / 4.0), hi = std::pow(10.0, (k + 1) / 4.0);
    out.push_back({{"lo", lo}, {"hi", hi}, {"jobs", n}});
  }
  return out;
}

json pow2_histogram(const std::vector<double>& values) {
  std::map<int, int64_t> bins;  // k: [2^k, 2^(k+1))
  for (double v : values)
    if (v >= 1) ++bins[static_cast<int>(std::floor(std::log2(v) + 1e-12))];
  json out = json::array();
  for (const auto& [k, n] : bins)
    out.push_back({{"lo", std::ldexp(1.0, k)}, {"hi", std::ldexp(1.0, k + 1)}, {"jobs", n}});
  return out;
}

// The time bin of the series over time: the smallest of 1, 2, 3, 6, 12 hours, 1, 2 days, 1, 2, 4 weeks that
// leaves at most 600 bins (the page stays small: 1 MB for a two-year log).
int64_t bin_width(int64_t span) {
  for (const int64_t hours : {1, 2, 3, 6, 12, 24, 48, 168, 336, 672})
    if (span / (hours * 3600) < 600) return hours * 3600;
  return (span / 600 / 86400 + 1) * 86400;
}

// Time-averaged level of +/- steps (time, delta) over bins of `width` from `origin`: sum of level x overlap / width.
std::vector<double> binned_level(std::vector<std::pair<int64_t, double>> steps, int64_t origin, int64_t width,
                                 size_t bins) {
  std::sort(steps.begin(), steps.end());
  std::vector<double> area(bins, 0.0);
  double level = 0;
  int64_t t = origin;
  const int64_t end = origin + width * static_cast<int64_t>(bins);
  const auto add = [&](int64_t from, int64_t to) {  // level over [from, to)
    while (from < to && from < end) {
      const auto b = static_cast<size_t>((from - origin) / width);
      const int64_t bin_end = origin + width * static_cast<int64_t>(b + 1);
      const int64_t stop = std::min(to, bin_end);
      area[b] += level * static_cast<double>(stop - from);
      from = stop;
    }
  };
  for (const auto& [time, delta] : steps) {
    const int64_t at = std::max(time, origin);
    if (at > t) add(t, at);
    t = std::max(t, at);
    level += delta;
  }
  add(t, end);
  for (double& a : area) a /= static_cast<double>(width);
  return area;
}

json workload_section(const swf::Log& log, const ReportOptions& o, const analysis::Summary& sum) {
  json w;
  const int64_t procs = sum.machine.procs;
  // Jobs and load per time bin.
  const int64_t first = sum.first_submit, span = std::max<int64_t>(1, sum.last_submit - sum.first_submit);
  const int64_t width = bin_width(span);
  const auto bins = static_cast<size_t>(span / width + 1);
  std::vector<int64_t> jobs(bins, 0);
  std::vector<double> work(bins, 0);
  for (const auto& r : log.records) {
    if (r.submit_time < 0) continue;
    const auto b = static_cast<size_t>((r.submit_time - first) / width);
    ++jobs[b];
    if (r.run_time > 0 && trace::job_size(r) > 0) work[b] += static_cast<double>(r.run_time) * trace::job_size(r);
  }
  json series = json::array();
  for (size_t b = 0; b < bins; ++b)
    series.push_back({{"day", static_cast<double>(first + static_cast<int64_t>(b) * width) / 86400.0},
                      {"jobs", jobs[b]},
                      {"load", work[b] / (static_cast<double>(procs) * static_cast<double>(width))}});
  w["bin_hours"] = width / 3600;
  w["over_time"] = series;
  // Cycles in local time.
  std::vector<int64_t> times;
  for (const auto& r : log.records)
    if (r.submit_time >= 0) times.push_back(r.submit_time);
  std::vector<int64_t> offsets(times.size(), 0);
  const bool zone_known = trace::time_zone_known(log.header);  // else the cycles are in UTC, and the page says so
  if (log.header.unix_start_time && zone_known) offsets = analysis::utc_offsets(log.header, times);
  const int64_t start = log.header.unix_start_time.value_or(0);
  std::array<int64_t, 24> hours{};
  std::array<int64_t, 7> days{};
  for (size_t i = 0; i < times.size(); ++i) {
    const int64_t local = start + times[i] + offsets[i];
    const int64_t day = local >= 0 ? local / 86400 : (local - 86399) / 86400;
    ++hours[static_cast<size_t>(((local % 86400) + 86400) % 86400 / 3600)];
    ++days[static_cast<size_t>(((day + 3) % 7 + 7) % 7)];  // 1970-01-01 was a Thursday: Monday = 0
  }
  static const char* kDays[] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
  w["local_time"] = !log.header.unix_start_time ? "UTC (no UnixStartTime)"
                    : !zone_known ? "UTC (TimeZoneString '" + *log.header.time_zone_string + "' is not in the time zone database)"
                                  : log.header.time_zone_string.value_or("UTC");
  w["hour_of_day"] = json::array();
  for (int h = 0; h < 24; ++h) w["hour_of_day"].push_back({{"hour", h}, {"jobs", hours[static_cast<size_t>(h)]}});
  w["day_of_week"] = json::array();
  for (int d = 0; d < 7; ++d) w["day_of_week"].push_back({{"day", kDays[d]}, {"order", d}, {"jobs", days[static_cast<size_t>(d)]}});
  // Distributions.
  w["distributions"] = {
      {"runtime", log_histogram(analysis::attribute_series(log.records, analysis::Attribute::kRuntime).values)},
      {"interarrival", log_histogram(analysis::attribute_series(log.records, analysis::Attribute::kInterarrival).values)},
      {"size", pow2_histogram(analysis::attribute_series(log.records, analysis::Attribute::kProcs).values)}};
  std::vector<double> estimates, ratio;
  for (const auto& r : log.records) {
    if (!trace::has_estimate(r)) continue;
    estimates.push_back(r.requested_time);
    if (r.run_time >= 0) ratio.push_back(static_cast<double>(r.run_time) / r.requested_time);
  }
  w["distributions"]["estimate"] = log_histogram(estimates);
  json acc = json::array();
  std::array<int64_t, 21> acc_bins{};
  for (double x : ratio) acc_bins[x > 1 ? 20 : std::min<size_t>(19, static_cast<size_t>(x * 20))]++;
  for (size_t b = 0; b < 21; ++b)
    acc.push_back({{"lo", b < 20 ? static_cast<double>(b) * 0.05 : 1.0}, {"label", b < 20 ? fmt::format("{:.2f}", static_cast<double>(b) * 0.05) : "> 1"},
                   {"jobs", acc_bins[b]}});
  w["estimate_accuracy"] = acc;
  json popular = json::array();
  if (!estimates.empty()) {
    const model::EstimateBins eb = model::estimate_bins(log.records);
    for (size_t i = 0; i < eb.modes.size() && i < 10; ++i)
      popular.push_back({{"estimate", eb.modes[i].value}, {"jobs", eb.modes[i].jobs}, {"share", eb.modes[i].share}});
  }
  w["popular_estimates"] = popular;
  // Locality of sampling per slice.
  const auto rt = analysis::attribute_series(log.records, analysis::Attribute::kRuntime);
  try {
    analysis::LocalityOptions lo;
    lo.rounds = o.locality_rounds;
    lo.threads = o.threads;
    const analysis::LocalityResult loc = analysis::locality(rt.times, rt.values, lo);
    json slices = json::array();
    for (const auto& s : loc.slices)
      if (s.usable) slices.push_back({{"day", static_cast<double>(s.start) / 86400.0}, {"m", s.m}});
    w["locality"] = {{"attribute", "runtime"},       {"slice_days", 3},  {"slices", slices},
                     {"m_med", loc.m_med_prime},      {"baseline", loc.g_med}, {"baseline_p95", loc.boot_med_p95}};
  } catch (const std::invalid_argument&) {
    w["locality"] = nullptr;  // too few jobs for a usable slice, or one slice holding them all (a short log)
  }
  // Users' share.
  std::map<int32_t, int64_t> per_user;
  for (const auto& r : log.records)
    if (r.user_id >= 0) ++per_user[r.user_id];
  std::vector<std::pair<int64_t, int32_t>> users;
  for (const auto& [u, n] : per_user) users.emplace_back(n, u);
  std::sort(users.begin(), users.end(), [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  json top = json::array();
  int64_t others = 0;
  // A log converted from sacct names its users (trace/id_names.h): "user 7 (alice)".
  const auto names = trace::header_names_by_id(log.header, "users");
  const auto label = [&names](int32_t u) {
    return names.contains(u) ? fmt::format("user {} ({})", u, trace::name_of(names, u)) : fmt::format("user {}", u);
  };
  for (size_t i = 0; i < users.size(); ++i) {
    if (i < 20) top.push_back({{"user", label(users[i].second)}, {"rank", i + 1}, {"jobs", users[i].first}});
    else others += users[i].first;
  }
  if (others > 0)
    top.push_back({{"user", base::counted(static_cast<int64_t>(users.size() - 20), "other")}, {"rank", 21},
                   {"jobs", others}});
  w["users"] = top;
  w["user_count"] = users.size();
  // Flurries.
  json fl = json::array();
  if (!per_user.empty()) {
    for (const auto& f : trace::find_flurries(log.records, {}))
      fl.push_back({{"user", names.empty() ? json(f.user) : json(label(f.user))},
                    {"day", static_cast<double>(f.week_start) / 86400.0},
                    {"jobs", f.jobs}});
  }
  w["flurries"] = fl;
  // Session and user classes.
  w["classes"] = nullptr;
  if (log.header.unix_start_time && !per_user.empty()) {
    SessionStudyOptions so;
    so.classify = true;
    try {
      const SessionStudy st = run_session_study({{o.title, log}}, so);
      json sc = json::array(), uc = json::array();
      for (int c = 0; c < analysis::kSessionClasses; ++c)
        sc.push_back({{"class", std::string(analysis::session_class_name(static_cast<analysis::SessionClass>(c)))},
                      {"share", static_cast<double>(st.session_classes.counts[static_cast<size_t>(c)]) /
                                    static_cast<double>(std::max<int64_t>(1, st.sessions))}});
      for (int c = 0; c < analysis::kUserClasses; ++c)
        uc.push_back({{"class", std::string(analysis::user_class_name(static_cast<analysis::UserClass>(c)))},
                      {"share", static_cast<double>(st.user_classes.counts[static_cast<size_t>(c)]) /
                                    static_cast<double>(std::max<int64_t>(1, st.users))}});
      w["classes"] = {{"sessions", st.sessions}, {"users", st.users}, {"session_classes", sc}, {"user_classes", uc}};
    } catch (const std::exception&) {
      // too few sessions or users to classify: the page says so
    }
  }
  return w;
}

json scheduling_section(const swf::Log& log, const ReportOptions& o) {
  CompareSpec spec;
  spec.schedulers = o.schedulers;
  spec.scheduler_objects = o.scheduler_objects;
  spec.sim = o.sim;
  spec.predictor = o.predictor;
  spec.correction = o.correction;
  spec.predictor_object = o.predictor_object;
  spec.workload = o.workload;
  spec.threads = o.threads;
  spec.by_class = o.class_limits;  // who gains and who pays (sim/job_classes.h)
  const CompareResult r = run_compare(spec, log);
  const workload::Workload wl = workload::build_workload(log.header, log.records, spec.workload);
  json s;
  s["procs"] = r.procs;
  // Scaled arrivals: the page says at what load the schedules ran, and the log's own.
  s["arrival_scale"] = wl.arrival_scale;
  s["offered_load"] = wl.offered_load;
  s["offered_load_before"] = wl.offered_load_before;
  // What `simulate` prints on its "jobs" and "note" lines: the jobs left out by reason, those without an estimate,
  // those naming a preceding job. Without it the page's schedules said nothing of the jobs they did not hold.
  s["jobs"] = wl.jobs.size();
  s["records"] = wl.records;
  s["notes"] = wl.notes;
  // As the results name it (with its correction: "ruh" and "ruh:correction=tsafrir" are different pages, and so are
  // the estimate and "estimate:correction=tsafrir"); a preset cannot be given a predictor or a correction, so every
  // result has it.
  const bool predictor_given = !o.predictor.empty() || o.predictor_object != nullptr || !o.correction.empty();
  s["predictor"] = predictor_given ? r.results.front().predictor : "estimate";
  // The page says what the averages leave out and the slowdown's threshold when they are not the defaults' (the
  // warm-up is floor(F x n) of every scheduler's n ended jobs: the same count for all).
  s["bsld_tau"] = spec.sim.bsld_tau;
  s["warmup_excluded"] = r.results.front().metrics.warmup_excluded;
  s["warnings"] = r.warnings;  // a predictor that left jobs overdue: said on the page under the section's title
  json table = json::array(), cdf = json::array(), timeline = json::array(), monthly = json::array(),
       accuracy = json::array(), by_class = json::array();
  int64_t first = INT64_MAX, last = 0;
  for (const auto& j : wl.jobs) {
    first = std::min(first, j.submit);
    last = std::max(last, j.submit);
  }
  // The timeline runs to the last job's end under any scheduler, and its bins are sized for that whole span: sized
  // for the submit span alone, a queue that drains long after the last submit (5 jobs of 2^31 s) made millions.
  int64_t end_all = last;
  for (const sim::SimResult& res : r.results)
    for (const auto& out : res.jobs)
      if (out.start >= 0) end_all = std::max(end_all, out.end);
  const int64_t width = bin_width(std::max<int64_t>(1, end_all - first));
  const auto dev_wait = r.deviations(CompareMetric::kWait), dev_bsld = r.deviations(CompareMetric::kBoundedSlowdown);
  for (size_t k = 0; k < r.names.size(); ++k) {
    const sim::SimResult& res = r.results[k];
    const auto& m = res.metrics;
    table.push_back({{"scheduler", r.names[k]},
                     {"wait_mean", m.wait.mean},
                     {"wait_median", m.wait.median},
                     {"wait_p90", m.wait.p90},
                     {"response_mean", m.response.mean},
                     {"bounded_slowdown_mean", m.bounded_slowdown.mean},
                     {"utilization", m.utilization},
                     {"backfilled_share", res.backfilled_share()},
                     {"loss_of_capacity", res.loss_of_capacity()},
                     {"jobs", m.jobs}});
    // The CDF's jobs are the averages' (the warm-up left out, as of the table's median and 90th percentile).
    std::vector<double> waits;
    for (size_t t = static_cast<size_t>(m.warmup_excluded); t < res.termination_order.size(); ++t) {
      const auto i = static_cast<size_t>(res.termination_order[t]);
      waits.push_back(static_cast<double>(res.jobs[i].start - res.submitted(wl, i)));
    }
    int64_t end = last;
    std::vector<std::pair<int64_t, double>> queue_steps, busy_steps;
    for (size_t i = 0; i < wl.jobs.size(); ++i) {
      const auto& out = res.jobs[i];
      if (out.start < 0) continue;
      const int64_t submit = res.submitted(wl, i);
      queue_steps.emplace_back(submit, 1.0);
      queue_steps.emplace_back(out.start, -1.0);
      busy_steps.emplace_back(out.start, wl.jobs[i].procs);
      busy_steps.emplace_back(out.end, -static_cast<double>(wl.jobs[i].procs));
      end = std::max(end, out.end);
    }
    std::sort(waits.begin(), waits.end());
    for (int q = 0; q <= 100 && !waits.empty(); ++q) {
      const double w = waits[std::min(waits.size() - 1, static_cast<size_t>(q / 100.0 * static_cast<double>(waits.size() - 1) + 0.5))];
      cdf.push_back({{"scheduler", r.names[k]}, {"wait", w}, {"fraction", q / 100.0}});
    }
    const auto bins = static_cast<size_t>((end - first) / width + 1);
    const auto ql = binned_level(queue_steps, first, width, bins);
    const auto busy = binned_level(busy_steps, first, width, bins);
    for (size_t b = 0; b < bins; ++b)
      timeline.push_back({{"scheduler", r.names[k]},
                          {"day", static_cast<double>(first + static_cast<int64_t>(b) * width) / 86400.0},
                          {"queue", ql[b]},
                          {"utilization", busy[b] / static_cast<double>(r.procs)}});
    for (size_t p = 0; p < r.periods.size(); ++p)
      monthly.push_back({{"scheduler", r.names[k]},
                         {"month", r.periods[p].index + 1},
                         {"wait", number(r.period_means[0][k][p])},
                         {"bsld", number(r.period_means[1][k][p])},
                         {"wait_deviation", number(dev_wait[k][p])},
                         {"bsld_deviation", number(dev_bsld[k][p])}});
    for (const sim::JobClassMetrics& c : r.by_class[k])
      by_class.push_back({{"scheduler", r.names[k]},
                          {"class", c.name},
                          {"jobs", c.jobs},
                          {"share", c.share},
                          {"wait_mean", c.wait_mean},
                          {"bounded_slowdown_mean", c.bounded_slowdown_mean}});
    if (predictor_given) {  // the estimates' accuracy is the workload section's
      json a = to_json(res.accuracy);
      a["scheduler"] = r.names[k];
      accuracy.push_back(a);
    }
  }
  s["bin_hours"] = width / 3600;
  s["summary"] = table;
  s["wait_cdf"] = cdf;
  s["timeline"] = timeline;
  s["monthly"] = monthly;
  s["accuracy"] = accuracy;
  s["by_class"] = by_class;
  s["by_class_limits"] = to_json(*spec.by_class);
  return s;
}

}  // namespace

nlohmann::json report_data(const swf::Log& log, const ReportOptions& o) {
  if (log.records.empty())
    throw std::invalid_argument(fmt::format("{}: {}", o.title, no_job_left_message("simulate", 0, {})));
  if (o.schedulers.empty()) throw std::invalid_argument("report: give at least one scheduler");
  // As simulate says it: --procs 0 excluded every job, and the page said so instead.
  if (o.workload.procs && *o.workload.procs <= 0)
    throw std::invalid_argument(fmt::format("machine size must be positive, got --procs {}", *o.workload.procs));
  base::check_threads(o.threads);
  const analysis::Summary sum = analysis::summarize(log, o.workload.procs);
  if (sum.valid_jobs == 0) {  // in simulate's words, with the reasons: the page would have had nothing to plot
    std::map<std::string, int64_t> excluded;
    for (int k = 1; k < trace::kExclusionKinds; ++k)
      if (sum.excluded[k] > 0)
        excluded[std::string(trace::exclusion_name(static_cast<trace::Exclusion>(k)))] = sum.excluded[k];
    throw std::invalid_argument(fmt::format(
        "{}: {}", o.title, no_job_left_message("simulate", static_cast<int64_t>(log.records.size()), excluded)));
  }
  json d;
  d["kind"] = "log";
  d["title"] = o.title;
  // Every "day" on the page counts from the log's time 0 (its UnixStartTime when it has one: the page shows dates).
  d["time_origin"] = log.header.unix_start_time ? json(*log.header.unix_start_time) : json();
  d["summary"] = to_json(sum, log.header);
  // Where the reader's warnings point: a line of the file, or the row of a log built in memory (a DataFrame).
  d["warnings_at"] = log.report.lines > 0 || log.records.empty() ? "line" : "row";
  d["scheduling"] = scheduling_section(log, o);  // first: an unknown scheduler fails before the long analyses
  d["workload"] = workload_section(log, o, sum);
  return d;
}

nlohmann::json sweep_report_data(const std::string& csv_text, const std::string& name, const std::string& metric,
                                 const std::string& x_in) {
  std::string text;
  try {  // the results of an earlier schedlab, in today's columns
    text = upgraded_sweep_output(csv_text, false, name);
  } catch (const SweepError&) {
    throw std::invalid_argument(fmt::format("{}: not the CSV of schedlab sweep (its header line differs)", name));
  }
  std::istringstream in(text);
  std::string header;
  if (!std::getline(in, header) || header + "\n" != sweep_csv_header())
    throw std::invalid_argument(fmt::format("{}: not the CSV of schedlab sweep (its header line differs)", name));
  const auto& cols = sweep_columns();
  const auto col = [&](const std::string& c) -> size_t {
    const auto it = std::find(cols.begin(), cols.end(), c);
    if (it == cols.end())
      throw std::invalid_argument(fmt::format("{}: no column '{}' in a sweep's results{}", name, c,
                                              base::did_you_mean(c, cols)));
    return static_cast<size_t>(it - cols.begin());
  };
  // The rows with their line numbers (empty lines skipped, a CRLF file read as LF).
  std::vector<std::vector<std::string>> rows;
  std::vector<int64_t> row_line;
  int64_t line_number = 1;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    while (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    rows.push_back(base::split_csv_line(line));
    row_line.push_back(line_number);
    if (rows.back().size() != cols.size())
      throw std::invalid_argument(
          fmt::format("{}:{}: {} fields, the header has {}", name, line_number, rows.back().size(), cols.size()));
  }
  if (rows.empty()) throw std::invalid_argument(fmt::format("{}: no result row", name));
  const size_t m = col(metric), status = col("status");
  if (std::find(kSweepParameters.begin(), kSweepParameters.end(), metric) != kSweepParameters.end() ||
      metric == "run" || metric == "status")
    throw std::invalid_argument(fmt::format("{}: '{}' is a parameter, not a metric", name, metric));
  const auto varies = [&](const std::string& c) {
    std::set<std::string> values;
    for (const auto& r : rows) values.insert(r[col(c)]);
    return values.size() > 1;
  };
  std::string x = x_in;
  json warnings = json::array();
  if (!x.empty()) {
    // A metric (or the run's number, its status) on the x axis plotted a column against another, not a result
    // against what was varied: only a parameter is one.
    if (std::find(kSweepParameters.begin(), kSweepParameters.end(), x) == kSweepParameters.end()) {
      if (std::find(cols.begin(), cols.end(), x) == cols.end())  // a typo: the nearest parameter
        throw std::invalid_argument(fmt::format("{}: no column '{}' in a sweep's results{}", name, x,
                                                base::did_you_mean(x, kSweepParameters)));
      throw std::invalid_argument(fmt::format("{}: '{}' is not a parameter of the runs: the x axis is one of {}", name,
                                              x, fmt::join(kSweepParameters, ", ")));
    }
    // One value of x is one point per line: said, with what does vary (the page is drawn all the same).
    if (!varies(x)) {
      std::vector<std::string> varying;
      for (const std::string& c : kSweepParameters)
        if (varies(c)) varying.push_back(c);
      const std::string value = rows.front()[col(x)];
      warnings.push_back(fmt::format(
          "every run of {} has the same {} ({}): the plot is one point per line; {}", name, x,
          value.empty() ? "the log's own" : value,
          varying.empty() ? std::string("no parameter varies")
                          : fmt::format("the parameters that vary: {}", fmt::join(varying, ", "))));
    }
  }
  if (x.empty()) {
    for (const std::string& c : kSweepParameters)
      if (c != "scheduler" && varies(c)) {
        x = c;
        break;
      }
    if (x.empty()) x = "scheduler";
  }
  const size_t xc = col(x);
  // One line per combination of the other parameters that vary (the scheduler, usually); seeds are averaged.
  std::vector<size_t> series_cols;
  for (const std::string& c : kSweepParameters)
    if (c != x && c != "seed" && varies(c)) series_cols.push_back(col(c));
  // An empty parameter (no load, arrival scale or machine size given: the log's own) is named, not an unlabelled
  // tick on the axis and a blank in the legend.
  const auto shown = [](const std::string& value) { return value.empty() ? std::string("log's own") : value; };
  struct Point {
    double sum = 0, lo = INFINITY, hi = -INFINITY;
    int64_t runs = 0;
  };
  std::map<std::pair<std::string, std::string>, Point> points;
  std::vector<std::string> order;  // series in order of first appearance
  int64_t failed = 0, empty = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (r[status] != "ok") {
      ++failed;
      continue;
    }
    if (r[m].empty()) {
      ++empty;
      continue;
    }
    std::string series;
    for (size_t c : series_cols) series += (series.empty() ? "" : " · ") + shown(r[c]);
    if (series.empty()) series = r[col("scheduler")];
    if (std::find(order.begin(), order.end(), series) == order.end()) order.push_back(series);
    const std::optional<double> v = base::parse_csv_number(r[m]);
    if (!v)
      throw std::invalid_argument(
          fmt::format("{}:{}: '{}' is not a number in column {}", name, row_line[i], r[m], metric));
    Point& p = points[{series, shown(r[xc])}];
    p.sum += *v;
    p.lo = std::min(p.lo, *v);
    p.hi = std::max(p.hi, *v);
    ++p.runs;
  }
  if (points.empty())
    throw std::invalid_argument(fmt::format("{}: no successful run with a value of {}", name, metric));
  bool numeric_x = true;
  for (const auto& [key, p] : points) numeric_x = numeric_x && base::parse_csv_number(key.second).has_value();
  json out = json::array();
  for (const auto& [key, p] : points)
    out.push_back({{"series", key.first},
                   {"x", numeric_x ? json(*base::parse_csv_number(key.second)) : json(key.second)},
                   {"value", p.sum / static_cast<double>(p.runs)},
                   {"min", p.lo},
                   {"max", p.hi},
                   {"runs", p.runs}});
  std::string series_name;
  for (size_t c : series_cols) series_name += (series_name.empty() ? "" : " · ") + cols[c];
  return {{"kind", "sweep"},     {"title", name},          {"metric", metric},
          {"x", x},              {"x_numeric", numeric_x}, {"series_name", series_name.empty() ? "scheduler" : series_name},
          {"points", out},       {"rows", rows.size()},    {"failed_runs", failed},
          {"runs_without_value", empty}, {"warnings", warnings}};
}

std::string read_report_libraries(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw std::invalid_argument(fmt::format(
        "the report's JavaScript ({}) is missing: build schedlab with npm available (make; scripts/vendor-js.sh)",
        path));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace schedlab::experiments
