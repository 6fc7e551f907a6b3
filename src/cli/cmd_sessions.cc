// schedlab sessions TRACE...: user sessions (trace/sessions.h) with the Talby thesis's per-session
// variables (analysis/session_vars.h); optionally session / user classes by k-means, the online heuristic
// classifier and a PCA (analysis/session_classes.h, analysis/kmeans.h). Several logs are pooled.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/analyze_util.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/text_util.h"
#include "schedlab/base/count_text.h"
#include "schedlab/base/json_text.h"
#include "schedlab/experiments/session_study.h"
#include "schedlab/swf/writer.h"

namespace schedlab::cli {
namespace {

struct SessionsCliOptions {
  std::vector<std::string> paths;
  std::string out, users_out, think = "20m", transform = "none";
  bool classify = false, online = false, pca = false, json = false, skip_invalid = false;
  uint64_t seed = 1;
  int restarts = 10;
};

std::string_view session_class(int c) { return analysis::session_class_name(static_cast<analysis::SessionClass>(c)); }
std::string_view user_class(int c) { return analysis::user_class_name(static_cast<analysis::UserClass>(c)); }
double share(int64_t count, int64_t total) { return static_cast<double>(count) / static_cast<double>(total); }

void print_text(const SessionsCliOptions& opt, const experiments::SessionStudy& st) {
  using experiments::class_mean;
  std::string out = fmt::format("sessions (think time >= {} s starts a new one)\n", st.options.think_time);
  for (const auto& l : st.logs)
    out += fmt::format("  {:<36} {:>9} {:<8}  ({} without user or submit time; machine {})\n", l.label,
                       group_thousands(static_cast<int64_t>(l.rows.size())),
                       l.rows.size() == 1 ? "session" : "sessions",
                       counted_grouped(l.sessions.unattributed, "job"), counted_grouped(l.procs, "proc"));
  out += fmt::format("\n{:<4} {:>14} {:>14} {:>14}\n", "var", "mean", "median", "p10-p90 width");
  for (size_t v = 0; v < analysis::kSessionVars; ++v) {
    const auto& d = st.variables[v];
    out += fmt::format("{:<4} {:>14.2f} {:>14.2f} {:>14.2f}\n", analysis::kSessionVarNames[v], d.mean, d.median,
                       d.p90 - d.p10);
  }
  // The thesis's names, which the table alone does not explain (analysis/session_vars.h has the definitions).
  out += "(over the sessions; per session: J jobs, D duration in s from the first submit to the last end; m median\n"
         " and i 90% interval (p95 - p5) of R runtime in s, P size on a 128-processor machine, I inter-arrival in s,\n"
         " T think time in s (from the previous job's end: negative when jobs overlap); UP, UR distinct sizes,\n"
         " runtimes; SD, SW 1 when it starts in daytime (07:30-17:30) / on a workday; PD, PW (%D, %W below) its\n"
         " share in daytime / on workdays)\n";
  if (opt.classify) {
    const auto& co = st.options.classify_options;
    const auto& sc = st.session_classes;
    out += fmt::format("\nsession classes (k-means k=5 on D Ti %D %W UP Pm Rm, z-scored, transform {}, seed {}, "
                       "{})\n",
                       opt.transform, co.seed, counted(co.restarts, "restart"));
    out += fmt::format("{:<6} {:>9} {:>7} {:>7} {:>11} {:>9} {:>6} {:>6} {:>7} {:>8}\n", "class", "sessions", "share",
                       "thesis", "mean D", "mean Ti", "%D", "%W", "Pm", "Rm");
    for (int c = 0; c < analysis::kSessionClasses; ++c) {
      const int64_t count = sc.counts[static_cast<size_t>(c)];
      out += fmt::format("{:<6} {:>9} {:>6.1f}% {:>6.0f}% {:>11.0f} {:>9.0f} {:>6.2f} {:>6.2f} {:>7.1f} {:>8.0f}\n",
                         session_class(c), count, 100.0 * share(count, st.sessions),
                         100 * experiments::kThesisSessionShare[static_cast<size_t>(c)], class_mean(sc, c, "D"),
                         class_mean(sc, c, "Ti"), class_mean(sc, c, "PD"), class_mean(sc, c, "PW"),
                         class_mean(sc, c, "Pm"), class_mean(sc, c, "Rm"));
    }
    out += "(IWD, IWN interactive on workdays by day / at night; IW interactive at weekends; BHP batch, high\n"
           " parallelism; BHD batch, long duration. thesis: the Talby thesis's share; the rest are class means)\n";
    const auto& uc = st.user_classes;
    out += fmt::format("\nuser classes (k-means k=4 on %D Pm Rm J %W Im JW %BHD): {} users\n", st.users);
    out += fmt::format("{:<6} {:>7} {:>7} {:>7} {:>6} {:>6} {:>8} {:>8} {:>9}\n", "class", "users", "share", "thesis",
                       "%D", "%W", "J", "JW", "%BHD");
    for (int c = 0; c < analysis::kUserClasses; ++c) {
      const int64_t count = uc.counts[static_cast<size_t>(c)];
      out += fmt::format("{:<6} {:>7} {:>6.1f}% {:>6.0f}% {:>6.2f} {:>6.2f} {:>8.0f} {:>8.1f} {:>8.1f}%\n",
                         user_class(c), count, 100.0 * share(count, st.users),
                         100 * experiments::kThesisUserShare[static_cast<size_t>(c)], class_mean(uc, c, "PD"),
                         class_mean(uc, c, "PW"), class_mean(uc, c, "J"), class_mean(uc, c, "JW"),
                         100 * class_mean(uc, c, "pBHD"));
    }
    out += "(LTLU, LTHU long-term light / heavy users; STWE, STWD short-term users of weekends / of workday\n"
           " nights. J jobs, JW jobs per week, %BHD share of their sessions in class BHD)\n";
  }
  if (opt.online) {
    out += "\nonline heuristic classes (first job of each session):";
    for (int c = 0; c < analysis::kSessionClasses; ++c)
      out += fmt::format(" {} {:.1f}%", session_class(c),
                         100.0 * share(st.online_counts[static_cast<size_t>(c)], st.sessions));
    if (st.online_agreement) out += fmt::format("; agreement with k-means {:.1f}%", 100.0 * *st.online_agreement);
    out += "\n";
  }
  if (opt.pca) {
    out += "\nPCA of the 16 session variables (z-scored), cumulative explained variance (thesis, 18 variables):\n";
    double cum = 0;
    for (size_t c = 0; c < st.pca.explained.size() && c < 9; ++c) {
      cum += st.pca.explained[c];
      out += fmt::format("  #{} {:>5.1f}% cumulative {:>5.1f}%  ({:.0f}%)\n", c + 1, 100 * st.pca.explained[c],
                         100 * cum, 100 * experiments::kThesisPcaCumulative[c]);
    }
  }
  fmt::print("{}", out);
}

void run_sessions(const SessionsCliOptions& opt) {
  check_one_stdout_document(opt.json, opt.out);
  check_one_stdout_document(opt.json, opt.users_out);
  check_no_report_options("-o", opt.out, {{"--pca", opt.pca}});  // --online adds a column to the CSV
  check_no_report_options("--users-output", opt.users_out, {{"--pca", opt.pca}});
  if (opt.out == "-" && opt.users_out == "-")
    throw std::invalid_argument("-o and --users-output cannot both be standard output ('-'): write one to a file");
  experiments::SessionStudyOptions so;
  so.think_time = parse_duration("--think-time", opt.think);
  so.classify = opt.classify;
  so.online = opt.online;
  so.pca = opt.pca;
  so.classify_options.seed = opt.seed;
  so.classify_options.restarts = opt.restarts;
  so.classify_options.transform = analysis::parse_transform(opt.transform).value();  // (CLI checked the names)
  if (opt.restarts < 1) throw std::invalid_argument("--restarts must be >= 1");
  swf::check_output_is_not_input(opt.out, opt.paths);
  swf::check_output_is_not_input(opt.users_out, opt.paths);
  if (!opt.out.empty() && opt.out != "-" && opt.out == opt.users_out)
    throw std::invalid_argument(fmt::format("-o and --users-output name one file ({})", opt.out));
  std::vector<std::pair<std::string, swf::Log>> logs;
  for (const auto& path : opt.paths) logs.emplace_back(path, read_log_for_analysis(path, opt.skip_invalid));
  // Two clusterings (sessions, then users) of --restarts starts each: many restarts take minutes.
  Progress progress("sessions: k-means", "restarts", 2.0, false);
  size_t restarts_done = 0;
  if (so.classify)
    so.classify_options.after_restart = [&] {
      progress.update(++restarts_done, 2 * static_cast<size_t>(opt.restarts));
    };
  const experiments::SessionStudy st = experiments::run_session_study(std::move(logs), so);
  progress.finish();

  if (!opt.out.empty()) swf::write_text_file(opt.out, experiments::session_study_csv(st));
  if (!opt.users_out.empty()) swf::write_text_file(opt.users_out, experiments::user_study_csv(st));
  if (opt.json) {
    fmt::print("{}\n", base::json_text(experiments::to_json(st), 2));
    return;
  }
  if (opt.out == "-" || opt.users_out == "-") return;
  print_text(opt, st);
}

}  // namespace

void add_sessions_command(CLI::App& app) {
  auto opt = std::make_shared<SessionsCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "sessions", "User sessions, and Talby's session and user classes");
  cmd->footer("A new session when the think time is >= --think-time; per session the Talby thesis's variables. "
              "--classify: the five session and four user classes (k-means); --online: the online heuristic "
              "classifier; --pca: principal components. Several logs are pooled.");
  cmd->add_option("TRACE", opt->paths, "one or more logs (SWF, or CSV for a .csv or .csv.gz name)")->required();
  cmd->add_option("-o,--output", opt->out, "write one CSV row per session (- = standard output)");
  cmd->add_option("--think-time", opt->think, "session boundary (N[s|m|h|d])")->capture_default_str();
  CLI::Option* classify =
      cmd->add_flag("--classify", opt->classify, "k-means session classes (k=5) and user classes (k=4)");
  cmd->add_flag("--online", opt->online, "also the online heuristic session classifier");
  cmd->add_flag("--pca", opt->pca, "principal components of the session variables");
  // The k-means options shape --classify only: alone they were ignored without a word.
  cmd->add_option("--seed", opt->seed, "seed of k-means++")->capture_default_str()->needs(classify);
  cmd->add_option("--restarts", opt->restarts, "k-means restarts")->capture_default_str()->needs(classify);
  cmd->add_option("--users-output", opt->users_out,
                  "write one CSV row per user: the user variables and class (- = standard output)")
      ->needs(classify);
  cmd->add_option("--transform", opt->transform, "none (thesis: z-scores of raw values) or log (signed log first)")
      ->check(CLI::IsMember(analysis::transform_names()))
      ->capture_default_str()
      ->needs(classify);
  cmd->add_flag("--json", opt->json, "print one JSON document");
  cmd->add_flag("--skip-invalid", opt->skip_invalid, "skip malformed records (counted by reason) instead of failing");
  cmd->callback([opt] { run_sessions(*opt); });
}

}  // namespace schedlab::cli
