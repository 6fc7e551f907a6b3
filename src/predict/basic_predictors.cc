#include "schedlab/predict/basic_predictors.h"

namespace schedlab::predict {

int64_t EstimatePredictor::on_arrival(int64_t /*now*/, const Job& job, Updates& /*updates*/) {
  return job.estimate;
}

int64_t PerfectPredictor::on_arrival(int64_t /*now*/, const Job& job, Updates& /*updates*/) {
  return job.runtime;
}

int64_t ConstantPredictor::on_arrival(int64_t /*now*/, const Job& /*job*/, Updates& /*updates*/) { return value_; }

}  // namespace schedlab::predict
