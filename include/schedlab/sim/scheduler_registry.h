// The scheduler registry: every scheduling policy, by name. The table lives in ONE file,
// src/sim/scheduler_registry.cc (no static self-registration — static libraries drop those): adding a
// policy = one new file + one line in that table.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "schedlab/base/params.h"
#include "schedlab/sim/scheduler.h"

namespace schedlab::sim {

struct SchedulerEntry {
  std::string_view name;
  std::string_view description;  // one line
  // Makes the scheduler from checked parameters (every declared one has its given value or its default).
  std::function<std::unique_ptr<Scheduler>(const SchedulerConfig&, const base::Params&)> make;
  std::vector<base::ParamDecl> params = {};  // its parameters (base/params.h); empty: none
};

// All registered schedulers, in the order they are listed to users.
const std::vector<SchedulerEntry>& schedulers();

// Makes a scheduler from `spec` = NAME[:KEY=VALUE[;KEY=VALUE...]] (e.g. "lerwf:resume_delay=30"; the
// grammar of base/params.h, "@FILE" included); the parameters join config.params. Throws
// std::invalid_argument listing the known names if unknown, or naming a parameter the scheduler does not
// have or a value it does not accept, a spec file that includes itself, or specs nested (an adaptive
// scheduler's candidates, theirs, ...) more than kMaxSchedulerNesting deep.
inline constexpr int kMaxSchedulerNesting = 16;
std::unique_ptr<Scheduler> make_scheduler(std::string_view spec, const SchedulerConfig& config = {});

// Presets (Tsafrir, Etsion & Feitelson 2007): names usable wherever a scheduler name is, that fix the
// scheduler AND the predictor (with its correction):
//   easy-pcor = easy + estimate:correction=tsafrir
//   easy+     = easy + user-last2:correction=tsafrir
//   easy++    = easy-sjbf + user-last2:correction=tsafrir
//   perfect++ = easy-sjbf + perfect
// (easy-sjbf itself is a plain scheduler: with the default `estimate` predictor it is the paper's EASY-SJBF.)
// Giving a preset together with an explicit predictor or correction is an error (CLI and simulate()).
struct Preset {
  std::string_view name;
  std::string_view scheduler;
  std::string_view predictor;  // a predictor spec (predict/spec.h)
  std::string_view description;
};
const std::vector<Preset>& presets();
// The preset called `name`, or nullptr.
const Preset* find_preset(std::string_view name);

// A policy as a user names it — a scheduler or a preset, optionally a predictor spec and a correction —
// resolved to what the registries make. Presets are expanded here and nowhere else.
struct Policy {
  std::string name;       // what results call it: the name given (a preset's too), or a spec file's spec
  std::string scheduler;  // a scheduler spec (make_scheduler)
  std::string predictor;  // a predictor spec (predict::make_predictor)
  // Joined to the predictor spec's parameters by make_predictor: the correction, when one was given.
  std::map<std::string, std::string> predictor_params;
  // Where relative paths inside `scheduler` are read from (SchedulerConfig::files_dir): the directory of the
  // spec file it was read from, or the `files_dir` given. (`predictor` is as given: make_predictor reads its file.)
  std::string scheduler_files_dir;
};
// `predictor` and `correction` empty = not given (the predictor is then predict::kDefaultPredictor, or the
// preset's). A scheduler given as "@FILE" is read first (base/params.h), so a file may name a preset too.
// Throws std::invalid_argument when a preset comes with a predictor or a correction. Unknown names
// are found when the scheduler and predictor are made. `files_dir`: where a relative "@PATH" scheduler is read
// from (a sweep spec's directory; empty: the working directory).
Policy resolve_policy(std::string_view scheduler, std::string_view predictor = {}, std::string_view correction = {},
                      std::string_view files_dir = {});

}  // namespace schedlab::sim
