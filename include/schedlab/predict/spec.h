// Predictor specifications: a predictor name with optional parameters, as one string, in the grammar of
// base/params.h (shared with schedulers: nesting in brackets, "@FILE").
//
// Syntax:   NAME[:KEY=VALUE[;KEY=VALUE...]]
//   e.g.    estimate        ruh:propagate=1        sbh:criteria=PE,P,E,*;order=dfs;propagate=1
// A key given twice is an error. Every predictor accepts the common key `correction` (predict/correction.h:
// none, tsafrir, double, times10), which wraps it in the correction decorator; its other keys are declared
// in the registry (predict/registry.h, `schedlab simulate --list`) and an unknown key, or a value of the
// wrong type, is an error naming it.
#pragma once

#include <string>
#include <string_view>

#include "schedlab/base/params.h"

namespace schedlab::predict {

using PredictorSpec = base::Spec;

// Parses a spec; throws std::invalid_argument on a malformed one.
inline PredictorSpec parse_predictor_spec(std::string_view spec) { return base::parse_spec(spec, "predictor"); }
// The canonical text of a spec (keys in sorted order).
inline std::string format_predictor_spec(const PredictorSpec& spec) { return base::format_spec(spec); }

}  // namespace schedlab::predict
