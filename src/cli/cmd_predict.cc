// schedlab predict: replay a log's own schedule (logged submit, start = submit + wait, end = start + runtime;
// no scheduling) through a runtime predictor and report its accuracy (predict/replay.h, predict/accuracy.h).
#include <algorithm>
#include <charconv>
#include <memory>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <vector>
#include <string>
#include <utility>

#include <fmt/core.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cli/analyze_util.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/read_input.h"
#include "cli/text_util.h"
#include "schedlab/base/duration.h"
#include "schedlab/base/json_text.h"
#include "schedlab/base/nearest.h"
#include "schedlab/experiments/log_replay.h"
#include "schedlab/predict/registry.h"
#include "schedlab/swf/reader.h"
#include "schedlab/swf/writer.h"
#include "schedlab/trace/id_names.h"

namespace schedlab::cli {

namespace {

struct PredictArgs {
  std::string trace;
  std::string predictor{predict::kDefaultPredictor};
  std::string correction;
  std::optional<int64_t> procs;
  bool extend_estimates = false;
  double warmup_fraction = 0.0;
  uint64_t seed = 0;
  bool json = false;
  std::string jobs_out;
  std::string next;  // --next user=U,procs=N,estimate=E,...
};

// --next "user=3,procs=8,estimate=4h,exe=5": the job asked about. Keys: user (required), procs (default 1), estimate
// (a duration; default none), exe, group, queue, partition (default -1, unknown).
// --next as given: the numbers, and the user, group or partition given by a name (a log converted from sacct keeps
// them in its header: trace/id_names.h), looked up once the log is read.
struct NextJobText {
  experiments::NextJob job;
  std::map<std::string, std::string> names;  // key ("user", "group", "partition") -> name
};

NextJobText parse_next_job(const std::string& text) {
  const std::vector<std::string> keys{"user", "procs", "estimate", "exe", "group", "queue", "partition"};
  NextJobText parsed;
  experiments::NextJob& job = parsed.job;
  bool user = false;
  std::set<std::string> seen;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    pos = comma + 1;
    const size_t eq = item.find('=');
    if (eq == std::string::npos)
      throw std::invalid_argument(fmt::format("--next: '{}' is not KEY=VALUE (keys: {})", item, fmt::join(keys, ", ")));
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    if (std::find(keys.begin(), keys.end(), key) == keys.end())
      throw std::invalid_argument(fmt::format("--next: unknown key '{}'{} (keys: {})", key, base::did_you_mean(key, keys),
                                              fmt::join(keys, ", ")));
    if (!seen.insert(key).second) throw std::invalid_argument(fmt::format("--next: {} given twice", key));
    if (key == "estimate") {
      const auto d = base::parse_duration(value);
      if (!d || *d <= 0)
        throw std::invalid_argument(fmt::format("--next: estimate '{}' is not a positive duration (seconds, or 4h, "
                                                "1h30m, 2d)", value));
      job.estimate = *d;
      continue;
    }
    int32_t v = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    const bool named = key == "user" || key == "group" || key == "partition";
    if (named && !value.empty() && value.find_first_not_of("0123456789+-") != std::string::npos) {
      parsed.names.emplace(key, value);
      user |= key == "user";
      continue;
    }
    if (ec != std::errc() || end != value.data() + value.size() || value.empty())
      throw std::invalid_argument(fmt::format("--next: {} '{}' is not a whole number", key, value));
    if (key == "user") {
      job.user = v;
      user = true;
    } else if (key == "procs") {
      job.procs = v;
    } else if (key == "exe") {
      job.executable = v;
    } else if (key == "group") {
      job.group = v;
    } else if (key == "queue") {
      job.queue = v;
    } else {
      job.partition = v;
    }
  }
  if (!user) throw std::invalid_argument("--next: the user is required (user=U)");
  return parsed;
}

// The names of --next as the log's header numbers them.
experiments::NextJob resolve_next_job(const NextJobText& next, const swf::Header& header) {
  experiments::NextJob job = next.job;
  for (const auto& [key, name] : next.names) {
    const std::string kind = key == "user" ? "users" : key == "group" ? "groups" : "partitions";
    const int32_t id = *trace::ids_of_names(fmt::format("--next {}", key), {name}, header, kind).begin();
    (key == "user" ? job.user : key == "group" ? job.group : job.partition) = id;
  }
  return job;
}

void run_next(const PredictArgs& a, const predict::Predictor& predictor, const experiments::NextJob& job,
              const std::map<std::string, std::string>& names, swf::Log&& log) {
  Progress progress("predict", "jobs", 2.0, false);
  const experiments::NextPrediction r = experiments::predict_next(
      std::move(log), predictor, job,
      {a.procs, a.extend_estimates, a.warmup_fraction,
       [&progress](size_t done, size_t total) { progress.update(done, total); }});
  progress.finish();
  for (const std::string& w : r.replay.warnings) fmt::print(stderr, "schedlab: warning: {}\n", w);
  if (a.json) {
    nlohmann::json doc = experiments::to_json(r);
    doc["trace"] = a.trace;
    fmt::print("{}\n", base::json_text(doc, 2));
    return;
  }
  const auto seconds = [](int64_t s) { return fmt::format("{} ({} s)", base::format_duration(s), s); };
  const auto named = [&names](const char* key, int32_t id) {  // "user 3 (alice)" when given by its name
    const auto it = names.find(key);
    return it == names.end() ? fmt::format("{} {}", key, id) : fmt::format("{} {} ({})", key, id, it->second);
  };
  std::string what = fmt::format("{}, {} processor{}, estimate {}", named("user", job.user), job.procs,
                                 job.procs == 1 ? "" : "s", job.estimate ? seconds(*job.estimate) : "none");
  if (job.executable >= 0) what += fmt::format(", executable {}", job.executable);
  if (job.group >= 0) what += ", " + named("group", job.group);
  if (job.queue >= 0) what += fmt::format(", queue {}", job.queue);
  if (job.partition >= 0) what += ", " + named("partition", job.partition);
  fmt::print("trace        {}\n", a.trace);
  fmt::print("predictor    {}\n", r.replay.predictor);
  fmt::print("next job     {}\n", what);
  fmt::print("submitted    at {} s, a second after the log's last job ended ({} replayed)\n", r.submit,
             counted(static_cast<int64_t>(r.replay.workload.jobs.size()), "job"));
  if (r.prediction)
    fmt::print("prediction   {}\n", seconds(*r.prediction));
  else
    fmt::print("prediction   none: without the user's history the predictor falls back to the estimate, and the job "
               "has none (give estimate=)\n");
  if (r.user_jobs > 0)
    fmt::print("on the user's {} in the log: relative accuracy {:.4f} (mean), {:.1f}% underestimated\n",
               counted(r.user_jobs, "job"), r.user_mean_relative_accuracy, 100 * r.user_underestimated_share);
  else
    fmt::print("the user has no job in the log\n");
}

void run(const PredictArgs& a) {
  // One document on standard output: the per-job CSV there was followed by the report or the JSON.
  check_one_stdout_document(a.json, a.jobs_out);
  predict::PredictorConfig config{a.seed, {}};
  if (!a.correction.empty()) config.params.emplace("correction", a.correction);  // joins the spec's parameters
  const auto predictor = predict::make_predictor(a.predictor, config);
  swf::check_output_is_not_input(a.jobs_out, {a.trace});
  std::optional<NextJobText> next;
  if (!a.next.empty()) next = parse_next_job(a.next);  // before the log is read: a typo costs no read
  swf::Log log = read_input_log(a.trace);
  if (next) {
    const experiments::NextJob job = resolve_next_job(*next, log.header);
    run_next(a, *predictor, job, next->names, std::move(log));
    return;
  }
  Progress progress("predict", "jobs", 2.0, false);  // shown on a terminal once a replay takes over 2 s
  const experiments::LogReplay r = experiments::replay_log(
      std::move(log), *predictor,
      {a.procs, a.extend_estimates, a.warmup_fraction,
       [&progress](size_t done, size_t total) { progress.update(done, total); }});
  progress.finish();
  for (const std::string& w : r.warnings) fmt::print(stderr, "schedlab: warning: {}\n", w);
  if (!a.jobs_out.empty()) experiments::write_log_replay_csv(a.jobs_out, r);
  if (a.jobs_out == "-") return;  // the CSV is the output
  if (a.json) {
    nlohmann::json doc = experiments::to_json(r);
    doc["trace"] = a.trace;
    fmt::print("{}\n", base::json_text(doc, 2));
    return;
  }
  const workload::Workload& w = r.workload;
  const auto& s = r.result.summary;
  fmt::print("trace        {}\n", a.trace);
  fmt::print("predictor    {}\n", r.predictor);
  fmt::print("jobs         {} replayed of {}, {} excluded, {} without estimate, {} with unknown wait (0 used)\n",
             w.jobs.size(), counted(w.records, "record"), w.excluded_total, w.without_estimate, r.unknown_wait);
  for (const auto& note : w.notes) fmt::print("note         {}\n", note);
  fmt::print("\naccuracy over {} (time-weighted over each job's life; {} excluded)\n", counted(s.jobs, "job"),
             counted(static_cast<int64_t>(w.jobs.size()) - s.jobs, "warm-up job"));
  fmt::print("{:<24} {:>14.1f} s (median {:.1f} s)\n", "absolute error, mean", s.mean_absolute_error,
             s.median_absolute_error);
  fmt::print("{:<24} {:>14.4f} (median {:.4f})\n", "relative accuracy, mean", s.mean_relative_accuracy,
             s.median_relative_accuracy);
  fmt::print("{:<24} {:>14.4f}\n", "underestimated share", s.underestimated_share);
  fmt::print("{:<24} {:>14.3f}\n", "predictions per job", s.mean_predictions);
  fmt::print("{:<24} {:>14}\n", "deadline misses", r.result.deadline_misses);
}

}  // namespace

void add_predict_command(CLI::App& app) {
  auto args = std::make_shared<PredictArgs>();
  CLI::App* cmd = app.add_subcommand(
      "predict", "Replay a log's own schedule through a runtime predictor and report its accuracy");
  cmd->add_option("TRACE", args->trace, kLogInputHelp)->required();
  cmd->add_option("--predictor,-p", args->predictor, "predictor spec NAME[:KEY=VALUE;...] (default: estimate)");
  cmd->add_option("--correction", args->correction, "none (default), tsafrir, double, times10");
  cmd->add_option("--procs", args->procs, "machine size (jobs larger are left out)");
  cmd->add_flag("--extend-estimates", args->extend_estimates, "raise estimates below the runtime to the runtime");
  cmd->add_option("--warmup-fraction", args->warmup_fraction, "leave the first fraction of terminated jobs out");
  cmd->add_option("--seed", args->seed, "random seed (default 0)");
  cmd->add_flag("--json", args->json, "print one JSON document");
  auto* jobs_out =
      cmd->add_option("--jobs-out", args->jobs_out, "write per-job accuracy as CSV (\"-\" = standard output)");
  // The replay's per-job accuracy is not what --next answers: the two exclude each other (a usage error).
  cmd->add_option("--next", args->next,
                  "user=U[,procs=N][,estimate=DURATION][,exe=E][,group=G][,queue=Q][,partition=P]: the prediction for "
                  "this user's next job, after the whole log (user, group and partition also by the names a log "
                  "converted from sacct keeps: user=alice)")
      ->type_name("JOB")
      ->excludes(jobs_out);
  cmd->callback([args]() { run(*args); });
}

}  // namespace schedlab::cli
