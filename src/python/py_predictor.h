// A runtime predictor written in Python (schedlab.Predictor, docs/python.md): the engine calls it like a
// registered one (predict/predictor.h). Each call takes the GIL and hands the job over as a schedlab.Job named
// tuple (the fields predictors may use: never the runtime); new predictions for other jobs come back through the
// instance's update(job_id, seconds), drained after every call. Each simulation runs a deep copy of the user's
// instance (clone() is copy.deepcopy), so runs are independent and repeatable and the instance itself is left as
// it was.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "schedlab/predict/predictor.h"

namespace schedlab::python {

// The copy of a plug-in each simulation runs (copy.deepcopy; the GIL held): `kind` and `name` ("predictor",
// "Last2") name an object that cannot be copied in the ValueError.
pybind11::object deep_copy(const pybind11::object& obj, std::string_view kind, std::string_view name);

class PyPredictor final : public predict::Predictor {
 public:
  // `obj`: the schedlab.Predictor instance; `name`: what results call it; `job_type`: schedlab.Job.
  PyPredictor(pybind11::object obj, std::string name, pybind11::object job_type);
  ~PyPredictor() override;
  PyPredictor(const PyPredictor&) = delete;
  PyPredictor& operator=(const PyPredictor&) = delete;

  std::unique_ptr<predict::Predictor> clone() const override;
  std::string_view name() const override { return name_; }
  int64_t on_arrival(int64_t now, const predict::Job& job, predict::Updates& updates) override;
  void on_start(int64_t now, const predict::Job& job, int64_t prediction, predict::Updates& updates) override;
  void on_termination(int64_t now, const predict::Job& job, int64_t start, predict::Updates& updates) override;
  void on_deadline_miss(int64_t now, const predict::Job& job, int64_t start, int64_t prediction,
                        predict::Updates& updates) override;

 private:
  pybind11::object job(const predict::Job& j) const;
  // After a hook: its return value must be None (`hook` names it), and the updates it gave are moved out.
  void finish(const char* hook, const pybind11::object& returned, predict::Updates& updates) const;
  pybind11::object obj_;
  std::string name_;
  pybind11::object job_type_;
  bool has_start_ = false, has_termination_ = false, has_deadline_miss_ = false;
};

}  // namespace schedlab::python
