#include "schedlab/experiments/compare.h"
#include "schedlab/experiments/results_json.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>

#include <fmt/core.h>
#include <fmt/ranges.h>

#include "schedlab/analysis/distribution.h"
#include "schedlab/base/csv_field.h"
#include "schedlab/base/csv_number.h"
#include "schedlab/base/threads.h"
#include "schedlab/experiments/simulation.h"
#include "schedlab/base/nearest.h"

namespace schedlab::experiments {

namespace {

constexpr size_t kMetrics = 2;

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0.0 : s / static_cast<double>(v.size());
}

double population_sd(const std::vector<double>& v) {
  if (v.empty()) return 0;
  const double m = mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size()));
}

double pearson(const std::vector<double>& x, const std::vector<double>& y) {
  const double mx = mean(x), my = mean(y);
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (x.size() < 2 || sxx <= 0 || syy <= 0) return std::numeric_limits<double>::quiet_NaN();
  return sxy / std::sqrt(sxx * syy);
}

// Median and interquartile range (type-7 quantiles, analysis/distribution.h).
std::pair<double, double> median_iqr(std::vector<double> v) {
  if (v.empty()) return {0, 0};
  std::sort(v.begin(), v.end());
  return {analysis::quantile_sorted(v, 0.5), analysis::quantile_sorted(v, 0.75) - analysis::quantile_sorted(v, 0.25)};
}

// Per scheduler, the periods where its mean is the lowest: alone (`shared` false) or with others (true).
std::vector<int64_t> count_best(const std::vector<std::vector<double>>& means, size_t periods, bool shared) {
  std::vector<int64_t> out(means.size(), 0);
  for (size_t p = 0; p < periods; ++p) {
    double lowest = means[0][p];
    for (const auto& m : means) lowest = std::min(lowest, m[p]);
    size_t at_lowest = 0;
    for (const auto& m : means) at_lowest += m[p] == lowest;
    if ((at_lowest > 1) != shared) continue;
    for (size_t s = 0; s < means.size(); ++s) out[s] += means[s][p] == lowest;
  }
  return out;
}

}  // namespace

const std::vector<std::string>& period_attribute_names() {
  static const std::vector<std::string> names = {
      "jobs",         "users",     "load",        "runtime_median",      "runtime_iqr",     "procs_median",
      "procs_iqr",    "work_median", "work_iqr",  "interarrival_median", "interarrival_iqr"};
  return names;
}

std::vector<double> period_attribute_values(const PeriodAttributes& a) {
  return {static_cast<double>(a.jobs), static_cast<double>(a.users), a.load, a.runtime_median, a.runtime_iqr,
          a.procs_median, a.procs_iqr, a.work_median, a.work_iqr, a.interarrival_median, a.interarrival_iqr};
}

double CompareResult::whole(CompareMetric m, size_t s) const {
  const sim::Metrics& x = results[s].metrics;
  return m == CompareMetric::kWait ? x.wait.mean : x.bounded_slowdown.mean;
}

std::vector<int64_t> CompareResult::wins(CompareMetric m) const {
  return count_best(period_means[static_cast<size_t>(m)], periods.size(), false);
}

std::vector<int64_t> CompareResult::shared_wins(CompareMetric m) const {
  return count_best(period_means[static_cast<size_t>(m)], periods.size(), true);
}

CompareResult::PairGaps CompareResult::gaps(size_t a, size_t b) const {
  const auto& w = period_means[static_cast<size_t>(CompareMetric::kWait)];
  PairGaps out;
  auto add = [](Gap& g, double winner, double loser) {
    ++g.periods;
    if (winner <= 0) return;
    const double gap = (loser - winner) / winner;
    g.mean = g.gap_periods == 0 ? gap : g.mean + gap;
    g.max = g.gap_periods == 0 ? gap : std::max(g.max, gap);
    ++g.gap_periods;
  };
  for (size_t p = 0; p < periods.size(); ++p) {
    if (w[a][p] < w[b][p]) {
      add(out.a, w[a][p], w[b][p]);
    } else if (w[b][p] < w[a][p]) {
      add(out.b, w[b][p], w[a][p]);
    } else {
      ++out.tied;
    }
  }
  if (out.a.gap_periods > 0) out.a.mean /= static_cast<double>(out.a.gap_periods);
  if (out.b.gap_periods > 0) out.b.mean /= static_cast<double>(out.b.gap_periods);
  return out;
}

std::vector<std::vector<double>> CompareResult::deviations(CompareMetric m) const {
  const auto& means = period_means[static_cast<size_t>(m)];
  std::vector<std::vector<double>> out(names.size(), std::vector<double>(periods.size(), 0.0));
  for (size_t p = 0; p < periods.size(); ++p) {
    double avg = 0;
    for (size_t s = 0; s < names.size(); ++s) avg += means[s][p];
    avg /= static_cast<double>(names.size());
    for (size_t s = 0; s < names.size(); ++s) out[s][p] = avg > 0 ? (means[s][p] - avg) / avg : 0.0;
  }
  return out;
}

// A gain over a baseline of 0 (no wait at all; one period, or equal period means: no spread) is a share of
// nothing: NaN (JSON null, "n/a"), not the 0% it was reported as whatever the other scheduler did.
double CompareResult::performance_gain(CompareMetric m, size_t s) const {
  if (s == baseline) return 0.0;
  const double base = whole(m, baseline);
  return base > 0 ? (base - whole(m, s)) / base : std::numeric_limits<double>::quiet_NaN();
}

double CompareResult::stability_gain(CompareMetric m, size_t s) const {
  if (s == baseline) return 0.0;
  const auto& means = period_means[static_cast<size_t>(m)];
  const double base = population_sd(means[baseline]);
  return base > 0 ? (base - population_sd(means[s])) / base : std::numeric_limits<double>::quiet_NaN();
}

std::vector<std::pair<double, double>> CompareResult::correlations(size_t s) const {
  const auto& w = period_means[static_cast<size_t>(CompareMetric::kWait)];
  std::vector<double> abs_diff, rel_diff;
  std::vector<std::vector<double>> attrs(period_attribute_names().size());
  for (size_t p = 0; p < periods.size(); ++p) {
    if (w[baseline][p] <= 0) continue;  // no relative difference: leave the period out of both
    abs_diff.push_back(w[s][p] - w[baseline][p]);
    rel_diff.push_back((w[s][p] - w[baseline][p]) / w[baseline][p]);
    const auto v = period_attribute_values(periods[p]);
    for (size_t a = 0; a < v.size(); ++a) attrs[a].push_back(v[a]);
  }
  std::vector<std::pair<double, double>> out;
  for (const auto& x : attrs) out.emplace_back(pearson(x, abs_diff), pearson(x, rel_diff));
  return out;
}

CompareResult run_compare(const CompareSpec& spec, const swf::Log& log) {
  if (spec.schedulers.empty()) throw std::invalid_argument("compare: no scheduler given");
  base::check_threads(spec.threads);
  if (spec.period <= 0) throw std::invalid_argument(fmt::format("compare: --period must be > 0 (got {} s)", spec.period));
  CompareResult r;
  r.spec = spec;
  if (!spec.scheduler_objects.empty() && spec.scheduler_objects.size() != spec.schedulers.size())
    throw std::invalid_argument(fmt::format("compare: {} scheduler objects for {} schedulers (none, or one per entry)",
                                            spec.scheduler_objects.size(), spec.schedulers.size()));
  // Make every policy first: a bad name fails before anything is simulated.
  std::vector<PreparedSimulation> prepared;
  for (size_t i = 0; i < spec.schedulers.size(); ++i) {
    SimulationSpec one;
    one.scheduler = spec.schedulers[i];
    if (!spec.scheduler_objects.empty()) one.scheduler_object = spec.scheduler_objects[i];
    one.predictor = spec.predictor;
    one.correction = spec.correction;
    one.predictor_object = spec.predictor_object;
    one.workload = spec.workload;
    one.sim = spec.sim;
    prepared.push_back(prepare_simulation(one));
    r.names.push_back(prepared.back().name);
  }
  for (size_t i = 0; i < r.names.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (r.names[i] == r.names[j]) throw std::invalid_argument(fmt::format("compare: scheduler '{}' is given twice", r.names[i]));
    }
  }
  r.baseline = r.names.size() - 1;
  if (!spec.baseline.empty()) {
    const auto it = std::find(r.names.begin(), r.names.end(), spec.baseline);
    if (it == r.names.end()) {
      throw std::invalid_argument(fmt::format("compare: --baseline '{}' is not one of the schedulers ({}){}",
                                              spec.baseline, fmt::join(r.names, ", "),
                                              base::did_you_mean(spec.baseline, r.names)));
    }
    r.baseline = static_cast<size_t>(it - r.names.begin());
  }

  const workload::Workload w = workload_of(log, spec.workload);
  r.procs = w.procs;
  r.jobs = w.jobs.size();
  r.records = w.records;
  r.excluded = w.excluded;
  r.arrival_scale = w.arrival_scale;
  r.offered_load = w.offered_load;
  r.notes = w.notes;
  r.results.resize(prepared.size());
  const unsigned threads = base::worker_threads(spec.threads, prepared.size());
  std::vector<std::exception_ptr> errors(prepared.size());
  // Progress over all the runs: the jobs ended in each, summed (the runs go in parallel).
  std::vector<size_t> ended(prepared.size(), 0);
  std::mutex progress_mu;
  const auto options_of = [&](size_t i) {
    sim::SimOptions o = spec.sim;
    if (spec.sim.progress)
      o.progress = [&, i](size_t done, size_t) {
        std::lock_guard<std::mutex> lock(progress_mu);  // the sums reported never go back
        ended[i] = done;
        size_t sum = 0;
        for (const size_t e : ended) sum += e;
        spec.sim.progress(sum, w.jobs.size() * prepared.size());
      };
    return o;
  };
  // Each thread takes the next simulation when its own ends (a slow policy beside fast ones keeps the others
  // busy); every run's error is kept, the first by the schedulers' order rethrown below.
  base::parallel_for(threads, prepared.size(), [&](size_t i, unsigned) {
    try {
      r.results[i] = sim::simulate(w, *prepared[i].scheduler, *prepared[i].predictor, options_of(i));
      r.results[i].scheduler = prepared[i].name;
    } catch (...) {
      errors[i] = std::current_exception();
    }
  });
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  r.warnings = simulation_warnings(r.results);
  if (spec.by_class) {
    for (const sim::SimResult& result : r.results)
      r.by_class.push_back(sim::metrics_by_class(w, result, *spec.by_class, spec.sim.bsld_tau));
  }

  // Periods by submit time, and their attributes.
  const int64_t t0 = w.jobs.front().submit;
  std::map<int64_t, std::vector<size_t>> by_period;
  for (size_t i = 0; i < w.jobs.size(); ++i) by_period[(w.jobs[i].submit - t0) / spec.period].push_back(i);
  r.period_means.assign(kMetrics, std::vector<std::vector<double>>(r.names.size()));
  for (const auto& [index, jobs] : by_period) {
    PeriodAttributes a;
    a.index = index;
    a.start = t0 + index * spec.period;
    a.jobs = static_cast<int64_t>(jobs.size());
    std::set<int32_t> users;
    std::vector<double> runtime, procs, work, gaps;
    double area = 0;
    int64_t previous = -1;
    for (size_t i : jobs) {
      const workload::Job& j = w.jobs[i];
      users.insert(j.user);
      runtime.push_back(static_cast<double>(j.runtime));
      procs.push_back(j.procs);
      work.push_back(static_cast<double>(j.runtime) * j.procs);
      area += static_cast<double>(j.runtime) * j.procs;
      if (previous >= 0) gaps.push_back(static_cast<double>(j.submit - previous));
      previous = j.submit;
    }
    a.users = static_cast<int64_t>(users.size());
    a.load = area / (static_cast<double>(w.procs) * static_cast<double>(spec.period));
    std::tie(a.runtime_median, a.runtime_iqr) = median_iqr(runtime);
    std::tie(a.procs_median, a.procs_iqr) = median_iqr(procs);
    std::tie(a.work_median, a.work_iqr) = median_iqr(work);
    std::tie(a.interarrival_median, a.interarrival_iqr) = median_iqr(gaps);
    r.periods.push_back(a);
    for (size_t s = 0; s < r.names.size(); ++s) {
      double wait = 0, bsld = 0;
      for (size_t i : jobs) {
        const sim::JobOutcome& o = r.results[s].jobs[i];
        // (With feedback a job's period is still its logged submit's, the same jobs under every scheduler; its
        // wait counts from its simulated submit.)
        const int64_t submit = r.results[s].submitted(w, i);
        const double response = static_cast<double>(o.end - submit);
        wait += static_cast<double>(o.start - submit);
        bsld += std::max(1.0, response / static_cast<double>(std::max<int64_t>(o.ran, spec.sim.bsld_tau)));
      }
      r.period_means[0][s].push_back(wait / static_cast<double>(jobs.size()));
      r.period_means[1][s].push_back(bsld / static_cast<double>(jobs.size()));
    }
  }
  return r;
}

nlohmann::json to_json(const CompareResult& r) {
  static const char* kMetricNames[kMetrics] = {"wait", "bounded_slowdown"};
  nlohmann::json doc;
  auto number = [](double x) { return std::isnan(x) ? nlohmann::json(nullptr) : nlohmann::json(x); };
  doc["procs"] = r.procs;
  doc["jobs"] = r.jobs;
  doc["records"] = r.records;
  doc["excluded"] = nlohmann::json::object();
  for (const auto& [reason, count] : r.excluded) doc["excluded"][reason] = count;
  doc["arrival_scale"] = r.arrival_scale;
  doc["offered_load"] = number(r.offered_load);
  doc["notes"] = r.notes;
  doc["warnings"] = r.warnings;
  doc["period_s"] = r.spec.period;
  // As simulate's JSON: the whole-log means' threshold and warm-up (floor(F x n) of the n jobs every schedule ended:
  // the same count for all; the period means keep every job).
  doc["bsld_tau"] = r.spec.sim.bsld_tau;
  doc["warmup_fraction"] = r.spec.sim.warmup_fraction;
  doc["warmup_excluded"] = r.results.empty() ? 0 : r.results.front().metrics.warmup_excluded;
  doc["baseline"] = r.names[r.baseline];
  nlohmann::json schedulers = nlohmann::json::array();
  for (size_t s = 0; s < r.names.size(); ++s) {
    nlohmann::json one = {{"name", r.names[s]}, {"predictor", r.results[s].predictor}};
    for (size_t m = 0; m < kMetrics; ++m) {
      const auto metric = static_cast<CompareMetric>(m);
      one[kMetricNames[m]] = {{"mean", r.whole(metric, s)},
                              {"periods_won", r.wins(metric)[s]},
                              {"periods_shared_best", r.shared_wins(metric)[s]},
                              {"performance_gain", number(r.performance_gain(metric, s))},
                              {"stability_gain", number(r.stability_gain(metric, s))},
                              {"period_sd", population_sd(r.period_means[m][s])}};
    }
    one["utilization"] = r.results[s].metrics.utilization;
    one["backfilled_share"] = r.results[s].backfilled_share();
    one["loss_of_capacity"] = r.results[s].loss_of_capacity();
    if (r.results[s].adaptive) one["adaptive"] = to_json(*r.results[s].adaptive);
    if (s < r.by_class.size()) one["by_class"] = to_json(r.by_class[s]);
    if (s != r.baseline) {
      nlohmann::json corr;
      const auto c = r.correlations(s);
      for (size_t a = 0; a < c.size(); ++a) {
        corr[period_attribute_names()[a]] = {{"absolute", number(c[a].first)}, {"relative", number(c[a].second)}};
      }
      one["correlations_with_baseline_difference"] = corr;
    }
    schedulers.push_back(one);
  }
  doc["schedulers"] = schedulers;
  if (r.spec.by_class) doc["by_class_limits"] = to_json(*r.spec.by_class);
  nlohmann::json gaps = nlohmann::json::array();
  for (size_t a = 0; a < r.names.size(); ++a) {
    for (size_t b = a + 1; b < r.names.size(); ++b) {
      const auto g = r.gaps(a, b);
      const auto side = [&number](const CompareResult::Gap& gap) {
        return nlohmann::json{{"periods", gap.periods},
                              {"periods_with_gap", gap.gap_periods},
                              {"mean_gap", number(gap.mean)},
                              {"max_gap", number(gap.max)}};
      };
      gaps.push_back({{"a", r.names[a]}, {"b", r.names[b]}, {"won_by_a", side(g.a)}, {"won_by_b", side(g.b)},
                      {"tied", g.tied}});
    }
  }
  doc["wait_gaps"] = gaps;
  nlohmann::json periods = nlohmann::json::array();
  const auto dev_wait = r.deviations(CompareMetric::kWait);
  const auto dev_bsld = r.deviations(CompareMetric::kBoundedSlowdown);
  for (size_t p = 0; p < r.periods.size(); ++p) {
    nlohmann::json one = {{"index", r.periods[p].index}, {"start", r.periods[p].start}};
    const auto v = period_attribute_values(r.periods[p]);
    for (size_t a = 0; a < v.size(); ++a) one[period_attribute_names()[a]] = v[a];
    nlohmann::json per = nlohmann::json::object();
    for (size_t s = 0; s < r.names.size(); ++s) {
      per[r.names[s]] = {{"wait", r.period_means[0][s][p]},
                         {"bounded_slowdown", r.period_means[1][s][p]},
                         {"wait_deviation", dev_wait[s][p]},
                         {"bounded_slowdown_deviation", dev_bsld[s][p]}};
    }
    one["schedulers"] = per;
    periods.push_back(one);
  }
  doc["periods"] = periods;
  return doc;
}

std::string compare_csv(const CompareResult& r) {
  std::string out = "period,start";
  for (const auto& a : period_attribute_names()) out += ',' + a;
  for (const auto& s : r.names)
    for (const char* col : {":wait", ":bounded_slowdown", ":wait_deviation", ":bounded_slowdown_deviation"})
      out += ',' + base::csv_field(s + col);
  out += '\n';
  const auto dw = r.deviations(CompareMetric::kWait);
  const auto db = r.deviations(CompareMetric::kBoundedSlowdown);
  for (size_t p = 0; p < r.periods.size(); ++p) {
    out += fmt::format("{},{}", r.periods[p].index, r.periods[p].start);
    for (double v : period_attribute_values(r.periods[p])) out += ',' + base::csv_number(v);
    for (size_t s = 0; s < r.names.size(); ++s) {
      for (double v : {r.period_means[0][s][p], r.period_means[1][s][p], dw[s][p], db[s][p]})
        out += ',' + base::csv_number(v);
    }
    out += '\n';
  }
  return out;
}

}  // namespace schedlab::experiments
