// Predictor specifications: a predictor name with optional parameters, as one string.
//
// Syntax:   NAME[:KEY=VALUE[;KEY=VALUE...]]
//   e.g.    estimate        ruh:propagate=1        sbh:criteria=PE,P,E,*;order=dfs;propagate=1
// Keys and values may not contain ':' ';' '=' (values may contain ','); spaces around tokens are ignored.
// A key given twice is an error. Every predictor accepts the common key `correction` (predict/correction.h:
// none, tsafrir, double, times10), which wraps it in the correction decorator; its other keys are listed in
// the registry (predict/registry.h, `schedlab simulate --list`) and an unknown key is an error naming the
// keys the predictor has.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>

namespace schedlab::predict {

struct PredictorSpec {
  std::string name;
  std::map<std::string, std::string> params;
};

// Parses a spec; throws std::invalid_argument on a malformed one.
PredictorSpec parse_predictor_spec(std::string_view spec);
// The canonical text of a spec (keys in sorted order).
std::string format_predictor_spec(const PredictorSpec& spec);

// Typed access to one predictor's parameters. Every get_* marks the key as known; finish() throws
// std::invalid_argument naming the first parameter that no get_* asked for, and the known ones.
class ParamReader {
 public:
  ParamReader(std::string_view predictor, const std::map<std::string, std::string>& params)
      : predictor_(predictor), params_(params) {}
  std::string get_string(const std::string& key, const std::string& fallback);
  // An integer >= min_value (throws otherwise).
  int64_t get_int(const std::string& key, int64_t fallback, int64_t min_value = 0);
  // 0/1, false/true, no/yes, off/on.
  bool get_bool(const std::string& key, bool fallback);
  void finish() const;

 private:
  std::string predictor_;
  const std::map<std::string, std::string>& params_;
  std::set<std::string> known_;
};

}  // namespace schedlab::predict
