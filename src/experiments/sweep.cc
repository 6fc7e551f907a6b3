#include "schedlab/experiments/sweep.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <memory>
#include <mutex>
#include <sstream>
#include <tuple>
#include <type_traits>

#include <fmt/core.h>
#include <toml++/toml.h>

#include "schedlab/base/csv_field.h"
#include "schedlab/base/json_parse.h"
#include "schedlab/base/json_text.h"
#include "schedlab/base/memory.h"
#include "schedlab/base/params.h"
#include "schedlab/base/threads.h"
#include "schedlab/experiments/simulation.h"
#include "schedlab/model/estimate_models.h"
#include "schedlab/predict/registry.h"
#include "schedlab/sim/job_classes.h"
#include "schedlab/swf/writer.h"
#include "schedlab/sim/scheduler_registry.h"
#include "schedlab/swf/csv.h"
#include "schedlab/swf/reader.h"
#include "schedlab/trace/log_time.h"
#include "schedlab/base/nearest.h"

namespace schedlab::experiments {

namespace {

[[noreturn]] void fail(const std::string& name, int64_t line, const std::string& key, const std::string& what) {
  throw SweepError(line > 0 ? fmt::format("{}:{}: {}: {}", name, line, key, what) : fmt::format("{}: {}: {}", name, key, what));
}

int64_t line_of(const toml::node& n) { return static_cast<int64_t>(n.source().begin.line); }

// A value of a list key: the node itself when it is not an array, else each element.
template <typename F>
void each(const toml::node& n, F&& f) {
  if (const toml::array* a = n.as_array()) {
    for (const toml::node& e : *a) f(e);
  } else {
    f(n);
  }
}

std::string as_string(const toml::node& n, const std::string& name, const std::string& key) {
  if (const auto* v = n.as_string()) return v->get();
  fail(name, line_of(n), key, "must be a string (or a list of strings)");
}
double as_number(const toml::node& n, const std::string& name, const std::string& key) {
  if (const auto* v = n.as_floating_point()) return v->get();
  if (const auto* v = n.as_integer()) return static_cast<double>(v->get());
  fail(name, line_of(n), key, "must be a number (or a list of numbers)");
}
int64_t as_integer(const toml::node& n, const std::string& name, const std::string& key, int64_t min) {
  const auto* v = n.as_integer();
  if (v == nullptr) fail(name, line_of(n), key, "must be an integer (or a list of integers)");
  if (v->get() < min) fail(name, line_of(n), key, fmt::format("must be >= {} (got {})", min, v->get()));
  return v->get();
}
bool as_bool(const toml::node& n, const std::string& name, const std::string& key) {
  if (const auto* v = n.as_boolean()) return v->get();
  fail(name, line_of(n), key, "must be true or false (or a list of them)");
}
double fraction(const toml::node& n, const std::string& name, const std::string& key) {
  const double v = as_number(n, name, key);
  if (!(v >= 0 && v < 1)) fail(name, line_of(n), key, fmt::format("must be in [0, 1) (got {})", v));
  return v;
}
double positive(const toml::node& n, const std::string& name, const std::string& key) {
  const double v = as_number(n, name, key);
  if (!(v > 0) || !std::isfinite(v)) fail(name, line_of(n), key, fmt::format("must be > 0 (got {})", v));
  return v;
}

// The keys of a run, singular (patterns) and plural (lists).
struct Key {
  const char* singular;
  const char* plural;
};
constexpr Key kKeys[] = {{"log", "logs"},
                         {"scheduler", "schedulers"},
                         {"predictor", "predictors"},
                         {"correction", "corrections"},
                         {"estimate_model", "estimate_models"},
                         {"load", "loads"},
                         {"arrival_scale", "arrival_scales"},
                         {"procs", "procs"},
                         {"kill_at_estimate", "kill_at_estimate"},
                         {"extend_estimates", "extend_estimates"},
                         {"feedback", "feedback"},
                         {"warmup_fraction", "warmup_fraction"},
                         {"bsld_tau", "bsld_tau"},
                         {"seed", "seeds"}};

std::vector<std::string> list_keys() {
  std::vector<std::string> v;
  for (const Key& k : kKeys) v.emplace_back(k.plural);
  v.emplace_back("exclude");
  v.emplace_back("include");
  return v;
}
std::vector<std::string> pattern_keys() {
  std::vector<std::string> v;
  for (const Key& k : kKeys) v.emplace_back(k.singular);
  return v;
}
// "unknown key (known: ...)", and the nearest key when one is near ("seed" at the top level: "seeds").
std::string unknown_key(const std::string& key, const std::vector<std::string>& known) {
  std::string list;
  for (const auto& k : known) list += fmt::format("{}{}", list.empty() ? "" : ", ", k);
  return fmt::format("unknown key (known: {}){}", list, base::did_you_mean(key, known));
}

SweepPattern parse_pattern(const toml::table& t, const std::string& name, const std::string& what) {
  SweepPattern p;
  p.line = static_cast<int64_t>(t.source().begin.line);
  for (const auto& [k, v] : t) {
    const std::string key(k.str());
    const std::string path = what + "." + key;
    if (v.is_array() || v.is_table()) fail(name, line_of(v), path, "must be a single value");
    if (key == "log") p.log = as_string(v, name, path);
    else if (key == "scheduler") p.scheduler = as_string(v, name, path);
    else if (key == "predictor") p.predictor = as_string(v, name, path);
    else if (key == "correction") p.correction = as_string(v, name, path);
    else if (key == "estimate_model") p.estimate_model = as_string(v, name, path);
    else if (key == "load") p.load = positive(v, name, path);
    else if (key == "arrival_scale") p.arrival_scale = positive(v, name, path);
    else if (key == "procs") p.procs = as_integer(v, name, path, 1);
    else if (key == "kill_at_estimate") p.kill_at_estimate = as_bool(v, name, path);
    else if (key == "extend_estimates") p.extend_estimates = as_bool(v, name, path);
    else if (key == "feedback") p.feedback = as_bool(v, name, path);
    else if (key == "warmup_fraction") p.warmup_fraction = fraction(v, name, path);
    else if (key == "bsld_tau") p.bsld_tau = as_integer(v, name, path, 1);
    else if (key == "seed") p.seed = static_cast<uint64_t>(as_integer(v, name, path, 0));
    else fail(name, line_of(v), path, unknown_key(std::string(key), pattern_keys()));
  }
  return p;
}

template <typename T>
bool matches(const std::optional<T>& want, const T& have) {
  return !want || *want == have;
}

bool matches(const SweepPattern& p, const SweepRun& r) {
  return matches(p.log, r.log) && matches(p.scheduler, r.scheduler) && matches(p.predictor, r.predictor) &&
         matches(p.correction, r.correction) && matches(p.estimate_model, r.estimate_model) &&
         (!p.load || (r.load && *r.load == *p.load)) && matches(p.arrival_scale, r.arrival_scale) &&
         (!p.procs || (r.procs && *r.procs == *p.procs)) && matches(p.kill_at_estimate, r.kill_at_estimate) &&
         matches(p.extend_estimates, r.extend_estimates) && matches(p.feedback, r.feedback) &&
         matches(p.warmup_fraction, r.warmup_fraction) &&
         matches(p.bsld_tau, r.bsld_tau) && matches(p.seed, r.seed);
}

int64_t spec_line(const SweepSpec& s, const std::string& key) {
  for (const auto& [k, l] : s.lines)
    if (k == key) return l;
  return 0;
}

}  // namespace

SweepSpec parse_sweep_spec(const std::string& text, const std::string& name) {
  toml::table root;
  try {
    root = toml::parse(text, name);
  } catch (const toml::parse_error& e) {
    throw SweepError(fmt::format("{}:{}: not valid TOML: {}", name, e.source().begin.line, e.description()));
  }
  SweepSpec s;
  s.name = name;
  bool has_logs = false;
  for (const auto& [k, v] : root) {
    const std::string key(k.str());
    s.lines.emplace_back(key, line_of(v));
    if (key == "exclude" || key == "include") {
      const toml::array* a = v.as_array();
      if (a == nullptr || !a->is_array_of_tables())
        fail(name, line_of(v), key, fmt::format("must be tables: [[{}]]", key));
      for (const toml::node& t : *a) {
        SweepPattern p = parse_pattern(*t.as_table(), name, key);
        (key == "exclude" ? s.excludes : s.includes).push_back(std::move(p));
      }
      continue;
    }
    if (v.is_table()) fail(name, line_of(v), key, "must be a value or a list, not a table");
    if (const toml::array* a = v.as_array(); a != nullptr && a->empty())
      fail(name, line_of(v), key, "is an empty list (leave the key out for its default)");
    if (key == "logs") {
      has_logs = true;
      s.logs.clear();
      each(v, [&](const toml::node& n) { s.logs.push_back(as_string(n, name, key)); });
    } else if (key == "schedulers" || key == "predictors" || key == "corrections" || key == "estimate_models") {
      auto& list = key == "schedulers"   ? s.schedulers
                   : key == "predictors" ? s.predictors
                   : key == "corrections" ? s.corrections
                                          : s.estimate_models;
      list.clear();
      each(v, [&](const toml::node& n) { list.push_back(as_string(n, name, key)); });
    } else if (key == "loads") {
      each(v, [&](const toml::node& n) { s.loads.push_back(positive(n, name, key)); });
    } else if (key == "arrival_scales") {
      s.arrival_scales.clear();
      each(v, [&](const toml::node& n) { s.arrival_scales.push_back(positive(n, name, key)); });
    } else if (key == "procs") {
      s.procs.clear();
      each(v, [&](const toml::node& n) { s.procs.emplace_back(as_integer(n, name, key, 1)); });
    } else if (key == "kill_at_estimate" || key == "extend_estimates" || key == "feedback") {
      auto& list = key == "kill_at_estimate" ? s.kill_at_estimate
                   : key == "feedback"       ? s.feedback
                                             : s.extend_estimates;
      list.clear();
      each(v, [&](const toml::node& n) { list.push_back(as_bool(n, name, key)); });
    } else if (key == "warmup_fraction") {
      s.warmup_fraction.clear();
      each(v, [&](const toml::node& n) { s.warmup_fraction.push_back(fraction(n, name, key)); });
    } else if (key == "bsld_tau") {
      s.bsld_tau.clear();
      each(v, [&](const toml::node& n) { s.bsld_tau.push_back(as_integer(n, name, key, 1)); });
    } else if (key == "seeds") {
      s.seeds.clear();
      each(v, [&](const toml::node& n) { s.seeds.push_back(static_cast<uint64_t>(as_integer(n, name, key, 0))); });
    } else {
      fail(name, line_of(v), key, unknown_key(std::string(key), list_keys()));
    }
  }
  if (!has_logs) fail(name, 0, "logs", "missing (the logs to simulate)");
  if (!s.loads.empty() && root.contains("arrival_scales"))
    fail(name, spec_line(s, "loads"), "loads", "give loads or arrival_scales, not both");
  // A spec copied from a CLI list may keep the brackets that protect its commas there: one list element is one
  // spec here, so one pair of outer brackets is dropped.
  const auto unbracket = [](std::string& spec) {
    if (spec.size() >= 2 && spec.front() == '[' && spec.back() == ']') spec = spec.substr(1, spec.size() - 2);
  };
  for (auto& x : s.schedulers) unbracket(x);
  for (auto& x : s.predictors) unbracket(x);
  for (auto& p : s.includes)
    if (p.scheduler) unbracket(*p.scheduler);
  for (auto& p : s.excludes)
    if (p.scheduler) unbracket(*p.scheduler);
  // Predictor and correction names as the CLI spells the defaults.
  for (auto& p : s.predictors)
    if (p == "default") p.clear();
  for (auto& c : s.corrections)
    if (c == "none") c.clear();
  return s;
}

SweepSpec read_sweep_spec(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw SweepError(fmt::format("{}: cannot open the sweep spec", path));
  std::stringstream ss;
  ss << in.rdbuf();
  SweepSpec s = parse_sweep_spec(ss.str(), path);
  s.dir = std::filesystem::path(path).parent_path().string();
  return s;
}

std::string sweep_log_path(const SweepSpec& spec, const std::string& log) {
  if (spec.dir.empty() || log.empty() || log == "-" || std::filesystem::path(log).is_absolute()) return log;
  return (std::filesystem::path(spec.dir) / log).lexically_normal().string();
}

namespace {

// The simulation of a (scheduler, predictor, correction) of the spec: a name the caller gave an object of its own
// runs that object (named so in the rows), any other is a spec of the registries.
SimulationSpec policy_spec(const SweepSpec& s, const std::string& scheduler, const std::string& predictor,
                           const std::string& correction) {
  SimulationSpec spec;
  spec.scheduler = scheduler;
  spec.correction = correction;
  spec.files_dir = s.dir;
  spec.by_class = sim::JobClassLimits{};  // the class columns: runtime at most 1 h is short, 8 processors narrow
  if (const auto it = s.scheduler_objects.find(scheduler); it != s.scheduler_objects.end()) {
    spec.scheduler_object = it->second;
    spec.sim.check = true;  // a scheduler of one's own runs under the engine's invariant checks, as in simulate
  }
  if (const auto it = s.predictor_objects.find(predictor); it != s.predictor_objects.end())
    spec.predictor_object = it->second;
  else
    spec.predictor = predictor;
  return spec;
}

// The caller's objects are named apart from the built-in policies: a row names its run by that name alone.
void check_object_names(const SweepSpec& s) {
  // Plain loops over the pairs, not structured bindings: the lambdas below compare with the name (clang 14 cannot
  // capture a binding).
  for (const auto& entry : s.scheduler_objects) {
    const std::string& name = entry.first;
    if (!entry.second) throw SweepError(fmt::format("{}: scheduler '{}' has no object", s.name, name));
    const auto& known = sim::schedulers();
    if (sim::find_preset(name) ||
        std::any_of(known.begin(), known.end(), [&](const sim::SchedulerEntry& e) { return e.name == name; }))
      throw SweepError(fmt::format("{}: schedulers: '{}' names a built-in scheduler, and a scheduler of your own "
                                   "too; give yours another name (rows name a run by it)",
                                   s.name, base::excerpt(name)));
  }
  for (const auto& entry : s.predictor_objects) {
    const std::string& name = entry.first;
    if (!entry.second) throw SweepError(fmt::format("{}: predictor '{}' has no object", s.name, name));
    const auto& known = predict::predictors();
    if (std::any_of(known.begin(), known.end(), [&](const predict::PredictorEntry& e) { return e.name == name; }))
      throw SweepError(fmt::format("{}: predictors: '{}' names a built-in predictor, and a predictor of your own "
                                   "too; give yours another name (rows name a run by it)",
                                   s.name, base::excerpt(name)));
  }
}

}  // namespace

std::vector<SweepRun> expand_sweep(const SweepSpec& s) {
  check_object_names(s);
  // A value given twice in a list would run every run with it twice (and count twice in a report's means).
  const auto refuse_repeats = [&](const auto& list, const std::string& key, const auto& text) {
    std::map<std::decay_t<decltype(list.front())>, size_t> first;  // value -> its first item (a long list: n log n)
    for (size_t i = 0; i < list.size(); ++i) {
      const auto [at, inserted] = first.emplace(list[i], i);
      if (!inserted)
        fail(s.name, spec_line(s, key), key,
             fmt::format("{} is given twice (items {} and {})", text(list[i]), at->second + 1, i + 1));
    }
  };
  // A value as messages show it (base::excerpt: a spec can be long).
  const auto quoted = [](const std::string& v) {
    return fmt::format("'{}'", v.empty() ? "default" : base::excerpt(v));
  };
  const auto plain = [](const auto& v) { return fmt::format("{}", v); };
  refuse_repeats(s.logs, "logs", quoted);
  refuse_repeats(s.schedulers, "schedulers", quoted);
  refuse_repeats(s.predictors, "predictors", quoted);
  refuse_repeats(s.corrections, "corrections",
                 [](const std::string& v) { return fmt::format("'{}'", v.empty() ? "none" : base::excerpt(v)); });
  refuse_repeats(s.estimate_models, "estimate_models", quoted);
  refuse_repeats(s.loads, "loads", plain);
  refuse_repeats(s.arrival_scales, "arrival_scales", plain);
  refuse_repeats(s.procs, "procs",
                 [](const std::optional<int64_t>& v) { return v ? fmt::format("{}", *v) : std::string("the log's"); });
  refuse_repeats(s.kill_at_estimate, "kill_at_estimate", [](bool v) { return std::string(v ? "true" : "false"); });
  refuse_repeats(s.extend_estimates, "extend_estimates", [](bool v) { return std::string(v ? "true" : "false"); });
  refuse_repeats(s.feedback, "feedback", [](bool v) { return std::string(v ? "true" : "false"); });
  refuse_repeats(s.warmup_fraction, "warmup_fraction", plain);
  refuse_repeats(s.bsld_tau, "bsld_tau", plain);
  refuse_repeats(s.seeds, "seeds", plain);

  // Validate every policy combination and estimate model once, before any run.
  std::set<std::tuple<std::string, std::string, std::string>> policies;
  std::set<std::string> models;
  const auto check_policy = [&](const std::string& sch, const std::string& pred, const std::string& cor, int64_t line) {
    if (!policies.insert({sch, pred, cor}).second) return;
    const SimulationSpec spec = policy_spec(s, sch, pred, cor);
    try {
      (void)prepare_simulation(spec);
    } catch (const std::exception& e) {
      fail(s.name, line, "schedulers/predictors/corrections",
           fmt::format("scheduler '{}', predictor '{}', correction '{}': {}", base::excerpt(sch),
                       pred.empty() ? "default" : base::excerpt(pred), cor.empty() ? "none" : base::excerpt(cor),
                       e.what()));
    }
  };
  const auto check_model = [&](const std::string& m, int64_t line) {
    if (m == "real" || !models.insert(m).second) return;
    const auto [model, params] = model::split_model_spec(m);
    const auto& names = model::estimate_model_names();
    if (std::find(names.begin(), names.end(), model) == names.end()) {
      std::string known = "real";
      for (const auto& n : names) known += ", " + n;
      fail(s.name, line, "estimate_models",
           fmt::format("unknown model '{}' (known: {})", base::excerpt(model), known));
    }
    try {
      model::check_estimate_model(model, model::parse_params_text(params));
    } catch (const std::exception& e) {
      fail(s.name, line, "estimate_models", fmt::format("'{}': {}", base::excerpt(m), e.what()));
    }
  };

  std::vector<SweepRun> runs;
  size_t product_runs = 0;
  std::vector<size_t> exclude_matches(s.excludes.size(), 0);
  const std::vector<std::optional<double>> loads = [&] {
    std::vector<std::optional<double>> l;
    for (double x : s.loads) l.emplace_back(x);
    if (l.empty()) l.emplace_back(std::nullopt);
    return l;
  }();
  const std::vector<double> scales = s.loads.empty() ? s.arrival_scales : std::vector<double>{1.0};
  // The product's size before it is made (in floating point: it can pass 2^64).
  {
    const std::pair<const char*, size_t> lists[] = {
        {"logs", s.logs.size()},
        {"schedulers", s.schedulers.size()},
        {"predictors", s.predictors.size()},
        {"corrections", s.corrections.size()},
        {"estimate_models", s.estimate_models.size()},
        {"loads", s.loads.size()},
        {"arrival_scales", s.loads.empty() ? s.arrival_scales.size() : 1},
        {"procs", s.procs.size()},
        {"kill_at_estimate", s.kill_at_estimate.size()},
        {"extend_estimates", s.extend_estimates.size()},
        {"feedback", s.feedback.size()},
        {"warmup_fraction", s.warmup_fraction.size()},
        {"bsld_tau", s.bsld_tau.size()},
        {"seeds", s.seeds.size()}};
    double product = 1;
    std::string sizes;
    for (const auto& [key, n] : lists) {
      if (n <= 1) continue;
      product *= static_cast<double>(n);
      sizes += fmt::format("{}{} {}", sizes.empty() ? "" : " x ", key, n);
    }
    if (product > static_cast<double>(kMaxSweepRuns))
      throw SweepError(fmt::format("{}: the spec's lists make {:.4g} runs ({}), more than the {} one sweep may hold: "
                                   "split it into several specs or give fewer values",
                                   s.name, product, sizes, kMaxSweepRuns));
    // A run holds its texts (log, scheduler, predictor, correction, estimate model): one longer than the string's
    // own buffer (15 bytes) is on the heap, its length + 1 rounded up to malloc's 16 bytes, plus 16 of header.
    // sizeof(SweepRun) alone (240 B) was half of what a run of 3 million took (about 500 B at the peak).
    const auto heap = [](const std::vector<std::string>& values) {
      double sum = 0;
      for (const std::string& v : values)
        if (v.size() > 15) sum += static_cast<double>((v.size() + 1 + 15) / 16 * 16 + 16);
      return values.empty() ? 0.0 : sum / static_cast<double>(values.size());
    };
    const double per_run = static_cast<double>(sizeof(SweepRun)) + heap(s.logs) + heap(s.schedulers) +
                           heap(s.predictors) + heap(s.corrections) + heap(s.estimate_models);
    base::check_fits_in_memory(product * per_run, fmt::format("{}: the list of its {:.4g} runs ({:.0f} bytes each)",
                                                              s.name, product, per_run));
    product_runs = static_cast<size_t>(product);
  }
  runs.reserve(product_runs + s.includes.size());  // no doubling of the vector at the peak
  // Each list alone first, so that the message points at the key that is wrong; then the combinations (a preset
  // takes no predictor or correction).
  const auto check_alone = [&](const std::string& key, const SimulationSpec& spec, const std::string& value) {
    try {
      (void)prepare_simulation(spec);
    } catch (const std::exception& e) {
      fail(s.name, spec_line(s, key), key, fmt::format("'{}': {}", base::excerpt(value), e.what()));
    }
  };
  for (const auto& sch : s.schedulers) check_alone("schedulers", policy_spec(s, sch, "", ""), sch);
  for (const auto& pred : s.predictors) check_alone("predictors", policy_spec(s, "easy", pred, ""), pred);
  for (const auto& cor : s.corrections) check_alone("corrections", policy_spec(s, "easy", "", cor), cor);
  for (const auto& sch : s.schedulers)
    for (const auto& pred : s.predictors)
      for (const auto& cor : s.corrections) check_policy(sch, pred, cor, spec_line(s, "schedulers"));
  for (const auto& m : s.estimate_models) check_model(m, spec_line(s, "estimate_models"));

  for (const auto& log : s.logs)
    for (const auto& sch : s.schedulers)
      for (const auto& pred : s.predictors)
        for (const auto& cor : s.corrections)
          for (const auto& em : s.estimate_models)
            for (const auto& load : loads)
              for (double scale : scales)
                for (const auto& procs : s.procs)
                  for (bool kill : s.kill_at_estimate)
                    for (bool extend : s.extend_estimates)
                      for (bool feedback : s.feedback)
                        for (double warm : s.warmup_fraction)
                          for (int64_t tau : s.bsld_tau)
                            for (uint64_t seed : s.seeds) {
                              SweepRun r;
                              r.log = log;
                              r.scheduler = sch;
                              r.predictor = pred;
                              r.correction = cor;
                              r.estimate_model = em;
                              r.load = load;
                              r.arrival_scale = scale;
                              r.procs = procs;
                              r.kill_at_estimate = kill;
                              r.extend_estimates = extend;
                              r.feedback = feedback;
                              r.warmup_fraction = warm;
                              r.bsld_tau = tau;
                              r.seed = seed;
                              bool excluded = false;
                              for (size_t e = 0; e < s.excludes.size(); ++e)
                                if (matches(s.excludes[e], r)) {
                                  ++exclude_matches[e];
                                  excluded = true;
                                }
                              if (excluded) continue;
                              runs.push_back(std::move(r));
                            }
  // An [[exclude]] that matches nothing is a typo or a value no list has: the runs it was meant to drop would run.
  for (size_t e = 0; e < s.excludes.size(); ++e)
    if (exclude_matches[e] == 0)
      throw SweepError(fmt::format("{}:{}: exclude: this [[exclude]] matches no run of the spec (a value that is "
                                   "not in the spec's lists, or misspelt?)",
                                   s.name, s.excludes[e].line));
  std::set<std::string> have;  // the runs' parameters, filled at the first include
  for (const SweepPattern& p : s.includes) {
    SweepRun r;
    r.log = p.log.value_or(s.logs.front());
    r.scheduler = p.scheduler.value_or(s.schedulers.front());
    r.predictor = p.predictor.value_or(s.predictors.front());
    if (r.predictor == "default") r.predictor.clear();
    r.correction = p.correction.value_or(s.corrections.front());
    if (r.correction == "none") r.correction.clear();
    r.estimate_model = p.estimate_model.value_or(s.estimate_models.front());
    r.load = p.load ? p.load : (p.arrival_scale ? std::nullopt : loads.front());
    r.arrival_scale = p.arrival_scale.value_or(scales.front());
    r.procs = p.procs ? p.procs : s.procs.front();
    r.kill_at_estimate = p.kill_at_estimate.value_or(s.kill_at_estimate.front());
    r.extend_estimates = p.extend_estimates.value_or(s.extend_estimates.front());
    r.feedback = p.feedback.value_or(s.feedback.front());
    r.warmup_fraction = p.warmup_fraction.value_or(s.warmup_fraction.front());
    r.bsld_tau = p.bsld_tau.value_or(s.bsld_tau.front());
    r.seed = p.seed.value_or(s.seeds.front());
    check_policy(r.scheduler, r.predictor, r.correction, p.line);
    check_model(r.estimate_model, p.line);
    // An include of a run the spec already has would run it twice (the indices are all 0 until the end).
    if (have.empty())
      for (const SweepRun& other : runs) have.insert(sweep_run_parameters(other));
    if (!have.insert(sweep_run_parameters(r)).second)
      fail(s.name, p.line, "include", "this [[include]] is a run the spec already has (the product's or an "
                                      "earlier include's)");
    runs.push_back(std::move(r));
  }
  // An empty run set is a spec that excludes everything: a sweep of nothing would look complete.
  if (runs.empty())
    throw SweepError(fmt::format("{}: the spec has no run (its [[exclude]] tables exclude every run of the product)",
                                 s.name));
  for (size_t i = 0; i < runs.size(); ++i) runs[i].index = i;
  return runs;
}

namespace {

// Metric columns: name and JSON pointer into `to_json(Simulation)`.
const std::vector<std::pair<std::string, std::string>>& metric_columns() {
  static const std::vector<std::pair<std::string, std::string>> cols = [] {
    std::vector<std::pair<std::string, std::string>> c;
    for (const char* m : {"wait", "response", "slowdown", "bounded_slowdown"})
      for (const char* q : {"mean", "median", "p90", "max"})
        c.emplace_back(fmt::format("{}_{}", m, q), fmt::format("/metrics/{}/{}", m, q));
    for (const char* m : {"utilization", "makespan", "kills", "suspensions", "backfilled", "backfilled_share",
                          "loss_of_capacity"})
      c.emplace_back(m, fmt::format("/metrics/{}", m));
    for (const char* m : {"offered_load", "deadline_misses", "overdue_misses"})
      c.emplace_back(m, fmt::format("/{}", m));
    c.emplace_back("machine_procs", "/procs");
    for (const char* m : {"records", "simulated", "excluded_total", "warmup_excluded", "killed", "extended",
                          "without_estimate"})
      c.emplace_back(fmt::format("jobs_{}", m), fmt::format("/jobs/{}", m));
    for (const char* m : {"relative_accuracy_mean", "relative_accuracy_median", "absolute_error_mean",
                          "absolute_error_median", "underestimated_share"})
      c.emplace_back(fmt::format("accuracy_{}", m), fmt::format("/accuracy/{}", m));
    c.emplace_back("adaptive_switch_points", "/adaptive/switch_points");
    c.emplace_back("adaptive_switches", "/adaptive/switches");
    // Who gains and who pays: the default job classes' means (sim/job_classes.h), "short_narrow_wait_mean", ...
    for (size_t i = 0; i < std::size(sim::kJobClassNames); ++i) {
      std::string name = sim::kJobClassNames[i];
      std::replace(name.begin(), name.end(), ' ', '_');
      for (const char* m : {"wait_mean", "bounded_slowdown_mean"})
        c.emplace_back(fmt::format("{}_{}", name, m), fmt::format("/by_class/classes/{}/{}", i, m));
    }
    return c;
  }();
  return cols;
}

constexpr const char* kParameterColumns[] = {"run",           "log",             "scheduler",        "predictor",
                                            "correction",    "estimate_model",  "load",             "arrival_scale",
                                            "procs",         "kill_at_estimate", "extend_estimates", "feedback",
                                            "warmup_fraction", "bsld_tau",      "seed",             "status"};

constexpr size_t kStatusColumn = std::size(kParameterColumns) - 1;

nlohmann::json optional_json(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

// The parameter columns of a run (all of kParameterColumns but status).
std::vector<nlohmann::json> parameter_values(const SweepRun& r) {
  return {r.index,
          r.log,
          r.scheduler,
          r.predictor.empty() ? "estimate" : r.predictor,
          r.correction.empty() ? "none" : r.correction,
          r.estimate_model,
          optional_json(r.load),
          r.arrival_scale,
          r.procs ? nlohmann::json(*r.procs) : nlohmann::json(),
          r.kill_at_estimate,
          r.extend_estimates,
          r.feedback,
          r.warmup_fraction,
          r.bsld_tau,
          r.seed};
}

SweepRow run_one(const SweepRun& r, const swf::Log& log, const SweepSpec& s) {
  SweepRow row;
  row.index = r.index;
  row.values = parameter_values(r);
  row.values.emplace_back("ok");
  const auto t0 = std::chrono::steady_clock::now();
  nlohmann::json result;
  try {
    SimulationSpec spec = policy_spec(s, r.scheduler, r.predictor, r.correction);
    spec.workload.procs = r.procs;
    spec.workload.kill_at_estimate = r.kill_at_estimate;
    spec.workload.extend_estimates = r.extend_estimates;
    spec.workload.feedback = r.feedback;
    spec.workload.load = r.load;
    spec.workload.arrival_scale = r.arrival_scale;
    spec.sim.bsld_tau = r.bsld_tau;
    spec.sim.warmup_fraction = r.warmup_fraction;
    spec.sim.seed = r.seed;
    const PreparedSimulation prepared = prepare_simulation(spec);
    if (r.estimate_model == "real") {
      result = to_json(run_simulation(prepared, log));
    } else {
      swf::Log copy;  // the estimate model rewrites field 9 of a copy; the shared log stays untouched
      copy.header = log.header;
      copy.records = log.records;
      const auto [name, params] = model::split_model_spec(r.estimate_model);
      (void)model::apply_estimate_model(name, model::parse_params_text(params), copy.records, r.seed);
      result = to_json(run_simulation(prepared, copy));
    }
    if (result.contains("warnings") && !result["warnings"].empty()) {
      row.warnings = result["warnings"].get<std::vector<std::string>>();
      row.warned_predictor = result["predictor"].get<std::string>();
    }
  } catch (const std::exception& e) {
    row.values.back() = std::string("error: ") + e.what();
  }
  for (const auto& [col, pointer] : metric_columns()) {
    const nlohmann::json::json_pointer p(pointer);
    row.values.push_back(result.contains(p) ? result.at(p) : nlohmann::json());
  }
  row.values.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return row;
}

std::string cell_text(const nlohmann::json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_float()) {
    const double d = v.get<double>();
    return std::isfinite(d) ? fmt::format("{}", d) : "";
  }
  return base::json_text(v);
}

using base::csv_field;

constexpr size_t kParameterCount = std::size(kParameterColumns) - 1;  // all but status

std::string parameters_text(const std::vector<std::string>& cells) {
  std::string s;
  for (size_t i = 0; i < kParameterCount && i < cells.size(); ++i) {
    if (i > 0) s += ',';
    s += csv_field(cells[i]);
  }
  return s;
}

}  // namespace

const std::vector<std::string>& sweep_columns() {
  static const std::vector<std::string> cols = [] {
    std::vector<std::string> c(std::begin(kParameterColumns), std::end(kParameterColumns));
    for (const auto& [name, pointer] : metric_columns()) c.push_back(name);
    c.emplace_back("wall_seconds");
    return c;
  }();
  return cols;
}

std::string sweep_csv_header() {
  std::string s;
  for (const auto& c : sweep_columns()) {
    if (!s.empty()) s += ',';
    s += c;
  }
  s += '\n';
  return s;
}

std::string sweep_csv_line(const SweepRow& row) {
  std::string s;
  for (size_t i = 0; i < row.values.size(); ++i) {
    if (i > 0) s += ',';
    s += csv_field(cell_text(row.values[i]));
  }
  s += '\n';
  return s;
}

std::string sweep_jsonl_line(const SweepRow& row) {
  nlohmann::ordered_json j;
  const auto& cols = sweep_columns();
  for (size_t i = 0; i < row.values.size() && i < cols.size(); ++i) {
    const auto& v = row.values[i];
    j[cols[i]] = v.is_number_float() && !std::isfinite(v.get<double>()) ? nlohmann::json() : v;
  }
  return base::json_text(j) + "\n";
}

std::string sweep_seeds_warning(const SweepSpec& spec, const std::vector<SweepRun>& runs) {
  std::set<uint64_t> seeds;
  std::set<std::string> models;
  for (const SweepRun& r : runs) {
    seeds.insert(r.seed);
    const std::string model = model::split_model_spec(r.estimate_model).first;
    // A policy of the caller's own may draw on its seed; a random estimate model does.
    if (model::estimate_model_is_random(model) || spec.scheduler_objects.count(r.scheduler) > 0 ||
        spec.predictor_objects.count(r.predictor) > 0)
      return "";
    models.insert(model);
  }
  if (seeds.size() < 2) return "";
  std::string names;
  for (const std::string& m : models) names += (names.empty() ? "" : ", ") + m;
  std::string random;
  for (const auto& e : model::estimate_models())
    if (e.random) random += fmt::format("{}{}", random.empty() ? "" : ", ", e.name);
  return fmt::format("seeds: {} seeds, but no run draws a random number (estimate model{} {}; the built-in "
                     "schedulers and predictors are deterministic), so every seed repeats the same results; seeds "
                     "vary the random estimate models ({})",
                     seeds.size(), models.size() == 1 ? "" : "s", names, random);
}

SweepSummary run_sweep(const SweepSpec& spec, const std::vector<SweepRun>& runs, const SweepOptions& o) {
  if (o.shards < 1 || o.shard < 0 || o.shard >= o.shards)
    throw SweepError(fmt::format("shard {}/{}: the shard must be in 0..{}", o.shard, o.shards, o.shards - 1));
  base::check_threads(o.threads);
  const auto t0 = std::chrono::steady_clock::now();
  SweepSummary sum;
  sum.total = runs.size();
  std::vector<const SweepRun*> todo;
  for (const SweepRun& r : runs) {
    if (static_cast<int>(r.index % static_cast<size_t>(o.shards)) != o.shard) continue;
    if (o.skip.count(r.index)) {
      ++sum.skipped;
      continue;
    }
    todo.push_back(&r);
  }
  if (o.on_warning) {
    if (std::string w = sweep_seeds_warning(spec, runs); !w.empty()) o.on_warning(w);
  }
  // Every log once, shared read-only by all runs.
  std::map<std::string, std::shared_ptr<const swf::Log>> logs;
  for (const SweepRun* r : todo) {
    if (logs.count(r->log)) continue;
    const std::string path = sweep_log_path(spec, r->log);
    try {
      logs[r->log] = std::make_shared<const swf::Log>(swf::read_swf_or_csv(path));
    } catch (const std::exception& e) {
      fail(spec.name, spec_line(spec, "logs"), "logs", e.what());
    }
    if (o.on_warning) {
      for (const std::string& w : trace::header_warnings(logs[r->log]->header, path)) o.on_warning(w);
      if (std::string note = swf::partial_executions_note(*logs[r->log]); !note.empty()) o.on_warning(note);
    }
  }

  std::mutex mu;
  std::set<std::string> warned;      // predictors whose warning was given (once each: a sweep runs them many times)
  std::map<size_t, SweepRow> ready;  // finished, not yet handed out (by position in todo)
  size_t next_out = 0, done = 0;
  // A row that cannot be written (a full disk) ends the sweep with that error, the rows before it written.
  base::parallel_for(base::worker_threads(o.threads, todo.size()), todo.size(), [&](size_t k, unsigned) {
    if (o.stop != nullptr && o.stop->load()) return;
    SweepRow row = run_one(*todo[k], *logs.at(todo[k]->log), spec);
    std::lock_guard<std::mutex> lock(mu);
    if (row.values[kStatusColumn] != "ok") ++sum.failed;
    if (o.on_warning && !row.warnings.empty() && warned.insert(row.warned_predictor).second)
      for (const std::string& w : row.warnings)
        o.on_warning(fmt::format("run {}: {} (said once for this predictor)", row.index, w));
    ready.emplace(k, std::move(row));
    ++done;
    // Hand rows out in order: a row waits until every earlier run of the list is out.
    for (auto it = ready.find(next_out); it != ready.end(); it = ready.find(next_out)) {
      if (o.on_row) o.on_row(it->second);
      ready.erase(it);
      ++next_out;
    }
    if (o.progress) o.progress(done, todo.size());
  });
  // After a stop, rows that finished behind a run that never started are dropped, so that the output stays the
  // runs' order: a resume runs them again.
  sum.run = next_out;
  sum.stopped = next_out < todo.size();
  sum.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return sum;
}

std::vector<SweepOutputRow> read_sweep_output(const std::string& path, bool jsonl, size_t total_runs,
                                              bool cut_partial_line) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};  // no output yet
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  in.close();
  // A last line without its end was cut by a crash: it is not a row (and is dropped from the file if asked).
  const size_t complete = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
  if (cut_partial_line && complete < text.size()) std::filesystem::resize_file(path, complete);
  return parse_sweep_output(text, path, jsonl, total_runs);
}

std::vector<SweepOutputRow> parse_sweep_output(const std::string& text, const std::string& path, bool jsonl,
                                               size_t total_runs) {
  std::vector<SweepOutputRow> rows;
  const size_t complete = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
  std::istringstream lines(text.substr(0, complete));
  std::string line;
  int64_t n = 0;
  const std::string header = sweep_csv_header();
  const auto& cols = sweep_columns();
  std::map<size_t, int64_t> seen;  // run -> its line
  while (std::getline(lines, line)) {
    ++n;
    std::vector<std::string> cells;
    if (!jsonl) {
      if (n == 1) {
        if (line + "\n" != header)
          throw SweepError(fmt::format("{}:1: not the header of a sweep output with these columns (another "
                                       "schedlab version or another file): write to a new file",
                                       path));
        continue;
      }
      cells = base::split_csv_line(line);
      if (cells.size() != cols.size())
        throw SweepError(fmt::format("{}:{}: not a sweep row ({} cells, {} expected)", path, n, cells.size(),
                                     cols.size()));
    } else {
      nlohmann::json j;
      try {
        j = base::parse_json(line);
      } catch (const std::exception&) {  // malformed, or nested too deep to be a row
        throw SweepError(fmt::format("{}:{}: not a JSON line", path, n));
      }
      if (!j.is_object() || j.size() != cols.size())
        throw SweepError(fmt::format("{}:{}: not a sweep row with these columns", path, n));
      for (size_t c = 0; c < kParameterCount; ++c) {
        if (!j.contains(cols[c])) throw SweepError(fmt::format("{}:{}: no \"{}\" in the row", path, n, cols[c]));
        cells.push_back(cell_text(j[cols[c]]));
      }
    }
    SweepOutputRow row;
    row.line = n;
    if (cells[0].empty() || cells[0].find_first_not_of("0123456789") != std::string::npos)
      throw SweepError(fmt::format("{}:{}: not a sweep row (run number expected)", path, n));
    try {
      row.run = std::stoul(cells[0]);
    } catch (const std::exception&) {
      throw SweepError(fmt::format("{}:{}: not a sweep row (run number expected)", path, n));
    }
    if (row.run >= total_runs)
      throw SweepError(fmt::format("{}:{}: run {} is not in this spec ({} runs): another spec's output?", path, n,
                                   row.run, total_runs));
    if (const auto [it, fresh] = seen.emplace(row.run, n); !fresh)
      throw SweepError(fmt::format("{}:{}: run {} again (first at line {}): two sweeps wrote to this file?", path, n,
                                   row.run, it->second));
    cells.resize(kParameterCount);
    row.parameters = parameters_text(cells);
    row.text = line;
    rows.push_back(std::move(row));
  }
  return rows;
}

namespace {

// Columns added after the sweep output first had its columns, with the value an older row means.
struct LaterColumn {
  const char* name;
  bool old_value;
};
constexpr LaterColumn kLaterColumns[] = {{"feedback", false}};

const LaterColumn* later_column(const std::string& name) {
  for (const LaterColumn& c : kLaterColumns)
    if (name == c.name) return &c;
  return nullptr;
}

}  // namespace

std::string upgraded_sweep_output(const std::string& text, bool jsonl, const std::string& name) {
  const auto& cols = sweep_columns();
  const size_t complete = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
  std::string out;
  size_t start = 0;
  int64_t n = 0;
  // CSV: for each of today's columns, the older header's cell it comes from (-1: a later column, given its value).
  std::vector<int64_t> from;
  size_t header_cells = 0;
  bool changed = false;
  while (start < complete) {
    const size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    ++n;
    if (jsonl) {
      nlohmann::ordered_json j;
      try {
        j = nlohmann::ordered_json::parse(line);
      } catch (const std::exception&) {
        out += line + "\n";  // read_sweep_output says what is wrong with it
        continue;
      }
      if (!j.is_object() || std::none_of(std::begin(kLaterColumns), std::end(kLaterColumns),
                                         [&](const LaterColumn& c) { return !j.contains(c.name); })) {
        out += line + "\n";
        continue;
      }
      nlohmann::ordered_json up;
      for (const std::string& c : cols) {
        if (j.contains(c)) up[c] = j[c];
        else if (const LaterColumn* later = later_column(c)) up[c] = later->old_value;
      }
      for (auto it = j.begin(); it != j.end(); ++it)
        if (!up.contains(it.key())) up[it.key()] = it.value();  // not a sweep's: read_sweep_output refuses it
      out += base::json_text(up) + "\n";
      changed = true;
      continue;
    }
    if (n == 1) {
      if (line + "\n" == sweep_csv_header()) return text;
      const std::vector<std::string> header = base::split_csv_line(line);
      size_t k = 0;
      for (const std::string& c : cols) {
        if (k < header.size() && header[k] == c) {
          from.push_back(static_cast<int64_t>(k++));
        } else if (later_column(c) != nullptr) {
          from.push_back(-1);
        } else {
          k = header.size() + 1;  // not an older header
          break;
        }
      }
      if (k != header.size())
        throw SweepError(fmt::format("{}:1: not the header of a sweep output with these columns (another "
                                     "schedlab version or another file): write to a new file",
                                     name));
      header_cells = header.size();
      out += sweep_csv_header();
      changed = true;
      continue;
    }
    const std::vector<std::string> cells = base::split_csv_line(line);
    if (cells.size() != header_cells)
      throw SweepError(fmt::format("{}:{}: not a sweep row ({} cells, {} expected)", name, n, cells.size(),
                                   header_cells));
    std::string row;
    for (size_t i = 0; i < from.size(); ++i) {
      if (i > 0) row += ',';
      row += csv_field(from[i] >= 0 ? cells[static_cast<size_t>(from[i])]
                                    : std::string(later_column(cols[i])->old_value ? "true" : "false"));
    }
    out += row + "\n";
  }
  if (!changed) return text;
  return out + text.substr(complete);
}

std::string sweep_run_parameters(const SweepRun& run) {
  std::vector<std::string> cells;
  for (const auto& v : parameter_values(run)) cells.push_back(cell_text(v));
  return parameters_text(cells);
}

std::set<size_t> sweep_done_runs(const std::string& path, bool jsonl, const std::vector<SweepRun>& runs) {
  std::set<size_t> done;
  for (const SweepOutputRow& row : read_sweep_output(path, jsonl, runs.size(), true)) {
    // Resuming after the spec changed would keep rows of runs the spec no longer has under indices it now gives
    // to other runs: the output would miss some runs and repeat others.
    const std::string want = sweep_run_parameters(runs[row.run]);
    if (row.parameters != want)
      throw SweepError(fmt::format("{}:{}: run {} was {} but the spec's run {} is {}: the spec changed since this "
                                   "output was written; write to a new file",
                                   path, row.line, row.run, row.parameters, row.run, want));
    done.insert(row.run);
  }
  return done;
}

namespace {

// FNV-1a, 64 bits, over each text and a '\n' after it: stable across builds and machines.
struct ParametersHash {
  uint64_t h = 1469598103934665603ull;
  void add(const std::string& text) {
    for (const char c : text) step(c);
    step('\n');
  }
  void step(char c) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  std::string text() const { return fmt::format("{:016x}", h); }
};

}  // namespace

std::string sweep_parameters_digest(const std::vector<std::string>& parameters) {
  ParametersHash hash;
  for (const std::string& p : parameters) hash.add(p);
  return hash.text();
}

std::string sweep_runs_digest(const std::vector<SweepRun>& runs) {
  // Run by run: the texts of 3 million runs held at once were the peak of `sweep --slurm` (1.5 GB).
  ParametersHash hash;
  for (const SweepRun& r : runs) hash.add(sweep_run_parameters(r));
  return hash.text();
}

namespace {

// The digest the schedlab before the later columns wrote for these runs: their parameters without those columns,
// possible only while every run has each column's old value (an earlier schedlab could not have run it otherwise).
class EarlierDigest {
 public:
  void add(const std::string& parameters) {
    if (!possible_) return;
    const std::vector<std::string> cells = base::split_csv_line(parameters);
    std::string earlier;
    for (size_t i = 0; i < cells.size(); ++i) {
      const LaterColumn* later = i < kParameterCount ? later_column(kParameterColumns[i]) : nullptr;
      if (later == nullptr) {
        earlier += (i > 0 ? "," : "") + csv_field(cells[i]);
      } else if (cells[i] != (later->old_value ? "true" : "false")) {
        possible_ = false;
        return;
      }
    }
    hash_.add(earlier);
  }
  bool matches(const std::string& digest) const { return possible_ && hash_.text() == digest; }

 private:
  ParametersHash hash_;
  bool possible_ = true;
};

}  // namespace

// Today's digest first: the earlier one (a second pass, splitting every run's cells) only for an array that is
// not today's, so a task of today's array starts as fast as before.
bool sweep_parameters_digest_matches(const std::vector<std::string>& parameters, const std::string& digest) {
  if (sweep_parameters_digest(parameters) == digest) return true;
  EarlierDigest d;
  for (const std::string& p : parameters) d.add(p);
  return d.matches(digest);
}

bool sweep_runs_digest_matches(const std::vector<SweepRun>& runs, const std::string& digest) {
  if (sweep_runs_digest(runs) == digest) return true;
  EarlierDigest d;
  for (const SweepRun& r : runs) d.add(sweep_run_parameters(r));
  return d.matches(digest);
}

namespace {

// The output, appended to one whole row per write(2) (a killed sweep leaves whole rows), and locked for the whole
// sweep: two sweeps writing one file interleaved their rows into a file neither could resume (both said they were
// complete). A file system without locks (Lustre mounted without flock) keeps the sweep running unlocked, as
// before, rather than refusing every sweep on it.
class RowFile {
 public:
  explicit RowFile(const std::string& path) : path_(path) {
    if (path == "-") {  // standard output: nothing to lock or to resume from
      path_ = "standard output";
      fd_ = STDOUT_FILENO;
      owned_ = false;
      return;
    }
    open_locked();
  }
  // After the file was replaced (renamed over): the new one, locked (the old one's lock goes with it).
  void reopen() {
    if (!owned_) return;
    ::close(fd_);
    fd_ = -1;
    open_locked();
  }
  ~RowFile() {
    if (fd_ >= 0 && owned_) ::close(fd_);
  }
  RowFile(const RowFile&) = delete;
  RowFile& operator=(const RowFile&) = delete;
  void write(const std::string& line) {
    size_t off = 0;
    while (off < line.size()) {
      const ssize_t n = ::write(fd_, line.data() + off, line.size() - off);
      if (n < 0) throw SweepError(fmt::format("{}: write failed: {}", path_, std::strerror(errno)));
      off += static_cast<size_t>(n);
    }
  }

 private:
  void open_locked() {
    const std::string& path = path_;
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd_ < 0) throw SweepError(fmt::format("{}: cannot write the sweep output: {}", path, std::strerror(errno)));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      if (err == ENOLCK || err == ENOSYS || err == EOPNOTSUPP || err == EINVAL) return;  // no locks here
      ::close(fd_);
      fd_ = -1;
      if (err == EWOULDBLOCK)
        throw SweepError(
            fmt::format("{}: another sweep is writing to this file (wait for it, or write to another file)", path));
      throw SweepError(fmt::format("{}: cannot lock the sweep output: {}", path, std::strerror(err)));
    }
  }

  std::string path_;
  int fd_ = -1;
  bool owned_ = true;
};

}  // namespace

SweepSummary run_sweep_to_file(const SweepSpec& spec, const std::vector<SweepRun>& runs, const std::string& path,
                               bool jsonl, SweepOptions options) {
  base::check_threads(options.threads);  // before the output file is created
  std::error_code ec;
  const bool to_stdout = path == "-";
  const bool existed = !to_stdout && std::filesystem::exists(path, ec);
  RowFile out(path);  // locked before the rows already there are read (a new file is empty: nothing to refuse)
  if (existed) {
    // An output of an earlier schedlab: rewritten in today's columns first (beside it, renamed over it: a crash
    // leaves the old file or the new one whole), then resumed like any other. Its first line tells (an upgrade
    // rewrites every line), so today's outputs are not read twice.
    std::ifstream in(path, std::ios::binary);
    std::string first;
    std::getline(in, first);
    if (!first.empty() && upgraded_sweep_output(first + "\n", jsonl, path) != first + "\n") {
      std::stringstream ss;
      ss << first << '\n' << in.rdbuf();
      swf::write_text_file(path, upgraded_sweep_output(ss.str(), jsonl, path));
      out.reopen();
      if (options.on_warning) {
        std::string added;
        for (const LaterColumn& c : kLaterColumns)
          added += fmt::format("{}{} = {}", added.empty() ? "" : ", ", c.name, c.old_value);
        options.on_warning(fmt::format("{}: written by an earlier schedlab: rewritten in today's columns, its rows "
                                       "with {} (what its runs were)",
                                       path, added));
      }
    }
  }
  if (!to_stdout) options.skip = sweep_done_runs(path, jsonl, runs);
  // The header goes with the first row (or at the end, with none): written first, it reached standard output
  // before a log that cannot be read stopped the sweep, a header with no rows for the pipe behind it.
  bool header_due = (to_stdout || std::filesystem::file_size(path) == 0) && !jsonl;
  const auto on_row = options.on_row;
  size_t rows = 0;
  options.on_row = [&](const SweepRow& row) {
    if (header_due) out.write(sweep_csv_header());
    header_due = false;
    out.write(jsonl ? sweep_jsonl_line(row) : sweep_csv_line(row));
    ++rows;
    if (on_row) on_row(row);
  };
  try {
    SweepSummary sum = run_sweep(spec, runs, options);
    if (header_due) out.write(sweep_csv_header());
    return sum;
  } catch (...) {
    // A sweep that failed before its first row (a log it cannot read) leaves no output it made: a header alone
    // looked like a sweep begun. An existing file, or one with rows to resume from, stays.
    if (!to_stdout && !existed && rows == 0) std::filesystem::remove(path, ec);
    throw;
  }
}

}  // namespace schedlab::experiments
