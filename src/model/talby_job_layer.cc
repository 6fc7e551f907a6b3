#include "schedlab/model/talby_job_layer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <fstream>
#include <numeric>
#include <stdexcept>
#include <utility>

#include <fmt/core.h>

#include "schedlab/analysis/session_vars.h"
#include "schedlab/base/json_parse.h"
#include "schedlab/base/json_text.h"
#include "schedlab/model/estimate_models.h"
#include "schedlab/swf/writer.h"
#include "schedlab/trace/conventions.h"
#include "schedlab/trace/log_time.h"
#include "schedlab/trace/sessions.h"

namespace schedlab::model {

void Empirical::add(double value, int64_t count) {
  values_.push_back(value);
  counts_.push_back(count);
}

void Empirical::finish() {
  std::vector<size_t> order(values_.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values_[a] < values_[b]; });
  std::vector<double> v;
  std::vector<int64_t> c;
  for (size_t i : order) {
    if (counts_[i] <= 0) continue;
    if (!v.empty() && v.back() == values_[i]) {
      c.back() += counts_[i];
    } else {
      v.push_back(values_[i]);
      c.push_back(counts_[i]);
    }
  }
  values_ = std::move(v);
  counts_ = std::move(c);
  cumulative_.resize(counts_.size());
  std::partial_sum(counts_.begin(), counts_.end(), cumulative_.begin());
  // Draws are the generator's inner loop: a table of one value index per unit of count makes them O(1) (the
  // job layer's distributions count at most the log's jobs).
  lookup_.clear();
  if (total() <= kLookupLimit) {
    lookup_.reserve(static_cast<size_t>(total()));
    for (size_t i = 0; i < counts_.size(); ++i) lookup_.insert(lookup_.end(), static_cast<size_t>(counts_[i]),
                                                               static_cast<uint32_t>(i));
  }
}

double Empirical::draw(base::Rng& rng) const {
  const auto u = rng.below(static_cast<uint64_t>(total()));
  if (!lookup_.empty()) return values_[lookup_[u]];
  const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), static_cast<int64_t>(u));
  return values_[static_cast<size_t>(it - cumulative_.begin())];
}

double Empirical::quantile(double p) const {
  if (values_.empty()) return 0;
  const double target = p * static_cast<double>(total());
  for (size_t i = 0; i < values_.size(); ++i)
    if (static_cast<double>(cumulative_[i]) >= target) return values_[i];
  return values_.back();
}

double Empirical::mean() const {
  if (total() == 0) return 0;
  double s = 0;
  for (size_t i = 0; i < values_.size(); ++i) s += values_[i] * static_cast<double>(counts_[i]);
  return s / static_cast<double>(total());
}

namespace {

constexpr int64_t kDay = 86400;

int weekday_of(int64_t local) {  // 0 = Monday; the epoch was a Thursday
  const int64_t days = local >= 0 ? local / kDay : -((-local + kDay - 1) / kDay);
  return static_cast<int>(((days + 3) % 7 + 7) % 7);
}

int64_t second_of_day(int64_t local) { return ((local % kDay) + kDay) % kDay; }

constexpr std::array<const char*, 4> kDistributions = {"start_minute", "sequences", "think", "overlap_gap"};

std::array<Empirical*, 4> distributions(TalbyClassJobs& c) {
  return {&c.start_minute, &c.sequences, &c.think, &c.overlap_gap};
}
std::array<const Empirical*, 4> distributions(const TalbyClassJobs& c) {
  return {&c.start_minute, &c.sequences, &c.think, &c.overlap_gap};
}

void index_pool(TalbySequencePool& p) {
  p.first.resize(p.lengths.size());
  int64_t at = 0;
  for (size_t i = 0; i < p.lengths.size(); ++i) {
    p.first[i] = at;
    at += p.lengths[i];
  }
}

}  // namespace

TalbyJobModel fit_talby_job_layer(const swf::Log& log, const std::string& source) {
  TalbyJobModel m;
  m.source = source;
  m.procs = trace::machine_size(log.header, log.records).procs;
  if (m.procs <= 0) throw std::invalid_argument(fmt::format("{}: the machine size is unknown", source));
  if (!log.header.unix_start_time) {
    throw std::invalid_argument(fmt::format(
        "{}: no UnixStartTime in the header: the session classes and start times need the log's local time ({})",
        source, trace::kAddUnixStartTime));
  }
  if (std::none_of(log.records.begin(), log.records.end(), [](const swf::Record& r) { return r.user_id >= 0; }))
    throw std::invalid_argument(fmt::format("{}: no job has a user (field 12): there are no sessions to fit", source));
  if (std::none_of(log.records.begin(), log.records.end(), [](const swf::Record& r) { return trace::has_estimate(r); }))
    throw std::invalid_argument(fmt::format("{}: no job has an estimate (field 9): the estimate model cannot be fitted",
                                            source));

  if (!trace::time_zone_known(log.header))
    throw std::invalid_argument(fmt::format("{}: the log's TimeZoneString '{}' is not in the time zone database: the "
                                            "session classes and start times need the log's local time",
                                            source, *log.header.time_zone_string));
  const trace::Sessions sessions = trace::build_sessions(log.records);
  if (sessions.sessions.size() < static_cast<size_t>(analysis::kSessionClasses)) {
    throw std::invalid_argument(
        fmt::format("{}: {} sessions, fewer than the {} session classes", source, sessions.sessions.size(),
                    analysis::kSessionClasses));
  }
  const auto rows = analysis::session_variables(log.records, log.header, sessions.sessions, m.procs);
  analysis::ClassifyOptions co;  // as `schedlab sessions --classify` (seed 1, 10 restarts, no transform)
  const analysis::Classification classes = analysis::classify_sessions(rows, co);
  std::vector<int64_t> starts;
  starts.reserve(sessions.sessions.size());
  for (const auto& s : sessions.sessions) starts.push_back(s.start);
  const std::vector<int64_t> offsets = analysis::utc_offsets(log.header, starts);

  for (size_t i = 0; i < sessions.sessions.size(); ++i) {
    const trace::Session& s = sessions.sessions[i];
    TalbyClassJobs& c = m.classes[static_cast<size_t>(classes.labels[i])];
    const int64_t local = *log.header.unix_start_time + s.start + offsets[i];
    const auto usable = std::count_if(s.jobs.begin(), s.jobs.end(), [&](size_t idx) {
      return log.records[idx].run_time >= 0 && trace::job_size(log.records[idx]) > 0;
    });
    if (usable == 0) {  // nothing to sample from this session (its jobs are counted as skipped)
      m.skipped_jobs += static_cast<int64_t>(s.jobs.size());
      continue;
    }
    ++c.sessions;
    c.start_minute.add(static_cast<double>(weekday_of(local) * 1440 + second_of_day(local) / 60));
    int64_t sequences = 0;
    const swf::Record* prev = nullptr;      // previous job of the session (any)
    const swf::Record* seq_job = nullptr;   // previous job of the current sequence
    for (size_t idx : s.jobs) {
      const swf::Record& r = log.records[idx];
      if (prev != nullptr) {
        const int64_t think = r.submit_time - trace::recorded_end(*prev);
        c.think.add(static_cast<double>(think));
        if (think < 0) c.overlap_gap.add(static_cast<double>(r.submit_time - prev->submit_time));
      }
      prev = &r;
      if (r.run_time < 0 || trace::job_size(r) <= 0) {
        ++m.skipped_jobs;
        continue;
      }
      ++m.jobs;
      ++c.jobs;
      const bool same = seq_job != nullptr && trace::job_size(*seq_job) == trace::job_size(r) &&
                        seq_job->executable == r.executable;
      if (same) {
        ++c.pool.lengths.back();
      } else {
        ++sequences;
        c.pool.sizes.push_back(trace::job_size(r));
        c.pool.lengths.push_back(1);
      }
      c.pool.runtimes.push_back(r.run_time);
      seq_job = &r;
    }
    c.sequences.add(static_cast<double>(sequences));
  }
  for (const TalbyClassJobs& c : m.classes) m.sessions += c.sessions;
  for (size_t k = 0; k < m.classes.size(); ++k) {
    for (Empirical* e : distributions(m.classes[k])) e->finish();
    index_pool(m.classes[k].pool);
    if (m.classes[k].pool.count() == 0) {
      throw std::invalid_argument(fmt::format("{}: session class {} has no job with a known runtime and size", source,
                                              analysis::session_class_name(static_cast<analysis::SessionClass>(k))));
    }
  }
  m.estimates = to_json(fit_tsafrir(log.records, 2));
  return m;
}

nlohmann::ordered_json to_json(const TalbyJobModel& m) {
  nlohmann::ordered_json j;
  j["model"] = "talby-job-layer";
  j["version"] = 1;
  j["source"] = m.source;
  j["procs"] = m.procs;
  j["sessions"] = m.sessions;
  j["jobs"] = m.jobs;
  j["skipped_jobs"] = m.skipped_jobs;
  j["estimates"] = m.estimates;
  nlohmann::ordered_json classes = nlohmann::ordered_json::object();
  for (size_t k = 0; k < m.classes.size(); ++k) {
    const TalbyClassJobs& c = m.classes[k];
    nlohmann::ordered_json cj;
    cj["sessions"] = c.sessions;
    cj["jobs"] = c.jobs;
    const auto ds = distributions(c);
    for (size_t d = 0; d < ds.size(); ++d) {
      nlohmann::ordered_json values = nlohmann::ordered_json::array();
      for (double v : ds[d]->values()) {
        // Integral values print as integers (all but the runtime ratios).
        if (v == std::floor(v) && std::fabs(v) < 9e15) {
          values.push_back(static_cast<int64_t>(v));
        } else {
          values.push_back(v);
        }
      }
      cj[kDistributions[d]] = {{"values", values}, {"counts", ds[d]->counts()}};
    }
    cj["pool"] = {{"sizes", c.pool.sizes}, {"lengths", c.pool.lengths}, {"runtimes", c.pool.runtimes}};
    classes[std::string(analysis::session_class_name(static_cast<analysis::SessionClass>(k)))] = cj;
  }
  j["classes"] = classes;
  return j;
}

namespace {

[[noreturn]] void bad(const std::string& name, const std::string& field, const std::string& what) {
  throw std::invalid_argument(fmt::format("{}: {}: {}", name, field, what));
}

const nlohmann::json& member(const nlohmann::json& j, const char* key, const std::string& name,
                             const std::string& path) {
  if (!j.is_object()) bad(name, path, "must be an object");
  const auto it = j.find(key);
  if (it == j.end()) bad(name, path.empty() ? key : path + "." + key, "missing");
  return *it;
}

int64_t integer(const nlohmann::json& j, const std::string& name, const std::string& field, int64_t min) {
  if (!j.is_number_integer()) bad(name, field, "must be an integer");
  const auto v = j.get<int64_t>();
  if (v < min) bad(name, field, fmt::format("must be >= {} (got {})", min, v));
  return v;
}

void read_empirical(const nlohmann::json& j, const std::string& name, const std::string& field, Empirical& e,
                    double min, double max, bool integral, bool may_be_empty) {
  const nlohmann::json& values = member(j, "values", name, field);
  const nlohmann::json& counts = member(j, "counts", name, field);
  if (!values.is_array()) bad(name, field + ".values", "must be an array");
  if (!counts.is_array()) bad(name, field + ".counts", "must be an array");
  if (values.size() != counts.size()) {
    bad(name, field, fmt::format("{} values but {} counts", values.size(), counts.size()));
  }
  for (size_t i = 0; i < values.size(); ++i) {
    const std::string at = fmt::format("{}.values[{}]", field, i);
    if (!values[i].is_number()) bad(name, at, "must be a number");
    const double v = values[i].get<double>();
    if (!std::isfinite(v) || v < min || v > max) bad(name, at, fmt::format("{} is outside [{}, {}]", v, min, max));
    if (integral && v != std::floor(v)) bad(name, at, fmt::format("{} must be an integer", v));
    e.add(v, integer(counts[i], name, fmt::format("{}.counts[{}]", field, i), 1));
  }
  e.finish();
  if (!may_be_empty && e.total() == 0) bad(name, field, "is empty");
}

}  // namespace

TalbyJobModel talby_job_model_from_json(const nlohmann::json& j, const std::string& name) {
  TalbyJobModel m;
  const nlohmann::json& model = member(j, "model", name, "");
  if (!model.is_string() || model.get<std::string>() != "talby-job-layer")
    bad(name, "model", "must be \"talby-job-layer\" (not a job-model file of `schedlab generate talby --fit`)");
  if (integer(member(j, "version", name, ""), name, "version", 1) != 1) bad(name, "version", "must be 1");
  const nlohmann::json& source = member(j, "source", name, "");
  if (!source.is_string()) bad(name, "source", "must be a string");
  m.source = source.get<std::string>();
  m.procs = integer(member(j, "procs", name, ""), name, "procs", 1);
  m.sessions = integer(member(j, "sessions", name, ""), name, "sessions", 0);
  m.jobs = integer(member(j, "jobs", name, ""), name, "jobs", 0);
  m.skipped_jobs = integer(member(j, "skipped_jobs", name, ""), name, "skipped_jobs", 0);
  m.estimates = member(j, "estimates", name, "");
  if (!m.estimates.is_object()) bad(name, "estimates", "must be an object (a tsafrir fit)");
  try {
    (void)tsafrir_params_from_json(m.estimates, 1000, 0);
  } catch (const std::exception& e) {
    bad(name, "estimates", e.what());
  }
  const nlohmann::json& classes = member(j, "classes", name, "");
  if (!classes.is_object()) bad(name, "classes", "must be an object");
  for (size_t k = 0; k < m.classes.size(); ++k) {
    const std::string cname(analysis::session_class_name(static_cast<analysis::SessionClass>(k)));
    const std::string path = "classes." + cname;
    const nlohmann::json& cj = member(classes, cname.c_str(), name, "classes");
    TalbyClassJobs& c = m.classes[k];
    c.sessions = integer(member(cj, "sessions", name, path), name, path + ".sessions", 0);
    c.jobs = integer(member(cj, "jobs", name, path), name, path + ".jobs", 0);
    const auto ds = distributions(c);
    // Bounds per distribution: minute of the week 0..10079, sequences >= 1, think times below the boundary,
    // overlapping inter-arrival times >= 0.
    const std::array<std::array<double, 2>, 4> bounds = {{{0, 7 * 1440 - 1},
                                                          {1, 1e6},
                                                          {-2147483647.0, trace::kDefaultThinkThreshold - 1.0},
                                                          {0, 2147483647.0}}};
    for (size_t d = 0; d < ds.size(); ++d) {
      const bool may_be_empty = d >= 2;  // one-job sessions only; no overlapping submissions
      read_empirical(member(cj, kDistributions[d], name, path), name, path + "." + kDistributions[d], *ds[d],
                     bounds[d][0], bounds[d][1], true, may_be_empty);
    }
    const nlohmann::json& pool = member(cj, "pool", name, path);
    const auto ints = [&](const char* key, std::vector<int32_t>& out, int64_t min) {
      const std::string field = path + ".pool." + key;
      const nlohmann::json& a = member(pool, key, name, path + ".pool");
      if (!a.is_array()) bad(name, field, "must be an array");
      out.reserve(a.size());
      for (size_t i = 0; i < a.size(); ++i) {
        const int64_t v = integer(a[i], name, fmt::format("{}[{}]", field, i), min);
        if (v > 2147483647) bad(name, fmt::format("{}[{}]", field, i), "is above 2^31 - 1");
        out.push_back(static_cast<int32_t>(v));
      }
    };
    ints("sizes", c.pool.sizes, 1);
    ints("lengths", c.pool.lengths, 1);
    ints("runtimes", c.pool.runtimes, 0);
    if (c.pool.sizes.empty()) bad(name, path + ".pool.sizes", "is empty");
    if (c.pool.sizes.size() != c.pool.lengths.size()) {
      bad(name, path + ".pool", fmt::format("{} sizes but {} lengths", c.pool.sizes.size(), c.pool.lengths.size()));
    }
    const int64_t total = std::accumulate(c.pool.lengths.begin(), c.pool.lengths.end(), int64_t{0});
    if (total != static_cast<int64_t>(c.pool.runtimes.size())) {
      bad(name, path + ".pool.runtimes",
          fmt::format("{} runtimes but the lengths add up to {}", c.pool.runtimes.size(), total));
    }
    index_pool(c.pool);
  }
  return m;
}

TalbyJobModel read_talby_job_model(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(fmt::format("{}: cannot open the job-model file", path));
  nlohmann::json j;
  try {
    j = base::parse_json(in);
  } catch (const std::exception& e) {  // malformed, or nested too deep
    throw std::invalid_argument(fmt::format("{}: not a JSON job-model file: {}", path, e.what()));
  }
  return talby_job_model_from_json(j, path);
}

void write_talby_job_model(const std::string& path, const TalbyJobModel& model) {
  swf::write_text_file(path, base::json_text(to_json(model), 1) + "\n");
}

TalbySession draw_session_start(const TalbyJobModel& model, analysis::SessionClass cls, int64_t week_start,
                                base::Rng& rng) {
  const TalbyClassJobs& c = model.classes[static_cast<size_t>(cls)];
  TalbySession s;
  s.cls = cls;
  const auto minute = static_cast<int64_t>(c.start_minute.draw(rng));
  s.start = week_start + minute * 60 + static_cast<int64_t>(rng.below(60));
  s.end = s.start;
  return s;
}

void draw_session_jobs(const TalbyJobModel& model, TalbySession& s, int64_t procs, base::Rng& rng) {
  const TalbyClassJobs& c = model.classes[static_cast<size_t>(s.cls)];
  s.jobs.clear();
  s.end = s.start;
  const auto sequences = static_cast<int64_t>(c.sequences.draw(rng));
  int64_t submit = s.start;
  int32_t prev_runtime = -1;
  for (int64_t q = 0; q < sequences; ++q) {
    const auto pick = static_cast<size_t>(rng.below(c.pool.count()));
    const int64_t fitted_size = c.pool.sizes[pick];
    int64_t size = fitted_size == 1 ? 1
                                    : std::llround(static_cast<double>(fitted_size) * static_cast<double>(procs) /
                                                   static_cast<double>(model.procs));
    size = std::clamp<int64_t>(size, 1, procs);
    for (int64_t k = 0; k < c.pool.lengths[pick]; ++k) {
      const int32_t runtime = c.pool.runtimes[static_cast<size_t>(c.pool.first[pick] + k)];
      int32_t follows = -1;
      if (prev_runtime >= 0) {
        const auto think = static_cast<int64_t>(c.think.total() > 0 ? c.think.draw(rng) : 0.0);
        if (think >= 0 || c.overlap_gap.total() == 0) {
          submit += std::max<int64_t>(0, prev_runtime + think);
          if (think >= 0) follows = static_cast<int32_t>(std::min<int64_t>(think, std::numeric_limits<int32_t>::max()));
        } else {
          const auto gap = static_cast<int64_t>(c.overlap_gap.draw(rng));
          submit += std::min<int64_t>(gap, prev_runtime + trace::kDefaultThinkThreshold - 1);
        }
      }
      s.jobs.push_back(TalbyJob{submit, runtime, static_cast<int32_t>(size), q, follows});
      s.end = std::max(s.end, submit + runtime);
      prev_runtime = runtime;
    }
  }
}

}  // namespace schedlab::model
