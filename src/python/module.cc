// schedlab._core: the library for Python (pybind11). Like the CLI, this layer only converts, calls and returns:
// every computation is the library's. The user-facing module is python/schedlab/__init__.py (DataFrames,
// docstrings); docs/python.md.
//
// Logs cross as a `Log` handle (an immutable swf::Log shared by reference, so a log read once serves many
// simulations) built from a file or from column arrays; columns leave as NumPy arrays filled from the C++ records
// in one pass, no Python loop. Library errors become Python exceptions with the library's message: bad input
// (std::invalid_argument, swf::ReadError, SweepError, ...) ValueError, an unreadable or unwritable file OSError.
// Simulations and sweeps release the GIL; schedulers and predictors written in Python (PyScheduler below,
// PyPredictor in py_predictor.h) take it back for each call the engine makes to them.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include <fmt/core.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "py_predictor.h"

#include "schedlab/analysis/attribute.h"
#include "schedlab/base/duration.h"
#include "schedlab/analysis/locality.h"
#include "schedlab/analysis/runs.h"
#include "schedlab/analysis/summary.h"
#include "schedlab/analysis/temporal.h"
#include "schedlab/analysis/categories.h"
#include "schedlab/analysis/diversity.h"
#include "schedlab/base/json_text.h"
#include "schedlab/base/progress_text.h"
#include "schedlab/base/version.h"
#include "schedlab/experiments/categorize_report.h"
#include "schedlab/experiments/compare.h"
#include "schedlab/experiments/distance_report.h"
#include "schedlab/experiments/diversity_study.h"
#include "schedlab/experiments/profiler_report.h"
#include "schedlab/experiments/report.h"
#include "schedlab/model/estimate_bins.h"
#include "schedlab/predict/profiler.h"
#include "schedlab/predict/profiler_db.h"
#include "schedlab/experiments/flurries_report.h"
#include "schedlab/experiments/locality_report.h"
#include "schedlab/experiments/log_replay.h"
#include "schedlab/experiments/runs_report.h"
#include "schedlab/experiments/session_study.h"
#include "schedlab/experiments/temporal_report.h"
#include "schedlab/model/estimate_fit.h"
#include "schedlab/model/estimate_models.h"
#include "schedlab/predict/correction.h"
#include "schedlab/model/locality_model.h"
#include "schedlab/model/profiler_experiment.h"
#include "schedlab/model/talby_model.h"
#include "schedlab/trace/filter_log.h"
#include "schedlab/trace/id_names.h"
#include "schedlab/trace/flurries.h"
#include "schedlab/trace/log_time.h"
#include "schedlab/experiments/log_summary.h"
#include "schedlab/experiments/simulation.h"
#include "schedlab/experiments/sweep.h"
#include "schedlab/experiments/sweep_array.h"
#include "schedlab/predict/registry.h"
#include "schedlab/swf/csv.h"
#include "schedlab/swf/sacct.h"
#include "schedlab/swf/writer.h"
#include "schedlab/sim/job_classes.h"
#include "schedlab/sim/job_output.h"
#include "schedlab/sim/scheduler_registry.h"
#include "schedlab/swf/reader.h"
#include "schedlab/swf/record.h"
#include "schedlab/swf/writer.h"

namespace py = pybind11;
using namespace schedlab;

namespace {

using LogPtr = std::shared_ptr<swf::Log>;  // never modified once built (pybind11 holders are non-const)

// Text from a log (a header line, a file name) as Python's str: bytes that are not UTF-8 (a Latin-1 header) become
// lone surrogates, as os.fsdecode makes them, and the package encodes them back to the same bytes
// ("surrogateescape"); a strict decode raised UnicodeDecodeError from read_swf of such a log.
py::str py_text(const std::string& s) {
  PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "surrogateescape");
  if (o == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(o);
}

py::list py_texts(const std::vector<std::string>& v) {
  py::list l;
  for (const auto& s : v) l.append(py_text(s));
  return l;
}

// An exception's message as Python's: PyErr_SetString decodes it strictly, and a message quoting a header line
// that is not UTF-8 became a UnicodeDecodeError in its place.
void set_error(PyObject* type, const char* message) {
  PyObject* text = PyUnicode_DecodeUTF8(message, static_cast<Py_ssize_t>(std::strlen(message)), "replace");
  if (text == nullptr) return;  // the decode's own error is set
  PyErr_SetObject(type, text);
  Py_DECREF(text);
}

// What a long call is doing: Ctrl-C's flag, and the progress its work reports (done of total units), which the
// waiting thread shows on sys.stderr (schedlab.show_progress).
struct Control {
  Control(const char* what_, const char* unit_) : what(what_), unit(unit_) {}
  std::atomic<bool> stop{false};
  std::atomic<size_t> done{0}, total{0};
  const char* what;
  const char* unit;
};

// schedlab.show_progress(on, after): as the CLI, nothing for a call shorter than `after` seconds, then a line every
// 10 s, or one redrawn in place five times a second when sys.stderr is a terminal.
struct ProgressSettings {
  bool on = true;
  double after = 2.0;
};
ProgressSettings& progress_settings() {
  static ProgressSettings settings;
  return settings;
}

// The progress line of `c` on sys.stderr (the GIL held). `tty`: redrawn in place.
class ProgressLine {
 public:
  explicit ProgressLine(const Control& c) : c_(c), start_(std::chrono::steady_clock::now()) {}
  void tick() {
    const ProgressSettings& ps = progress_settings();
    const size_t total = c_.total, done = c_.done;
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    if (!ps.on || total == 0 || elapsed < ps.after) return;
    if (!shown_) tty_ = is_tty();
    if (shown_ && std::chrono::duration<double>(now - last_).count() < (tty_ ? 0.2 : 10.0)) return;
    const std::string text =
        base::progress_text(fmt::format("schedlab {}", c_.what), c_.unit, done, total, elapsed, tty_);
    write(tty_ ? fmt::format("\r{:<{}}", text, width_) : text + "\n");
    width_ = std::max(width_, text.size());
    shown_ = true;
    last_ = now;
  }
  // A line redrawn in place is erased at the end (the result follows it).
  void finish() {
    if (shown_ && tty_) write(fmt::format("\r{:<{}}\r", "", width_));
  }

 private:
  static bool is_tty() {
    try {
      return py::module_::import("sys").attr("stderr").attr("isatty")().cast<bool>();
    } catch (const std::exception&) {
      return false;
    }
  }
  static void write(const std::string& text) {
    try {
      const py::object err = py::module_::import("sys").attr("stderr");
      err.attr("write")(text);
      err.attr("flush")();
    } catch (py::error_already_set&) {  // no stderr to write to (None): no progress
    }
  }
  const Control& c_;
  std::chrono::steady_clock::time_point start_, last_;
  bool shown_ = false, tty_ = false;
  size_t width_ = 0;
};

// Runs `work` (without the GIL) on a thread of its own while this one looks for a signal every 0.1 s and shows the
// progress: Ctrl-C sets `stop`, the work ends after the runs under way, and KeyboardInterrupt is raised. Without it
// a sweep went on to its last run, however many hours away, and only then raised it (and a sweep to a file had
// written every row). Only Python's main thread sees signals; elsewhere this just waits.
template <class Work>
void interruptible(Control& control, Work&& work) {
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  std::exception_ptr error;
  std::thread worker([&] {
    try {
      work();
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(mu);
    done = true;
    cv.notify_all();
  });
  bool interrupted = false;
  ProgressLine line(control);
  for (;;) {
    {
      py::gil_scoped_release release;
      std::unique_lock<std::mutex> lock(mu);
      if (cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return done; })) break;
    }
    if (!interrupted && PyErr_CheckSignals() != 0) {  // the handler's exception (KeyboardInterrupt) is now set
      interrupted = true;
      control.stop = true;
    }
    if (!interrupted) line.tick();
  }
  worker.join();
  if (interrupted) {
    py::error_already_set e;  // takes KeyboardInterrupt out of the way of the progress line's write
    line.finish();
    throw e;
  }
  line.finish();
  if (error) std::rethrow_exception(error);
}

// A long computation's progress hook: it records the progress, and ends the computation once `stop` is set (the
// engine calls it every 0.2 s at most; the exception unwinds the run, and interruptible raises KeyboardInterrupt
// in its place).
struct Interrupted : std::exception {
  const char* what() const noexcept override { return "interrupted"; }
};
std::function<void(size_t, size_t)> stop_hook(Control& control) {
  return [&control](size_t done, size_t total) {
    control.done = done;
    control.total = total;
    if (control.stop) throw Interrupted();
  };
}

// nlohmann JSON -> Python objects (dict, list, float, int, str, bool, None).
py::object to_python(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::object: {
      py::dict d;
      for (const auto& [k, v] : j.items()) d[py_text(k)] = to_python(v);
      return d;
    }
    case nlohmann::json::value_t::array: {
      py::list l;
      for (const auto& v : j) l.append(to_python(v));
      return l;
    }
    case nlohmann::json::value_t::string: return py_text(j.get_ref<const std::string&>());
    case nlohmann::json::value_t::boolean: return py::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer: return py::int_(j.get<int64_t>());
    case nlohmann::json::value_t::number_unsigned: return py::int_(j.get<uint64_t>());
    case nlohmann::json::value_t::number_float: return py::float_(j.get<double>());
    default: return py::none();
  }
}

// A choice by name, parsed by the library's parse_… function; anything else is a ValueError naming the
// parameter and the library's names for its choices.
template <typename T>
T choice(const char* param, const std::string& given, const std::optional<T>& parsed,
         const std::vector<std::string>& names) {
  if (parsed) return *parsed;
  std::string known;
  for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
  std::string message = param;
  message += " '";
  message += given;
  message += "': one of ";
  message += known;
  throw py::value_error(message);
}

nlohmann::json ordered_to_plain(const nlohmann::ordered_json& j) { return nlohmann::json::parse(base::json_text(j)); }

// A missing input file is Python's FileNotFoundError (the library's errors are ValueError or OSError).
void require_file(const std::string& path) {
  std::error_code ec;
  if (path != "-" && !std::filesystem::exists(path, ec)) {
    set_error(PyExc_FileNotFoundError, (path + ": no such file").c_str());
    throw py::error_already_set();
  }
}

LogPtr read_log(const std::string& path, bool keep_partial_executions, bool skip_invalid, int threads) {
  require_file(path);
  py::gil_scoped_release release;
  swf::ReadOptions options;
  options.keep_partial_executions = keep_partial_executions;
  options.skip_invalid = skip_invalid;
  options.threads = threads;
  return std::make_shared<swf::Log>(swf::read_swf_or_csv(path, options));
}

// The 18 columns: int64 arrays, or float64 for a field where some record kept a fraction.
py::dict log_columns(const swf::Log& log) {
  py::dict out;
  const size_t n = log.records.size();
  for (int f = 1; f <= swf::kFieldCount; ++f) {
    bool fractional = false;
    for (const auto& r : log.records)
      if (r.fractional(f)) {
        fractional = true;
        break;
      }
    const std::string name(swf::kFieldNames[static_cast<size_t>(f - 1)]);
    if (fractional) {
      py::array_t<double> a(static_cast<py::ssize_t>(n));
      auto m = a.mutable_unchecked<1>();
      for (size_t i = 0; i < n; ++i) m(static_cast<py::ssize_t>(i)) = log.records[i].value(f);
      out[py::str(name)] = a;
    } else {
      py::array_t<int64_t> a(static_cast<py::ssize_t>(n));
      auto m = a.mutable_unchecked<1>();
      for (size_t i = 0; i < n; ++i) m(static_cast<py::ssize_t>(i)) = log.records[i].field(f);
      out[py::str(name)] = a;
    }
  }
  return out;
}

// A Log from column arrays (any numeric dtype; a missing column is -1 throughout) and header lines.
LogPtr log_from_columns(const py::dict& columns, const std::vector<std::string>& header_lines,
                        bool keep_partial_executions) {
  swf::Header header;
  for (const auto& l : header_lines) header.add_line(l.starts_with(";") ? l : "; " + l);
  py::ssize_t n = -1;
  std::vector<py::array_t<double, py::array::c_style | py::array::forcecast>> cols(swf::kFieldCount);
  std::vector<bool> present(swf::kFieldCount, false);
  for (int f = 1; f <= swf::kFieldCount; ++f) {
    const std::string name(swf::kFieldNames[static_cast<size_t>(f - 1)]);
    if (!columns.contains(name)) continue;
    auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(columns[py::str(name)]);
    if (!a) throw py::value_error("column " + name + ": not numeric");
    if (a.ndim() != 1) throw py::value_error("column " + name + ": not one-dimensional");
    if (n >= 0 && a.shape(0) != n) throw py::value_error("column " + name + ": length differs from the others");
    n = a.shape(0);
    cols[static_cast<size_t>(f - 1)] = a;
    present[static_cast<size_t>(f - 1)] = true;
  }
  if (n < 0) throw py::value_error("no SWF column (job_number, submit_time, ...) given");
  std::vector<swf::Record> records(static_cast<size_t>(n));
  for (int f = 1; f <= swf::kFieldCount; ++f) {
    if (!present[static_cast<size_t>(f - 1)]) continue;
    auto v = cols[static_cast<size_t>(f - 1)].unchecked<1>();
    const std::string name(swf::kFieldNames[static_cast<size_t>(f - 1)]);
    for (py::ssize_t i = 0; i < n; ++i) {
      const double x = v(i);
      if (std::isnan(x)) {
        records[static_cast<size_t>(i)].field(f) = -1;
        continue;
      }
      // Every value that rounds (half away from zero, as set_value does) into the 32-bit range: 2^31 - 1 is a
      // real log's value (CEA-Curie's requested time of 2147483647 s), which read_swf gives and must take back.
      if (!(x > -2147483648.5 && x < 2147483647.5))
        throw py::value_error("column " + name + ", row " + std::to_string(i) + ": outside the 32-bit range");
      records[static_cast<size_t>(i)].set_value(f, x);
    }
  }
  // The reader's checks (duplicate job numbers, submit order, ...), counted as stats reports them for a file.
  swf::ReadOptions options;
  options.keep_partial_executions = keep_partial_executions;
  return std::make_shared<swf::Log>(
      swf::log_from_records("DataFrame", std::move(header), std::move(records), options));
}

py::dict stats(const LogPtr& log, std::optional<int64_t> procs) {
  const analysis::Summary s = analysis::summarize(*log, procs);
  return to_python(ordered_to_plain(experiments::to_json(s, log->header)));
}

// simulate(by_class=...), report(class_limits=...): "" none, else the limits ("1h,8"), a bad one a ValueError naming
// the parameter.
std::optional<sim::JobClassLimits> job_class_limits(const std::string& text, const char* parameter = "by_class") {
  if (text.empty()) return std::nullopt;
  try {
    return sim::parse_job_class_limits(text);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(fmt::format("{}: {}", parameter, e.what()));
  }
}

// A predictor written in Python (schedlab.Predictor, py_predictor.h), or None: the spec names one.
using PyPredictorPtr = std::shared_ptr<python::PyPredictor>;

// The keyword arguments simulate() and simulate_python() share, as the spec the library runs (the scheduler is each
// one's own).
experiments::SimulationSpec simulation_spec(const std::string& predictor, const PyPredictorPtr& predictor_object,
                                            const std::string& correction, std::optional<int64_t> procs,
                                            std::optional<double> load, double arrival_scale, bool kill_at_estimate,
                                            bool extend_estimates, double warmup_fraction, int64_t bsld_tau,
                                            uint64_t seed, const std::string& by_class, bool feedback) {
  experiments::SimulationSpec spec;
  spec.workload.feedback = feedback;
  spec.by_class = job_class_limits(by_class);
  spec.predictor = predictor;
  spec.predictor_object = predictor_object;
  spec.correction = correction;
  spec.workload.procs = procs;
  spec.workload.load = load;
  spec.workload.arrival_scale = arrival_scale;
  spec.workload.kill_at_estimate = kill_at_estimate;
  spec.workload.extend_estimates = extend_estimates;
  spec.sim.warmup_fraction = warmup_fraction;
  spec.sim.bsld_tau = bsld_tau;
  spec.sim.seed = seed;
  return spec;
}

py::tuple simulate(const LogPtr& log, const std::string& scheduler, const std::string& predictor,
                   const PyPredictorPtr& predictor_object, const std::string& correction, std::optional<int64_t> procs,
                   std::optional<double> load, double arrival_scale, bool kill_at_estimate, bool extend_estimates,
                   double warmup_fraction, int64_t bsld_tau, uint64_t seed, bool check, const std::string& by_class,
                   bool feedback) {
  experiments::SimulationSpec spec =
      simulation_spec(predictor, predictor_object, correction, procs, load, arrival_scale, kill_at_estimate,
                      extend_estimates, warmup_fraction, bsld_tau, seed, by_class, feedback);
  spec.scheduler = scheduler;
  spec.sim.check = check;
  nlohmann::json metrics;
  std::string jobs;
  Control stop("simulate", "jobs");
  spec.sim.progress = stop_hook(stop);  // Ctrl-C
  interruptible(stop, [&] {
    const experiments::PreparedSimulation prepared = experiments::prepare_simulation(spec);
    const experiments::Simulation s = experiments::run_simulation(prepared, *log);
    metrics = experiments::to_json(s);
    jobs = sim::jobs_csv(s.workload, s.result);
  });
  return py::make_tuple(to_python(metrics), py::bytes(jobs));
}

// A scheduler written in Python (schedlab.Scheduler): the engine calls it like a built-in policy. Each call
// takes the GIL; the state is handed over as plain tuples (queue: (id, procs, submit, prediction), running:
// (id, procs, start, prediction, expected_end)), so the cost per event is linear in the queue and running lists.
class PyScheduler : public sim::Scheduler {
 public:
  PyScheduler(py::object obj, std::string name) : obj_(std::move(obj)), name_(std::move(name)) {
    has_arrival_ = py::hasattr(obj_, "on_arrival");
    has_termination_ = py::hasattr(obj_, "on_termination");
    // schedule(state) returns the ids to start; schedule(state, decision) fills decision.start, .reservations
    // [(job, time)] and .wake_at, as sim/scheduler.h's Decision.
    const py::object sig = py::module_::import("inspect").attr("signature")(obj_.attr("schedule"));
    with_decision_ = py::len(sig.attr("parameters")) >= 2;
    has_suspend_ = py::hasattr(obj_, "on_suspend");
    // What happens to a job that outlives its prediction, and the cost of a resumption (sim/scheduler.h).
    const std::string ov = py::hasattr(obj_, "overrun") ? std::string(py::str(obj_.attr("overrun"))) : "keep";
    if (ov == "keep") overrun_ = sim::Overrun::kKeepRunning;
    else if (ov == "kill") overrun_ = sim::Overrun::kKill;
    else if (ov == "suspend") overrun_ = sim::Overrun::kSuspend;
    else throw py::value_error(fmt::format("scheduler {}: overrun must be \"keep\", \"kill\" or \"suspend\", not \"{}\"",
                                           name_, ov));
    if (py::hasattr(obj_, "resume_delay")) {
      resume_delay_ = handed_back<int64_t>(obj_.attr("resume_delay"), "resume_delay", "an int >= 0 (seconds)");
      if (resume_delay_ < 0)
        throw py::value_error(fmt::format("scheduler {}: resume_delay must be >= 0 seconds, not {}", name_,
                                          resume_delay_));
    }
  }
  ~PyScheduler() override {
    py::gil_scoped_acquire gil;
    obj_ = py::object();
  }
  PyScheduler(const PyScheduler&) = delete;
  PyScheduler& operator=(const PyScheduler&) = delete;
  // Each simulation runs a deep copy, as for a Python predictor: it shared the instance, so what a stateful
  // scheduler learnt in one run (a counter, a table) changed the next run's schedule, and compare's or a report's
  // runs of one instance each other's.
  std::unique_ptr<Scheduler> clone() const override {
    py::gil_scoped_acquire gil;
    auto copy = std::make_unique<PyScheduler>(python::deep_copy(obj_, "scheduler", name_), name_);
    copy->returns_ = returns_;  // the None returns are counted over every copy
    return copy;
  }
  // schedule(state) returned None at every call, which starts nothing (a function without `return`).
  bool returned_only_none() const { return !with_decision_ && returns_->calls > 0 && returns_->none == returns_->calls; }
  std::string_view name() const override { return name_; }
  sim::Overrun overrun() const override { return overrun_; }
  int64_t resume_delay() const override { return resume_delay_; }
  void on_suspend(const sim::SimState& state, const sim::RunningJob& job) override {
    if (!has_suspend_) return;
    py::gil_scoped_acquire gil;
    obj_.attr("on_suspend")(view(state), py::make_tuple(job.id, job.procs, job.start, job.prediction,
                                                          state.expected_end(job)));
  }
  void on_arrival(const sim::SimState& state, const sim::WaitingJob& job) override {
    if (!has_arrival_) return;
    py::gil_scoped_acquire gil;
    obj_.attr("on_arrival")(view(state), py::make_tuple(job.id, job.procs, job.submit, job.prediction));
  }
  void on_termination(const sim::SimState& state, const sim::RunningJob& job) override {
    if (!has_termination_) return;
    py::gil_scoped_acquire gil;
    obj_.attr("on_termination")(view(state), py::make_tuple(job.id, job.procs, job.start, job.prediction,
                                                              state.expected_end(job)));
  }
  void schedule(const sim::SimState& state, sim::Decision& decision) override {
    py::gil_scoped_acquire gil;
    if (!with_decision_) {
      const py::object r = obj_.attr("schedule")(view(state));
      ++returns_->calls;
      if (r.is_none()) {
        ++returns_->none;
        return;
      }
      if (!py::isinstance<py::iterable>(r))
        throw py::value_error(fmt::format("scheduler {}: schedule() returns the ids of the jobs to start now (a list "
                                          "of ints), not {} ({})",
                                          name_, std::string(py::repr(r)),
                                          std::string(py::str(r.get_type().attr("__name__")))));
      for (const py::handle id : r)
        decision.start.push_back(handed_back<sim::JobId>(id, "schedule()'s job ids", "ints"));
      return;
    }
    py::object d = state_type()();
    d.attr("start") = py::list();
    d.attr("suspend") = py::list();
    d.attr("keep_free_for") = py::list();
    d.attr("reservations") = py::list();
    d.attr("wake_at") = -1;
    obj_.attr("schedule")(view(state), d);
    for (const py::handle id : d.attr("suspend"))
      decision.suspend.push_back(handed_back<sim::JobId>(id, "decision.suspend", "a list of job ids (int)"));
    // New jobs avoid the processors these suspended jobs wait for (decision.avoid of the built-in ones).
    for (const py::handle id : d.attr("keep_free_for")) {
      const auto job = handed_back<sim::JobId>(id, "decision.keep_free_for", "a list of suspended job ids (int)");
      const auto held = state.held.find(job);
      if (held == state.held.end())
        throw py::value_error(fmt::format("scheduler {}: decision.keep_free_for: job {} is not a suspended job "
                                          "holding processors",
                                          name_, job));
      decision.avoid = sim::proc_union(decision.avoid, held->second);
    }
    for (const py::handle id : d.attr("start"))
      decision.start.push_back(handed_back<sim::JobId>(id, "decision.start", "a list of job ids (int)"));
    for (const py::handle r : d.attr("reservations")) {
      const auto t = handed_back<std::pair<sim::JobId, int64_t>>(r, "decision.reservations",
                                                                 "a list of (job id, time) pairs of ints");
      decision.reservations.push_back({t.first, t.second});
    }
    decision.wake_at = handed_back<int64_t>(d.attr("wake_at"), "decision.wake_at", "an int (a time in seconds)");
  }

 private:
  // A value the Python scheduler handed back, or an error naming what it should have been (pybind11 alone says
  // "Unable to cast Python instance to C++ type").
  template <typename T>
  T handed_back(const py::handle value, const char* what, const char* expected) const {
    try {
      return value.cast<T>();
    } catch (const py::cast_error&) {
      throw py::value_error(fmt::format("scheduler {}: {} must be {}, not {} ({})", name_, what, expected,
                                        std::string(py::repr(value)),
                                        std::string(py::str(value.get_type().attr("__name__")))));
    }
  }

  py::object view(const sim::SimState& state) const {
    py::list queue, running;
    for (const sim::WaitingJob& w : state.queue)
      queue.append(py::make_tuple(w.id, w.procs, w.submit, w.prediction));
    for (const sim::RunningJob& r : state.running)
      running.append(py::make_tuple(r.id, r.procs, r.start, r.prediction, state.expected_end(r)));
    py::object s = state_type()();
    s.attr("now") = state.now;
    s.attr("free") = state.machine.free();
    s.attr("total") = state.machine.total();
    s.attr("queue") = queue;
    s.attr("running") = running;
    // Suspended jobs wait in the queue with the time they have run; each resumes on the processors it left, so
    // it can resume now only when those are all free.
    py::dict attained;
    py::set resumable;
    for (const sim::WaitingJob& w : state.queue) {
      if (w.attained <= 0) continue;
      attained[py::int_(w.id)] = w.attained;
      const auto held = state.held.find(w.id);
      if (held == state.held.end() || state.machine.all_free(held->second)) resumable.add(py::int_(w.id));
    }
    s.attr("attained") = attained;
    s.attr("resumable") = resumable;
    return s;
  }
  static py::object state_type() {
    static py::object t = py::module_::import("types").attr("SimpleNamespace");
    return t;
  }
  py::object obj_;
  std::string name_;
  bool has_arrival_ = false, has_termination_ = false, has_suspend_ = false, with_decision_ = false;
  sim::Overrun overrun_ = sim::Overrun::kKeepRunning;
  int64_t resume_delay_ = 0;
  struct Returns {
    int64_t calls = 0, none = 0;  // schedule(state)'s calls, and those that returned None
  };
  std::shared_ptr<Returns> returns_ = std::make_shared<Returns>();  // shared by the clones the engine makes
};

// Runs `work`. When it stops on an engine invariant that a Python scheduler broke because its schedule(state)
// returned None at every call (a function without `return`: it started nothing), the message says so; the engine
// alone said only that jobs were left waiting.
template <typename Work>
void naming_none_returns(const std::vector<std::shared_ptr<PyScheduler>>& schedulers, Work&& work) {
  try {
    work();
  } catch (const std::logic_error& e) {
    for (const auto& s : schedulers)
      if (s && s->returned_only_none())
        throw py::value_error(fmt::format("{}; the schedule(state) of {} returned None at every call (no `return` at "
                                          "its end?)",
                                          e.what(), s->name()));
    throw;
  }
}

py::tuple simulate_python(const LogPtr& log, const py::object& scheduler, const std::string& name,
                          const std::string& predictor, const PyPredictorPtr& predictor_object,
                          const std::string& correction, std::optional<int64_t> procs,
                          std::optional<double> load, double arrival_scale, bool kill_at_estimate,
                          bool extend_estimates, double warmup_fraction, int64_t bsld_tau, uint64_t seed,
                          const std::string& by_class, bool feedback) {
  experiments::SimulationSpec spec =
      simulation_spec(predictor, predictor_object, correction, procs, load, arrival_scale, kill_at_estimate,
                      extend_estimates, warmup_fraction, bsld_tau, seed, by_class, feedback);
  const auto py_scheduler = std::make_shared<PyScheduler>(scheduler, name);  // its clones share its return counts
  spec.scheduler = name;
  spec.scheduler_object = py_scheduler;
  spec.sim.check = true;  // a user's scheduler runs under the engine's invariant checks
  // Progress and Ctrl-C as for a built-in scheduler (this run went to its end silently: a Python FCFS on a large log
  // takes minutes); the scheduler takes the GIL back at each call.
  Control stop("simulate", "jobs");
  spec.sim.progress = stop_hook(stop);
  experiments::PreparedSimulation prepared = experiments::prepare_simulation(spec);
  nlohmann::json metrics;
  std::string jobs;
  naming_none_returns({py_scheduler}, [&] {
    interruptible(stop, [&] {
      const experiments::Simulation s = experiments::run_simulation(prepared, *log);
      metrics = experiments::to_json(s);
      jobs = sim::jobs_csv(s.workload, s.result);
    });
  });
  prepared.scheduler.reset();
  return py::make_tuple(to_python(metrics), py::bytes(jobs));
}

template <typename J>
py::object json_out(const J& j) {
  return to_python(nlohmann::json::parse(base::json_text(j)));
}

// "share" or "uniform" (analysis::parse_expected_counts), named as the Python parameter.
analysis::ExpectedCounts expected_counts(const std::string& name) {
  return choice("expected", name, analysis::parse_expected_counts(name), analysis::expected_counts_names());
}

py::object locality(const LogPtr& log, const std::string& attribute, int64_t slice, int bins, int rounds,
                    uint64_t seed, int threads, int64_t shift, const std::string& expected) {
  const auto attr = choice("attribute", attribute, analysis::parse_attribute(attribute), analysis::attribute_names());
  analysis::LocalityOptions lo;
  lo.slice_seconds = slice;
  lo.bins = bins;
  lo.rounds = rounds;
  lo.seed = seed;
  lo.threads = threads;
  lo.shift = shift;
  lo.expected = expected_counts(expected);
  nlohmann::ordered_json j;
  Control stop("locality: bootstrap", "rounds");
  lo.progress = stop_hook(stop);  // Ctrl-C ends the bootstrap
  interruptible(stop, [&] {
    const auto series = analysis::attribute_series(log->records, attr);
    j = experiments::to_json(analysis::locality(series.times, series.values, lo), lo, series, attr);
  });
  return json_out(j);
}

// The summary (`predict --json`) and, with jobs, the per-job accuracy as --jobs-out writes it.
// The predictor of a replay (predict, predict_next): a spec, or one written in Python, with the correction.
std::unique_ptr<predict::Predictor> replay_predictor(const std::string& predictor, const PyPredictorPtr& predictor_object,
                                                     const std::string& correction, uint64_t seed) {
  predict::PredictorConfig config{seed, {}};
  if (!correction.empty()) config.params.emplace("correction", correction);
  return predictor_object ? predict::with_correction(predictor_object->clone(), correction)
                          : predict::make_predictor(predictor, config);
}

py::tuple predict_replay(const LogPtr& log, const std::string& predictor, const PyPredictorPtr& predictor_object,
                         const std::string& correction, std::optional<int64_t> procs, double warmup_fraction,
                         uint64_t seed, bool extend_estimates, bool jobs) {
  const auto p = replay_predictor(predictor, predictor_object, correction, seed);
  nlohmann::json j;
  std::optional<std::string> csv;
  Control stop("predict", "jobs");
  interruptible(stop, [&] {  // Ctrl-C ends the replay within 0.2 s
    const auto r = experiments::replay_log(*log, *p, {procs, extend_estimates, warmup_fraction, stop_hook(stop)});
    j = experiments::to_json(r);
    if (jobs) csv = experiments::log_replay_csv(r);
  });
  return py::make_tuple(to_python(j), csv);
}

// `schedlab predict --next`: the prediction for a user's next job, after the whole log (experiments/log_replay.h).
py::object predict_next(const LogPtr& log, const std::string& predictor, const PyPredictorPtr& predictor_object,
                        const std::string& correction, std::optional<int64_t> procs, double warmup_fraction,
                        uint64_t seed, bool extend_estimates, const experiments::NextJob& job) {
  const auto p = replay_predictor(predictor, predictor_object, correction, seed);
  nlohmann::json j;
  Control stop("predict", "jobs");
  interruptible(stop, [&] {
    j = experiments::to_json(
        experiments::predict_next(*log, *p, job, {procs, extend_estimates, warmup_fraction, stop_hook(stop)}));
  });
  return to_python(j);
}

// Schedulers written in Python among a list of schedulers (None in the places of the named ones), as the library
// takes them (CompareSpec::scheduler_objects); `names[i]` names the one at i. Empty when there is none.
std::vector<std::shared_ptr<PyScheduler>> python_schedulers(const std::vector<py::object>& objects,
                                                            const std::vector<std::string>& names) {
  std::vector<std::shared_ptr<PyScheduler>> out(names.size());
  bool any = false;
  for (size_t i = 0; i < objects.size() && i < names.size(); ++i) {
    if (objects[i].is_none()) continue;
    out[i] = std::make_shared<PyScheduler>(objects[i], names[i]);
    any = true;
  }
  if (!any) out.clear();
  return out;
}

py::object compare(const LogPtr& log, const std::vector<std::string>& schedulers,
                   const std::vector<py::object>& scheduler_objects, const std::string& predictor,
                   const PyPredictorPtr& predictor_object, std::optional<int64_t> procs, std::optional<double> load,
                   int64_t period, const std::string& baseline, int threads, const std::string& correction,
                   bool kill_at_estimate, bool extend_estimates, double arrival_scale, int64_t bsld_tau,
                   double warmup_fraction, uint64_t seed, const std::string& by_class, bool feedback) {
  // The options simulate() takes, as simulate() reads them.
  experiments::SimulationSpec shared =
      simulation_spec(predictor, predictor_object, correction, procs, load, arrival_scale, kill_at_estimate,
                      extend_estimates, warmup_fraction, bsld_tau, seed, by_class, feedback);
  experiments::CompareSpec spec;
  spec.predictor = std::move(shared.predictor);
  spec.predictor_object = std::move(shared.predictor_object);
  spec.correction = std::move(shared.correction);
  spec.workload = std::move(shared.workload);
  spec.sim = std::move(shared.sim);
  spec.by_class = std::move(shared.by_class);
  spec.schedulers = schedulers;
  const auto py_schedulers = python_schedulers(scheduler_objects, schedulers);
  spec.scheduler_objects.assign(py_schedulers.begin(), py_schedulers.end());
  spec.sim.check = !py_schedulers.empty();  // a user's scheduler runs under the engine's invariant checks
  spec.period = period;
  spec.baseline = baseline;
  spec.threads = threads;
  nlohmann::json j;
  Control stop("compare", "jobs");  // summed over the schedulers
  spec.sim.progress = stop_hook(stop);  // Ctrl-C
  naming_none_returns(py_schedulers, [&] {
    interruptible(stop, [&] { j = experiments::to_json(experiments::run_compare(spec, *log)); });
  });
  return to_python(j);
}

LogPtr with_records(const LogPtr& source, std::vector<swf::Record> records, swf::Header header) {
  auto out = std::make_shared<swf::Log>();
  out->header = std::move(header);
  out->records = std::move(records);
  (void)source;
  return out;
}

// The spec, with the Python schedulers and predictors its lists name (schedlab.sweep() put their names there).
experiments::SweepSpec sweep_spec(const std::string& text, const std::string& name,
                                  const std::map<std::string, py::object>& schedulers,
                                  const std::map<std::string, PyPredictorPtr>& predictors) {
  experiments::SweepSpec spec = name.empty() ? experiments::parse_sweep_spec(text, "<spec>")
                                             : experiments::read_sweep_spec(name);
  for (const auto& [n, object] : schedulers) spec.scheduler_objects[n] = std::make_shared<PyScheduler>(object, n);
  for (const auto& [n, object] : predictors) spec.predictor_objects[n] = object;
  return spec;
}

// After a sweep: a Python scheduler whose schedule(state) returned None at every call failed its runs with the
// engine's "left N jobs waiting" in their status; the warning says why (as simulate's error does).
void warn_of_none_returns(const experiments::SweepSpec& spec, std::vector<std::string>& warnings) {
  for (const auto& [n, object] : spec.scheduler_objects) {
    const auto* s = dynamic_cast<const PyScheduler*>(object.get());
    if (s && s->returned_only_none())
      warnings.push_back(fmt::format("the schedule(state) of {} returned None at every call (no `return` at its "
                                     "end?): its runs started nothing and failed",
                                     n));
  }
}

// Returns (CSV text, warnings): the rows as `schedlab sweep -o X.csv` writes them, which Python reads as it reads
// such a file (so that a sweep in memory and one to a file give one DataFrame), and the warnings about the logs'
// headers, which Python issues.
py::tuple sweep(const std::string& text, const std::string& name, int threads,
                const std::map<std::string, py::object>& schedulers,
                const std::map<std::string, PyPredictorPtr>& predictors) {
  const experiments::SweepSpec spec = sweep_spec(text, name, schedulers, predictors);
  const auto runs = experiments::expand_sweep(spec);
  std::string csv = experiments::sweep_csv_header();
  std::vector<std::string> warnings;
  Control stop("sweep", "runs");
  experiments::SweepOptions o;
  o.threads = threads;
  o.stop = &stop.stop;
  o.progress = [&stop](size_t done, size_t total) { stop.done = done, stop.total = total; };
  o.on_row = [&](const experiments::SweepRow& r) { csv += experiments::sweep_csv_line(r); };
  o.on_warning = [&](const std::string& w) { warnings.push_back(w); };
  interruptible(stop, [&] { experiments::run_sweep(spec, runs, o); });
  warn_of_none_returns(spec, warnings);
  return py::make_tuple(py::bytes(csv), py_texts(warnings));
}

// The sweep into a resumable file (the CLI's -o): returns (runs now, runs already there, failed, warnings).
py::tuple sweep_to_file(const std::string& text, const std::string& name, int threads, const std::string& output,
                        bool jsonl, const std::map<std::string, py::object>& schedulers,
                        const std::map<std::string, PyPredictorPtr>& predictors) {
  const experiments::SweepSpec spec = sweep_spec(text, name, schedulers, predictors);
  const auto runs = experiments::expand_sweep(spec);
  experiments::SweepSummary sum;
  std::vector<std::string> warnings;
  Control stop("sweep", "runs");
  experiments::SweepOptions o;
  o.threads = threads;
  o.stop = &stop.stop;  // interrupted: the rows written are whole, and the same call resumes
  o.progress = [&stop](size_t done, size_t total) { stop.done = done, stop.total = total; };
  o.on_warning = [&](const std::string& w) { warnings.push_back(w); };
  interruptible(stop, [&] { sum = experiments::run_sweep_to_file(spec, runs, output, jsonl, o); });
  warn_of_none_returns(spec, warnings);
  return py::make_tuple(sum.run, sum.skipped, sum.failed, py_texts(warnings));
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "schedlab's C++ library (use the `schedlab` package, not this module)";
  m.attr("version") = std::string(base::kVersion);  // as `schedlab --version` prints it
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const swf::WriteError& e) {
      set_error(PyExc_OSError, e.what());
    } catch (const swf::MalformedRecordError& e) {  // the way on, as the CLI says its --skip-invalid
      const std::string message = std::string(e.what()) + " (read_swf(path, skip_invalid=True) or read_log(path, "
                                                          "skip_invalid=True) skips such lines, counted by reason)";
      set_error(PyExc_ValueError, message.c_str());
    } catch (const std::exception& e) {
      set_error(PyExc_ValueError, e.what());
    }
  });
  py::class_<swf::Log, LogPtr>(m, "Log", "An SWF log held by the library (immutable, shared by reference)")
      .def_property_readonly("header_lines", [](const swf::Log& l) { return py_texts(l.header.lines); })
      .def_property_readonly("path", [](const swf::Log& l) { return py_text(l.path); })
      .def_property_readonly("header_warnings",
                             [](const swf::Log& l) { return py_texts(trace::header_warnings(l.header, l.path)); })
      .def_property_readonly("partial_executions",
                             [](const swf::Log& l) { return l.report.partial_executions.count; })
      .def_property_readonly("partial_executions_note",
                             [](const swf::Log& l) { return py_text(swf::partial_executions_note(l)); })
      .def_property_readonly("skipped", [](const swf::Log& l) { return l.report.skipped; })  // reason -> lines
      .def_property_readonly("skipped_note", [](const swf::Log& l) { return py_text(swf::skipped_lines_note(l)); })
      .def("__len__", [](const swf::Log& l) { return l.records.size(); });
  m.def("read_log", &read_log, py::arg("path"), py::arg("keep_partial_executions") = false,
        py::arg("skip_invalid") = false, py::arg("threads") = 0);
  m.def("log_columns", [](const LogPtr& l) { return log_columns(*l); }, py::arg("log"));
  m.def("log_from_columns", &log_from_columns, py::arg("columns"), py::arg("header_lines"),
        py::arg("keep_partial_executions") = false);
  m.def("write_log",
        [](const LogPtr& l, const std::string& path) {
          py::gil_scoped_release release;
          swf::write_swf_or_csv(path, l->header, l->records);
        },
        py::arg("log"), py::arg("path"));
  m.def("stats", &stats, py::arg("log"), py::arg("procs") = py::none());
  py::class_<python::PyPredictor, std::shared_ptr<python::PyPredictor>>(
      m, "PythonPredictor", "A schedlab.Predictor instance as the library runs it (made by the schedlab package)")
      .def(py::init<py::object, std::string, py::object>(), py::arg("predictor"), py::arg("name"), py::arg("job_type"));
  m.def("simulate", &simulate, py::arg("log"), py::arg("scheduler"), py::arg("predictor"),
        py::arg("predictor_object").none(true), py::arg("correction"),
        py::arg("procs"), py::arg("load"), py::arg("arrival_scale"), py::arg("kill_at_estimate"),
        py::arg("extend_estimates"), py::arg("warmup_fraction"), py::arg("bsld_tau"), py::arg("seed"),
        py::arg("check"), py::arg("by_class"), py::arg("feedback"));
  m.def(
      "set_progress",
      [](bool on, double after) {
        progress_settings() = ProgressSettings{on, after};
      },
      py::arg("on"), py::arg("after"));
  m.def("sweep", &sweep, py::arg("text"), py::arg("path"), py::arg("threads"), py::arg("schedulers"),
        py::arg("predictors"));
  m.def("simulate_python", &simulate_python, py::arg("log"), py::arg("scheduler"), py::arg("name"),
        py::arg("predictor"), py::arg("predictor_object").none(true), py::arg("correction"), py::arg("procs"),
        py::arg("load"), py::arg("arrival_scale"), py::arg("kill_at_estimate"), py::arg("extend_estimates"),
        py::arg("warmup_fraction"), py::arg("bsld_tau"), py::arg("seed"), py::arg("by_class"), py::arg("feedback"));
  m.def("sweep_columns", &experiments::sweep_columns);
  m.def("sweep_to_file", &sweep_to_file, py::arg("text"), py::arg("path"), py::arg("threads"), py::arg("output"),
        py::arg("jsonl"), py::arg("schedulers"), py::arg("predictors"));
  m.def("sweep_collect",
        [](const std::string& dir, const std::string& output) {
          py::gil_scoped_release release;
          return experiments::collect_sweep_array(dir, output).runs;
        },
        py::arg("dir"), py::arg("output"));
  m.def("locality", &locality, py::arg("log"), py::arg("attribute"), py::arg("slice"), py::arg("bins"),
        py::arg("rounds"), py::arg("seed"), py::arg("threads"), py::arg("shift"), py::arg("expected"));
  m.def("temporal", [](const LogPtr& l, bool hurst) {
    nlohmann::ordered_json j;
    Control stop("temporal", "steps");
    interruptible(stop, [&] {  // Ctrl-C ends it after the step under way (seconds only for a span of decades)
      j = experiments::to_json(analysis::temporal(l->records, hurst, stop_hook(stop)), hurst);
    });
    return json_out(j);
  }, py::arg("log"), py::arg("hurst"));
  m.def("runs", [](const LogPtr& l, bool match_executable) {
    if (match_executable &&
        std::none_of(l->records.begin(), l->records.end(), [](const swf::Record& r) { return r.executable >= 0; }))
      throw py::value_error("no job has an executable number (field 14); use size_only=True to match jobs on user "
                            "and size only");
    return json_out(experiments::to_json(analysis::find_runs(l->records, match_executable),
                                         match_executable ? "user, executable, size" : "user, size"));
  }, py::arg("log"), py::arg("match_executable"));
  m.def("flurries", [](const LogPtr& l, double factor, int64_t min_jobs) {
    trace::FlurryOptions fo;
    fo.factor = factor;
    fo.min_jobs = min_jobs;
    return json_out(experiments::to_json(trace::find_flurries(l->records, fo), fo, *l));
  }, py::arg("log"), py::arg("factor"), py::arg("min_jobs"));
  // The summary (`sessions --json`) and, with rows, the session rows (-o) and the user rows (--users-output)
  // as the library writes them, which the Python side reads into DataFrames.
  m.def("sessions", [](const std::vector<LogPtr>& logs, const std::vector<std::string>& names, bool classify,
                       int64_t think_time, bool online, bool pca, uint64_t seed, int restarts,
                       const std::string& transform, bool rows) {
    experiments::SessionStudyOptions so;
    so.classify = classify;
    so.think_time = think_time;
    so.online = online;
    so.pca = pca;
    so.classify_options.seed = seed;
    so.classify_options.restarts = restarts;
    so.classify_options.transform = choice("transform", transform, analysis::parse_transform(transform),
                                           analysis::transform_names());
    std::vector<std::pair<std::string, swf::Log>> pooled;
    for (size_t i = 0; i < logs.size(); ++i) pooled.emplace_back(names.at(i), *logs[i]);
    nlohmann::ordered_json j;
    std::optional<std::string> session_csv, user_csv;
    Control stop("sessions: k-means", "restarts");  // two clusterings (sessions, then users) of `restarts` each
    size_t restarts_done = 0;
    so.classify_options.after_restart = [hook = stop_hook(stop), &restarts_done, restarts] {
      hook(++restarts_done, 2 * static_cast<size_t>(restarts));  // Ctrl-C ends the k-means
    };
    interruptible(stop, [&] {
      const experiments::SessionStudy st = experiments::run_session_study(std::move(pooled), so);
      j = experiments::to_json(st);
      if (rows) session_csv = experiments::session_study_csv(st);
      if (rows && classify) user_csv = experiments::user_study_csv(st);
    });
    return py::make_tuple(json_out(j), session_csv, user_csv);
  }, py::arg("logs"), py::arg("names"), py::arg("classify"), py::arg("think_time"), py::arg("online"),
     py::arg("pca"), py::arg("seed"), py::arg("restarts"), py::arg("transform"), py::arg("rows"));
  m.def("read_sacct", [](const std::string& path, std::optional<int64_t> procs, const std::string& time_zone,
                         bool keep_unstarted, bool keep_partial_executions) {
    require_file(path);
    swf::SacctOptions so;
    so.procs = procs;
    so.timezone = time_zone;
    so.keep_unstarted = keep_unstarted;
    swf::SacctReport rep;
    LogPtr log;
    {
      py::gil_scoped_release release;
      swf::Log read = swf::read_sacct(path, so, &rep);
      // A requeued job's runs (sacct -D) are partial-execution lines after its summary line: left out, as every
      // reader does, unless kept (the log as `convert` writes it).
      swf::ReadOptions ro;
      ro.keep_partial_executions = keep_partial_executions;
      log = std::make_shared<swf::Log>(
          swf::log_from_records(read.path, std::move(read.header), std::move(read.records), ro));
    }
    return py::make_tuple(log, json_out(experiments::to_json(rep)), py_texts(swf::sacct_warnings(rep, path)));
  }, py::arg("path"), py::arg("procs"), py::arg("timezone"), py::arg("keep_unstarted"),
     py::arg("keep_partial_executions"));
  m.def("header_names_by_id", [](const LogPtr& l, const std::string& kind) {
    return trace::header_names_by_id(l->header, kind);
  }, py::arg("log"), py::arg("kind"));
  // Users and partitions by the names a log converted from sacct keeps in its header (trace/id_names.h).
  m.def("ids_of_names", [](const LogPtr& l, const std::string& option, const std::vector<std::string>& names,
                           const std::string& kind) { return trace::ids_of_names(option, names, l->header, kind); },
        py::arg("log"), py::arg("option"), py::arg("names"), py::arg("kind"));
  // `schedlab filter`: the same criteria, notes and counts (trace/filter_log.h).
  m.def("filter", [](const LogPtr& l, const std::string& from, const std::string& to,
                     std::optional<std::set<int32_t>> users, const std::set<int32_t>& exclude_users,
                     std::optional<int64_t> min_procs, std::optional<int64_t> max_procs,
                     std::optional<std::set<int32_t>> statuses, std::optional<std::set<int32_t>> queues,
                     std::optional<std::set<int32_t>> partitions, bool drop_flurries, double flurry_factor,
                     int64_t flurry_min_jobs) {
    trace::FilterSpec spec;
    const auto bound = [&](const std::string& text, const char* name, std::optional<int64_t>& at, std::string& shown) {
      if (text.empty()) return;
      try {
        at = trace::parse_log_time(text, l->header);
      } catch (const trace::TimeError& e) {
        throw py::value_error(std::string(name) + ": " + e.what());
      }
      shown = trace::log_time_text(text, l->header);
    };
    bound(from, "from_", spec.from, spec.from_text);
    bound(to, "to", spec.to, spec.to_text);
    spec.users = std::move(users);
    spec.exclude_users = exclude_users;
    spec.min_procs = min_procs;
    spec.max_procs = max_procs;
    spec.statuses = std::move(statuses);
    spec.queues = std::move(queues);
    spec.partitions = std::move(partitions);
    trace::check_filter_spec(spec);
    std::optional<trace::FlurryOptions> flurry_rule;
    if (drop_flurries) flurry_rule = trace::FlurryOptions{flurry_factor, flurry_min_jobs};
    trace::FilteredLog filtered;
    {
      py::gil_scoped_release release;
      filtered = trace::filter_log(*l, spec, flurry_rule);
    }
    py::dict excluded;
    for (int i = 0; i < trace::kFilterReasons; ++i)
      if (filtered.result.excluded[static_cast<size_t>(i)] > 0)
        excluded[py::str(std::string(trace::filter_reason_name(static_cast<trace::FilterReason>(i))))] =
            filtered.result.excluded[static_cast<size_t>(i)];
    py::dict counts;
    // Jobs, as the CLI counts them; a log read with its partial-execution lines keeps each job's with it.
    const int64_t partial_lines = l->report.partial_executions_kept ? l->report.partial_executions.count : 0;
    counts["records"] = static_cast<int64_t>(l->records.size()) - partial_lines;
    counts["kept"] = static_cast<int64_t>(filtered.result.kept.size()) - filtered.partial_executions_kept;
    if (partial_lines > 0) counts["partial_executions_kept"] = filtered.partial_executions_kept;
    counts["excluded"] = excluded;
    if (drop_flurries) counts["flurries_dropped"] = filtered.flurry_dropped;
    // What the CLI warns of, in its order (trace::filter_hints): a window that keeps no job, a partition of a machine
    // the header sizes whole, ids no record has, kept jobs whose preceding job was left out.
    const std::string listed = spec.partitions ? fmt::format("{}", fmt::join(*spec.partitions, ",")) : "";
    std::vector<std::string> hints = trace::filter_hints(l->records, l->header, spec, filtered.result, listed);
    auto out = std::make_shared<swf::Log>();
    out->header = std::move(filtered.header);
    out->records = std::move(filtered.result.kept);
    return py::make_tuple(out, counts, hints);
  }, py::arg("log"), py::arg("from_"), py::arg("to"), py::arg("users"), py::arg("exclude_users"),
     py::arg("min_procs"), py::arg("max_procs"), py::arg("statuses"), py::arg("queues"), py::arg("partitions"),
     py::arg("drop_flurries"), py::arg("flurry_factor"), py::arg("flurry_min_jobs"));
  m.def("distance", [](const LogPtr& a, const LogPtr& b) {
    nlohmann::ordered_json j;
    {
      py::gil_scoped_release release;
      j = experiments::to_json(analysis::log_distance(*a, *b));
    }
    return json_out(j);
  }, py::arg("a"), py::arg("b"));
  // The report's page (experiments/report.h); `libraries_path`: the plotting libraries the package ships.
  m.def("report", [](const std::string& libraries_path, const LogPtr& l, const std::string& output,
                     const std::string& title, const std::vector<std::string>& schedulers,
                     const std::vector<py::object>& scheduler_objects, const std::string& predictor,
                     const PyPredictorPtr& predictor_object,
                     const std::string& correction, std::optional<int64_t> procs, int threads,
                     const std::string& class_limits, std::optional<double> load, double arrival_scale,
                     bool feedback, bool kill_at_estimate, bool extend_estimates, double warmup_fraction,
                     int64_t bsld_tau, uint64_t seed) {
    experiments::ReportOptions ro;
    // The schedules' predictor, workload and simulation options are simulate's (the by-class limits are the report's).
    const experiments::SimulationSpec as_simulate =
        simulation_spec(predictor, predictor_object, correction, procs, load, arrival_scale, kill_at_estimate,
                        extend_estimates, warmup_fraction, bsld_tau, seed, "", feedback);
    ro.workload = as_simulate.workload;
    ro.sim = as_simulate.sim;
    if (const auto limits = job_class_limits(class_limits, "class_limits")) ro.class_limits = *limits;
    ro.title = title;
    ro.schedulers = schedulers;
    const auto py_schedulers = python_schedulers(scheduler_objects, schedulers);
    ro.scheduler_objects.assign(py_schedulers.begin(), py_schedulers.end());
    ro.sim.check = !py_schedulers.empty();  // a user's scheduler runs under the engine's invariant checks
    ro.predictor = as_simulate.predictor;
    ro.predictor_object = as_simulate.predictor_object;
    ro.correction = as_simulate.correction;
    ro.threads = threads;
    Control stop("report: schedules", "jobs");  // summed over the schedulers
    ro.sim.progress = stop_hook(stop);  // Ctrl-C
    std::vector<std::string> warnings;  // the CLI's on standard error: the module issues them as Python warnings
    naming_none_returns(py_schedulers, [&] {
      interruptible(stop, [&] {
        const std::string libraries = experiments::read_report_libraries(libraries_path);
        swf::check_output_is_not_input(output, {l->path});
        const nlohmann::json data = experiments::report_data(*l, ro);
        for (const auto& w : data["scheduling"]["warnings"]) warnings.push_back(w.get<std::string>());
        swf::write_text_file(output, experiments::render_report(data, libraries));
      });
    });
    return warnings;
  }, py::arg("libraries"), py::arg("log"), py::arg("output"), py::arg("title"), py::arg("schedulers"),
     py::arg("scheduler_objects"), py::arg("predictor"), py::arg("predictor_object").none(true),
     py::arg("correction"), py::arg("procs"), py::arg("threads"), py::arg("class_limits"), py::arg("load"),
     py::arg("arrival_scale"), py::arg("feedback"), py::arg("kill_at_estimate"), py::arg("extend_estimates"),
     py::arg("warmup_fraction"), py::arg("bsld_tau"), py::arg("seed"));
  m.def("report_sweep", [](const std::string& libraries_path, const std::string& results, const std::string& output,
                           const std::string& metric, const std::string& x, const std::string& title) {
    py::gil_scoped_release release;
    const std::string libraries = experiments::read_report_libraries(libraries_path);
    swf::check_output_is_not_input(output, {results});
    nlohmann::json data = experiments::sweep_report_data(swf::read_text(results), results, metric, x);
    if (!title.empty()) data["title"] = title;
    swf::write_text_file(output, experiments::render_report(data, libraries));
    std::vector<std::string> warnings;
    for (const auto& w : data["warnings"]) warnings.push_back(w.get<std::string>());
    return warnings;
  }, py::arg("libraries"), py::arg("results"), py::arg("output"), py::arg("metric"), py::arg("x"), py::arg("title"));
  m.def("predict", &predict_replay, py::arg("log"), py::arg("predictor"), py::arg("predictor_object").none(true),
        py::arg("correction"), py::arg("procs"),
        py::arg("warmup_fraction"), py::arg("seed"), py::arg("extend_estimates"), py::arg("jobs"));
  m.def("predict_next",
        [](const LogPtr& log, const std::string& predictor, const PyPredictorPtr& predictor_object,
           const std::string& correction, std::optional<int64_t> procs, double warmup_fraction, uint64_t seed,
           bool extend_estimates, int32_t user, int32_t job_procs, std::optional<int64_t> estimate, int32_t executable,
           int32_t group, int32_t queue, int32_t partition) {
          return predict_next(log, predictor, predictor_object, correction, procs, warmup_fraction, seed,
                              extend_estimates,
                              experiments::NextJob{user, job_procs, estimate, executable, group, queue, partition});
        },
        py::arg("log"), py::arg("predictor"), py::arg("predictor_object").none(true), py::arg("correction"),
        py::arg("procs"), py::arg("warmup_fraction"), py::arg("seed"), py::arg("extend_estimates"), py::arg("user"),
        py::arg("job_procs"), py::arg("estimate"), py::arg("executable"), py::arg("group"), py::arg("queue"),
        py::arg("partition"));
  m.def("compare", &compare, py::arg("log"), py::arg("schedulers"), py::arg("scheduler_objects"), py::arg("predictor"),
        py::arg("predictor_object").none(true), py::arg("procs"),
        py::arg("load"), py::arg("period"), py::arg("baseline"), py::arg("threads"), py::arg("correction"),
        py::arg("kill_at_estimate"), py::arg("extend_estimates"), py::arg("arrival_scale"), py::arg("bsld_tau"),
        py::arg("warmup_fraction"), py::arg("seed"), py::arg("by_class"), py::arg("feedback"));
  m.def("estimates_generate", [](const LogPtr& l, const std::string& model, const std::vector<std::string>& params,
                                  uint64_t seed) {
    std::vector<swf::Record> records = l->records;
    auto [name, text] = model::split_model_spec(model);  // "f:f=3", as a sweep names a model
    std::vector<std::string> items = params;
    if (!text.empty()) items.insert(items.begin(), text);
    const auto rep = model::apply_estimate_model(name, model::load_params(items), records, seed, l->path);
    swf::Header h = l->header;
    h.add_note(model::estimate_model_note(rep, seed));  // the CLI's note
    return py::make_tuple(with_records(l, std::move(records), std::move(h)), json_out(model::to_json(rep)));
  }, py::arg("log"), py::arg("model"), py::arg("params"), py::arg("seed"));
  m.def("diversity", [](const std::vector<LogPtr>& logs, const std::vector<std::string>& names,
                        const std::string& attribute, int bins, int rounds, uint64_t seed, const std::string& expected,
                        int threads) {
    const auto attr = choice("attribute", attribute, analysis::parse_attribute(attribute), analysis::attribute_names());
    analysis::DiversityOptions d;
    d.bins = bins;
    d.rounds = rounds;
    d.seed = seed;
    d.expected = expected_counts(expected);
    d.threads = threads;
    analysis::check_bins_and_rounds(d.bins, d.rounds);  // before the logs are prepared
    nlohmann::ordered_json j;
    Control stop("diversity: baseline", "rounds");
    d.progress = stop_hook(stop);  // Ctrl-C ends the baseline
    interruptible(stop, [&] {
      std::vector<experiments::DiversityLog> dl;
      for (size_t i = 0; i < logs.size(); ++i) dl.push_back(experiments::diversity_log(names.at(i), *logs[i], attr));
      j = experiments::to_json(experiments::run_diversity_study(std::move(dl), attr, d));
    });
    return json_out(j);
  }, py::arg("logs"), py::arg("names"), py::arg("attribute"), py::arg("bins"), py::arg("rounds"), py::arg("seed"),
     py::arg("expected"), py::arg("threads"));
  m.def("categorize", [](const LogPtr& l, int64_t min_jobs, int64_t max_jobs, const std::string& parallelism,
                         const std::string& groups, int64_t top) {
    analysis::CategorizeOptions co;
    co.min_group_jobs = min_jobs;
    co.max_group_jobs = max_jobs;
    co.parallelism = choice("parallelism", parallelism, analysis::parse_parallelism_bucket(parallelism),
                            analysis::parallelism_bucket_names());
    analysis::check_group_listing(top);
    std::optional<analysis::CategoryKey> key;
    if (!groups.empty())
      key = choice("groups", groups, analysis::parse_category_key(groups), analysis::category_key_names());
    return json_out(experiments::to_json(analysis::categorize(l->records, co), key, top));
  }, py::arg("log"), py::arg("min_jobs"), py::arg("max_jobs"), py::arg("parallelism"), py::arg("groups"),
     py::arg("top"));
  m.def("estimate_bins", [](const LogPtr& l, int64_t top, std::optional<int64_t> max_estimate) {
    if (top < 0) throw py::value_error("top must be >= 0");
    std::vector<swf::Record> records = l->records;
    // e.g. KTH4H: the KTH jobs with an estimate <= 4 h
    const int64_t dropped = max_estimate ? model::drop_estimates_above(records, *max_estimate) : 0;
    nlohmann::ordered_json j;
    if (max_estimate) j["dropped_above_max_estimate"] = dropped;
    j.update(model::to_json(model::estimate_bins(records), static_cast<size_t>(top)));
    return json_out(j);
  }, py::arg("log"), py::arg("top"), py::arg("max_estimate"));
  m.def("estimates_fit", [](const std::vector<LogPtr>& logs, const std::vector<std::string>& names,
                            const std::string& model_name, std::optional<int64_t> top,
                            std::optional<std::string> family, std::optional<int64_t> min_group_jobs,
                            std::optional<std::string> tmax) {
    model::EstimateFitOptions fo;
    fo.model = model_name;
    fo.top = top;
    fo.tmax = tmax;
    fo.family = family;
    fo.min_group_jobs = min_group_jobs;
    std::vector<const std::vector<swf::Record>*> ptrs;
    for (const auto& l : logs) ptrs.push_back(&l->records);
    nlohmann::ordered_json j;
    {
      py::gil_scoped_release release;
      j = model::fit_estimate_model(ptrs, names, fo).file;
    }
    return json_out(j);
  }, py::arg("logs"), py::arg("names"), py::arg("model"), py::arg("top"), py::arg("family"),
     py::arg("min_group_jobs"), py::arg("tmax"));
  m.def("estimates_compare", [](const LogPtr& real, const LogPtr& mod, const std::string& real_name,
                                const std::string& model_name) {
    return json_out(model::to_json(model::compare_estimates(real->records, mod->records, real_name, model_name)));
  }, py::arg("real"), py::arg("model"), py::arg("real_name"), py::arg("model_name"));
  m.def("scramble", [](const LogPtr& l, uint64_t seed) {
    return with_records(l, model::scramble(l->records, seed), model::scramble_header(l->header, l->records, "DataFrame", seed));
  }, py::arg("log"), py::arg("seed"));
  // `logs`: paths (streamed from the file, as the CLI) or Logs (DataFrames).
  m.def("profiler_ingest", [](const std::string& db_path, const py::list& logs, const std::string& source) {
    namespace pf = predict::profiler;
    if (!source.empty() && logs.size() > 1) throw py::value_error("source names one log; give one log with it");
    std::vector<std::variant<std::string, LogPtr>> items;
    for (const auto& item : logs) {
      if (py::isinstance<py::str>(item) || py::isinstance<py::bytes>(item)) {  // bytes: a name that is not UTF-8
        items.emplace_back(item.cast<std::string>());
      } else {
        items.emplace_back(item.cast<LogPtr>());
      }
    }
    nlohmann::json j;
    {
      py::gil_scoped_release release;
      pf::ProfilerDb db(db_path, pf::ProfilerDb::Mode::kWrite);
      std::vector<pf::IngestReport> reports;
      for (const auto& item : items) {
        if (const auto* path = std::get_if<std::string>(&item)) {
          reports.push_back(db.ingest(*path, {source}));
        } else {
          reports.push_back(db.ingest(*std::get<LogPtr>(item), {source}));
        }
      }
      j = experiments::to_json(reports, db.summary());
    }
    return to_python(j);
  }, py::arg("db"), py::arg("logs"), py::arg("source"));
  m.def("profiler_query", [](const std::string& db_path, int32_t user, int32_t exe, int64_t procs, int64_t elapsed,
                             double confidence) {
    namespace pf = predict::profiler;
    const pf::Repository repo = pf::load_repository(db_path);
    return to_python(experiments::to_json(repo.get_estimate({exe, user, procs, elapsed}, confidence), confidence));
  }, py::arg("db"), py::arg("user"), py::arg("exe"), py::arg("procs"), py::arg("elapsed"), py::arg("confidence"));
  m.def("profiler_compare", [](const std::string& db_path, std::vector<int64_t> a, std::vector<int64_t> b,
                               double difference, double confidence) {
    namespace pf = predict::profiler;
    if (a.size() != 4 || b.size() != 4) throw py::value_error("a job is (user, executable, procs, elapsed)");
    const pf::Repository repo = pf::load_repository(db_path);
    const pf::JobQuery qa{static_cast<int32_t>(a[1]), static_cast<int32_t>(a[0]), a[2], a[3]};
    const pf::JobQuery qb{static_cast<int32_t>(b[1]), static_cast<int32_t>(b[0]), b[2], b[3]};
    return to_python(experiments::to_json(pf::compare_job_estimates(repo, difference, confidence, qa, qb), difference,
                                          confidence));
  }, py::arg("db"), py::arg("a"), py::arg("b"), py::arg("difference"), py::arg("confidence"));
  // The experiment's log and, with training_runs > 0, the profiler's training log (`--training-out`).
  m.def("generate_profiler_experiment", [](int64_t jobs, double mean_interarrival, uint64_t seed,
                                           int64_t training_runs) {
    if (training_runs < 0) throw py::value_error("training_runs must be >= 0 (0: no training log)");
    model::ProfilerExperimentOptions o;
    o.jobs = jobs;
    o.mean_interarrival = mean_interarrival;
    o.seed = seed;
    auto out = std::make_shared<swf::Log>();
    out->records = model::generate_profiler_experiment(o);
    out->header = model::profiler_experiment_header(o);
    if (training_runs == 0) return py::make_tuple(out, py::none());
    auto training = std::make_shared<swf::Log>();
    training->records = model::generate_profiler_training(o, training_runs);
    training->header = model::profiler_training_header(o, training_runs);
    return py::make_tuple(out, training);
  }, py::arg("jobs"), py::arg("mean_interarrival"), py::arg("seed"), py::arg("training_runs"));
  m.def("generate_locality", [](const LogPtr& l, double theta, int64_t jobs, uint64_t seed, int max_repetitions,
                                const std::string& repeat, const std::string& arrivals, int64_t think,
                                bool cut_tail) {
    model::LocalityModelOptions o;
    o.cut_tail = cut_tail;
    o.theta = theta;
    o.jobs = jobs;
    o.seed = seed;
    o.max_repetitions = max_repetitions;
    o.repeat = choice("repeat", repeat, model::parse_locality_repeat(repeat), model::locality_repeat_names());
    o.arrivals = choice("arrivals", arrivals, model::parse_locality_arrivals(arrivals), model::locality_arrivals_names());
    o.think = think;
    model::LocalityModelStats st;
    auto records = model::generate_locality(l->records, o, &st);
    return with_records(l, std::move(records), model::locality_header(l->header, "DataFrame", o, st));
  }, py::arg("log"), py::arg("theta"), py::arg("jobs"), py::arg("seed"), py::arg("max_repetitions"),
     py::arg("repeat"), py::arg("arrivals"), py::arg("think"), py::arg("cut_tail"));
  // `generate talby`: the job layer fitted on `fit` (named `source` in the header) or read from `job_model`,
  // optionally saved; the report as the CLI's --json, with the guideline's warnings.
  m.def("generate_talby", [](std::optional<int64_t> procs, std::optional<double> cpu_work,
                             std::optional<double> jobs_per_day, std::optional<double> load, int64_t weeks, uint64_t seed,
                             const std::string& fit, const std::string& source, const std::string& job_model,
                             const std::string& save_job_model, int threads) {
    model::TalbyOptions o;
    o.procs = procs;
    o.cpu_work = cpu_work;
    o.jobs_per_day = jobs_per_day;
    o.load = load;
    o.weeks = weeks;
    o.seed = seed;
    o.threads = threads;
    const model::TalbyParameters p = model::resolve_talby_parameters(o);
    if (!save_job_model.empty()) swf::check_output_is_not_input(save_job_model, {fit, job_model});
    model::TalbyStats st;
    model::TalbyJobModel jm;
    std::vector<swf::Record> records;
    {
      py::gil_scoped_release release;
      jm = job_model.empty() ? model::fit_talby_job_layer(swf::read_swf_or_csv(fit), source)
                             : model::read_talby_job_model(job_model);
      if (!save_job_model.empty()) model::write_talby_job_model(save_job_model, jm);
      records = model::generate_talby(o, jm, &st);
    }
    auto out = std::make_shared<swf::Log>();
    out->header = model::talby_header(o, p, jm, st);
    out->records = std::move(records);
    return py::make_tuple(out, json_out(model::to_json(o, p, jm, st)));
  }, py::arg("procs"), py::arg("cpu_work"), py::arg("jobs_per_day"), py::arg("load"), py::arg("weeks"),
     py::arg("seed"), py::arg("fit"), py::arg("source"), py::arg("job_model"), py::arg("save_job_model"),
     py::arg("threads"));
  // Python's duration arguments go through the library's one rule ("90", "15m", "1.5h", "1h30m"), so a value
  // means the same to `schedlab.locality(slice=...)` as to `--slice`.
  m.def("parse_duration", [](const std::string& text, const std::string& name) {
    auto seconds = base::parse_duration(text);
    if (!seconds)
      throw py::value_error(name + ": not a duration: '" + text +
                            "' (a number >= 0 with an optional unit s, m, h, d or w, e.g. 90, 15m, 1.5h, 1h30m)");
    return *seconds;
  }, py::arg("text"), py::arg("name"));
  m.def("field_names", [] {
    std::vector<std::string> names;
    for (auto n : swf::kFieldNames) names.emplace_back(n);
    return names;
  });
  m.def("schedulers", [] {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& e : sim::schedulers()) out.emplace_back(std::string(e.name), std::string(e.description));
    return out;
  });
  m.def("predictors", [] {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& e : predict::predictors()) out.emplace_back(std::string(e.name), std::string(e.description));
    return out;
  });
}
