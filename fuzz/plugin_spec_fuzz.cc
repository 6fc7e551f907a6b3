// libFuzzer entry point for the plug-in spec grammar (base/params.h) and what reads it: any text given as a
// scheduler, a predictor or an estimate model's parameters, or as a JSON parameter document, must either make the
// plug-in or raise std::invalid_argument / model::ModelError / a JSON parse error naming the problem — never
// crash, hang, leak, throw anything else, or trip ASan/UBSan. A spec's canonical text (format_spec) must parse
// back to the same spec. Texts naming a file ('@', a predictor's db= or train=) are skipped: the file
// system is not what is fuzzed here (spec files have their own tests).
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "schedlab/base/json_parse.h"
#include "schedlab/base/params.h"
#include "schedlab/model/estimate_models.h"
#include "schedlab/predict/registry.h"
#include "schedlab/sim/scheduler_registry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schedlab;
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (text.find('@') != std::string::npos || text.find("db") != std::string::npos ||
      text.find("train") != std::string::npos)
    return 0;
  base::Spec spec;
  bool parsed = false;
  try {
    spec = base::parse_spec(text, "scheduler");
    parsed = true;
  } catch (const std::invalid_argument&) {
  }
  if (parsed) {  // outside the try: the canonical text failing to parse is a bug to find
    const base::Spec again = base::parse_spec(base::format_spec(spec), "scheduler");
    if (again.name != spec.name || again.params != spec.params) __builtin_trap();
  }
  try {
    (void)sim::make_scheduler(text);
  } catch (const std::invalid_argument&) {
  }
  try {
    (void)predict::make_predictor(text, {});
  } catch (const std::invalid_argument&) {
  }
  // An estimate model: NAME:k=v,k=v as a sweep spec names one.
  const size_t colon = text.find(':');
  try {
    model::check_estimate_model(text.substr(0, colon),
                                colon == std::string::npos ? nlohmann::json::object()
                                                           : model::parse_params_text(text.substr(colon + 1)));
  } catch (const model::ModelError&) {
  } catch (const std::invalid_argument&) {
  }
  try {
    const nlohmann::json j = base::parse_json(text);
    const nlohmann::json copy = j;  // copying and printing recurse once per level: the depth bound keeps them safe
    (void)copy.dump();
  } catch (const nlohmann::json::exception&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
