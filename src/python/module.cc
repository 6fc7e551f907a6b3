// schedlab._core: the library for Python (pybind11). Like the CLI, this layer only converts, calls and returns:
// every computation is the library's. The user-facing module is python/schedlab/__init__.py (DataFrames,
// docstrings); docs/python.md.
//
// Logs cross as a `Log` handle (an immutable swf::Log shared by reference, so a log read once serves many
// simulations) built from a file or from column arrays; columns leave as NumPy arrays filled from the C++ records
// in one pass, no Python loop. Library errors become Python exceptions with the library's message: bad input
// (std::invalid_argument, swf::ReadError, SweepError, ...) ValueError, an unreadable or unwritable file OSError.
// Simulations and sweeps release the GIL.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "schedlab/analysis/summary.h"
#include "schedlab/experiments/log_summary.h"
#include "schedlab/experiments/simulation.h"
#include "schedlab/experiments/sweep.h"
#include "schedlab/predict/registry.h"
#include "schedlab/sim/job_output.h"
#include "schedlab/sim/scheduler_registry.h"
#include "schedlab/swf/reader.h"
#include "schedlab/swf/record.h"
#include "schedlab/swf/writer.h"

namespace py = pybind11;
using namespace schedlab;

namespace {

using LogPtr = std::shared_ptr<swf::Log>;  // never modified once built (pybind11 holders are non-const)

// nlohmann JSON -> Python objects (dict, list, float, int, str, bool, None).
py::object to_python(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::object: {
      py::dict d;
      for (const auto& [k, v] : j.items()) d[py::str(k)] = to_python(v);
      return d;
    }
    case nlohmann::json::value_t::array: {
      py::list l;
      for (const auto& v : j) l.append(to_python(v));
      return l;
    }
    case nlohmann::json::value_t::string: return py::str(j.get<std::string>());
    case nlohmann::json::value_t::boolean: return py::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer: return py::int_(j.get<int64_t>());
    case nlohmann::json::value_t::number_unsigned: return py::int_(j.get<uint64_t>());
    case nlohmann::json::value_t::number_float: return py::float_(j.get<double>());
    default: return py::none();
  }
}

nlohmann::json ordered_to_plain(const nlohmann::ordered_json& j) { return nlohmann::json::parse(j.dump()); }

LogPtr read_log(const std::string& path) {
  std::error_code ec;
  if (path != "-" && !std::filesystem::exists(path, ec)) {
    PyErr_SetString(PyExc_FileNotFoundError, (path + ": no such file").c_str());
    throw py::error_already_set();
  }
  py::gil_scoped_release release;
  return std::make_shared<swf::Log>(swf::read_log(path));
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
LogPtr log_from_columns(const py::dict& columns, const std::vector<std::string>& header_lines) {
  auto log = std::make_shared<swf::Log>();
  for (const auto& l : header_lines) log->header.add_line(l.starts_with(";") ? l : "; " + l);
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
  log->records.resize(static_cast<size_t>(n));
  for (int f = 1; f <= swf::kFieldCount; ++f) {
    if (!present[static_cast<size_t>(f - 1)]) continue;
    auto v = cols[static_cast<size_t>(f - 1)].unchecked<1>();
    const std::string name(swf::kFieldNames[static_cast<size_t>(f - 1)]);
    for (py::ssize_t i = 0; i < n; ++i) {
      const double x = v(i);
      if (std::isnan(x)) {
        log->records[static_cast<size_t>(i)].field(f) = -1;
        continue;
      }
      if (!(std::fabs(x) < 2147483647.0))
        throw py::value_error("column " + name + ", row " + std::to_string(i) + ": outside the 32-bit range");
      log->records[static_cast<size_t>(i)].set_value(f, x);
    }
  }
  return log;
}

py::dict stats(const LogPtr& log, std::optional<int64_t> procs) {
  const analysis::Summary s = analysis::summarize(*log, procs);
  return to_python(ordered_to_plain(experiments::to_json(s, log->header)));
}

py::tuple simulate(const LogPtr& log, const std::string& scheduler, const std::string& predictor,
                   const std::string& correction, std::optional<int64_t> procs, std::optional<double> load,
                   double arrival_scale, bool kill_at_estimate, bool extend_estimates, double warmup_fraction,
                   int64_t bsld_tau, uint64_t seed, bool check) {
  experiments::SimulationSpec spec;
  spec.scheduler = scheduler;
  spec.predictor = predictor;
  spec.correction = correction;
  spec.workload.procs = procs;
  spec.workload.load = load;
  spec.workload.arrival_scale = arrival_scale;
  spec.workload.kill_at_estimate = kill_at_estimate;
  spec.workload.extend_estimates = extend_estimates;
  spec.sim.warmup_fraction = warmup_fraction;
  spec.sim.bsld_tau = bsld_tau;
  spec.sim.seed = seed;
  spec.sim.check = check;
  nlohmann::json metrics;
  std::string jobs;
  {
    py::gil_scoped_release release;
    const experiments::PreparedSimulation prepared = experiments::prepare_simulation(spec);
    const experiments::Simulation s = experiments::run_simulation(prepared, *log);
    metrics = experiments::to_json(s);
    jobs = sim::jobs_csv(s.workload, s.result);
  }
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
  }
  ~PyScheduler() override {
    py::gil_scoped_acquire gil;
    obj_ = py::object();
  }
  PyScheduler(const PyScheduler&) = delete;
  PyScheduler& operator=(const PyScheduler&) = delete;
  std::unique_ptr<Scheduler> clone() const override {
    py::gil_scoped_acquire gil;
    return std::make_unique<PyScheduler>(obj_, name_);  // the same Python object: its state is shared
  }
  std::string_view name() const override { return name_; }
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
    const py::object r = obj_.attr("schedule")(view(state));
    if (r.is_none()) return;
    for (const py::handle id : r) decision.start.push_back(id.cast<sim::JobId>());
  }

 private:
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
    return s;
  }
  static py::object state_type() {
    static py::object t = py::module_::import("types").attr("SimpleNamespace");
    return t;
  }
  py::object obj_;
  std::string name_;
  bool has_arrival_ = false, has_termination_ = false;
};

py::tuple simulate_python(const LogPtr& log, const py::object& scheduler, const std::string& name,
                          const std::string& predictor, std::optional<int64_t> procs, std::optional<double> load,
                          double arrival_scale, bool kill_at_estimate, double warmup_fraction, uint64_t seed) {
  experiments::SimulationSpec spec;
  spec.scheduler = "fcfs";  // replaced below: prepare_simulation builds the predictor and checks the options
  spec.predictor = predictor;
  spec.workload.procs = procs;
  spec.workload.load = load;
  spec.workload.arrival_scale = arrival_scale;
  spec.workload.kill_at_estimate = kill_at_estimate;
  spec.sim.warmup_fraction = warmup_fraction;
  spec.sim.seed = seed;
  spec.sim.check = true;  // a user's scheduler runs under the engine's invariant checks
  experiments::PreparedSimulation prepared = experiments::prepare_simulation(spec);
  prepared.scheduler = std::make_unique<PyScheduler>(scheduler, name);
  prepared.name = name;
  nlohmann::json metrics;
  std::string jobs;
  {
    py::gil_scoped_release release;
    const experiments::Simulation s = experiments::run_simulation(prepared, *log);
    metrics = experiments::to_json(s);
    jobs = sim::jobs_csv(s.workload, s.result);
  }
  prepared.scheduler.reset();
  return py::make_tuple(to_python(metrics), py::bytes(jobs));
}

py::list sweep(const std::string& text, const std::string& name, int threads) {
  const experiments::SweepSpec spec = name.empty() ? experiments::parse_sweep_spec(text, "<spec>")
                                                   : experiments::read_sweep_spec(name);
  const auto runs = experiments::expand_sweep(spec);
  std::vector<experiments::SweepRow> rows;
  {
    py::gil_scoped_release release;
    experiments::SweepOptions o;
    o.threads = threads;
    o.on_row = [&](const experiments::SweepRow& r) { rows.push_back(r); };
    experiments::run_sweep(spec, runs, o);
  }
  py::list out;
  for (const auto& r : rows) {
    py::list values;
    for (const auto& v : r.values) values.append(to_python(v));
    out.append(values);
  }
  return out;
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "schedlab's C++ library (use the `schedlab` package, not this module)";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const swf::WriteError& e) {
      PyErr_SetString(PyExc_OSError, e.what());
    } catch (const std::exception& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  py::class_<swf::Log, LogPtr>(m, "Log", "An SWF log held by the library (immutable, shared by reference)")
      .def_property_readonly("header_lines", [](const swf::Log& l) { return l.header.lines; })
      .def("__len__", [](const swf::Log& l) { return l.records.size(); });
  m.def("read_log", &read_log, py::arg("path"));
  m.def("log_columns", [](const LogPtr& l) { return log_columns(*l); }, py::arg("log"));
  m.def("log_from_columns", &log_from_columns, py::arg("columns"), py::arg("header_lines"));
  m.def("write_log",
        [](const LogPtr& l, const std::string& path) {
          py::gil_scoped_release release;
          swf::write_log(path, l->header, l->records);
        },
        py::arg("log"), py::arg("path"));
  m.def("stats", &stats, py::arg("log"), py::arg("procs") = py::none());
  m.def("simulate", &simulate, py::arg("log"), py::arg("scheduler"), py::arg("predictor"), py::arg("correction"),
        py::arg("procs"), py::arg("load"), py::arg("arrival_scale"), py::arg("kill_at_estimate"),
        py::arg("extend_estimates"), py::arg("warmup_fraction"), py::arg("bsld_tau"), py::arg("seed"),
        py::arg("check"));
  m.def("sweep", &sweep, py::arg("text"), py::arg("path"), py::arg("threads"));
  m.def("simulate_python", &simulate_python, py::arg("log"), py::arg("scheduler"), py::arg("name"),
        py::arg("predictor"), py::arg("procs"), py::arg("load"), py::arg("arrival_scale"),
        py::arg("kill_at_estimate"), py::arg("warmup_fraction"), py::arg("seed"));
  m.def("sweep_columns", &experiments::sweep_columns);
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
