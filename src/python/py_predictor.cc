#include "py_predictor.h"

#include <pybind11/stl.h>

#include <utility>

#include <fmt/core.h>

namespace py = pybind11;

namespace schedlab::python {

namespace {

// The type's name and value, for an error that says what was handed back instead.
std::string shown(const py::handle value) {
  return fmt::format("{} ({})", std::string(py::repr(value)), std::string(py::str(value.get_type().attr("__name__"))));
}

}  // namespace

PyPredictor::PyPredictor(py::object obj, std::string name, py::object job_type)
    : obj_(std::move(obj)), name_(std::move(name)), job_type_(std::move(job_type)) {
  has_start_ = py::hasattr(obj_, "on_start");
  has_termination_ = py::hasattr(obj_, "on_termination");
  has_deadline_miss_ = py::hasattr(obj_, "on_deadline_miss");
}

PyPredictor::~PyPredictor() {
  py::gil_scoped_acquire gil;
  obj_ = py::object();
  job_type_ = py::object();
}

py::object deep_copy(const py::object& obj, std::string_view kind, std::string_view name) {
  try {
    return py::module_::import("copy").attr("deepcopy")(obj);
  } catch (py::error_already_set& e) {
    throw py::value_error(fmt::format("{} {}: each simulation runs a copy of it (copy.deepcopy), and it cannot be "
                                      "copied: {} (define __deepcopy__ to say how)",
                                      kind, name, e.what()));
  }
}

std::unique_ptr<predict::Predictor> PyPredictor::clone() const {
  py::gil_scoped_acquire gil;
  auto p = std::make_unique<PyPredictor>(deep_copy(obj_, "predictor", name_), name_, job_type_);
  p->set_label(std::string(label()));
  return p;
}

py::object PyPredictor::job(const predict::Job& j) const {
  return job_type_(j.id, j.job_number, j.submit, j.procs, j.estimate, j.has_estimate, j.user, j.group, j.executable,
                   j.queue, j.partition);
}

void PyPredictor::finish(const char* hook, const py::object& returned, predict::Updates& updates) const {
  if (!returned.is_none())
    throw py::value_error(fmt::format("predictor {}: {}() returns nothing, not {}: give a job a new prediction with "
                                      "self.update(job_id, seconds)",
                                      name_, hook, shown(returned)));
  const py::object pending = py::getattr(obj_, "_schedlab_updates", py::none());
  if (pending.is_none() || py::len(pending) == 0) return;
  for (const py::handle u : pending) {
    std::pair<predict::JobId, int64_t> update;
    try {
      update = u.cast<std::pair<predict::JobId, int64_t>>();
    } catch (const py::cast_error&) {
      throw py::value_error(fmt::format("predictor {}: an update must be a (job id, seconds) pair of ints, not {}",
                                        name_, shown(u)));
    }
    // As on_arrival's prediction: a negative one is the predictor's mistake, not something to round up silently.
    if (update.second < 0)
      throw py::value_error(fmt::format("predictor {}: {}() predicted {} s for job {}: a runtime is >= 0", name_, hook,
                                        update.second, update.first));
    updates.push_back({update.first, update.second});
  }
  pending.attr("clear")();
}

int64_t PyPredictor::on_arrival(int64_t now, const predict::Job& j, predict::Updates& updates) {
  py::gil_scoped_acquire gil;
  const py::object r = obj_.attr("on_arrival")(now, job(j));
  int64_t prediction = 0;
  try {
    prediction = r.cast<int64_t>();
  } catch (const py::cast_error&) {
    throw py::value_error(fmt::format("predictor {}: on_arrival() returns the job's predicted runtime, a whole number "
                                      "of seconds (int), not {}",
                                      name_, shown(r)));
  }
  if (prediction < 0)
    throw py::value_error(fmt::format("predictor {}: on_arrival() predicted {} s for job {}: a runtime is >= 0", name_,
                                      prediction, j.id));
  finish("on_arrival", py::none(), updates);
  return prediction;
}

void PyPredictor::on_start(int64_t now, const predict::Job& j, int64_t prediction, predict::Updates& updates) {
  if (!has_start_) return;
  py::gil_scoped_acquire gil;
  finish("on_start", obj_.attr("on_start")(now, job(j), prediction), updates);
}

void PyPredictor::on_termination(int64_t now, const predict::Job& j, int64_t start, predict::Updates& updates) {
  if (!has_termination_) return;
  py::gil_scoped_acquire gil;
  finish("on_termination", obj_.attr("on_termination")(now, job(j), start), updates);
}

void PyPredictor::on_deadline_miss(int64_t now, const predict::Job& j, int64_t start, int64_t prediction,
                                   predict::Updates& updates) {
  if (!has_deadline_miss_) return;
  py::gil_scoped_acquire gil;
  finish("on_deadline_miss", obj_.attr("on_deadline_miss")(now, job(j), start, prediction), updates);
}

}  // namespace schedlab::python
