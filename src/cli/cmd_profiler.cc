// schedlab profiler: the historical application profiler (Gibbons 1997) over an SQLite repository database.
//   ingest TRACE... --db FILE [--source NAME]     learn the jobs of SWF logs (incremental, idempotent)
//   query --db FILE --user U [--exe E] --procs P [--elapsed S] [--confidence C]     getEstimate
//   compare --db FILE --user-a .. --procs-a .. --user-b .. --procs-b .. --difference D [--confidence C]
//                                                 compareJobEstimates (Welch's one-sided test)
// Library: predict/profiler.h (estimates), predict/profiler_db.h (the database).
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/text_util.h"
#include "schedlab/base/json_text.h"
#include "schedlab/experiments/profiler_report.h"
#include "schedlab/predict/profiler.h"
#include "schedlab/predict/profiler_db.h"

namespace schedlab::cli {

namespace {

namespace pf = predict::profiler;

struct IngestArgs {
  std::vector<std::string> traces;
  std::string db, source;
  bool json = false;
};

struct JobArgs {
  int32_t user = -1, exe = -1;
  int64_t procs = 1, elapsed = 0;
};

struct QueryArgs {
  std::string db;
  JobArgs job;
  double confidence = 0.95;
  bool json = false;
};

struct ProfilerCompareArgs {
  std::string db;
  JobArgs a, b;
  double difference = 0, confidence = 0.95;
  bool json = false;
};

void check_confidence(double c) {
  if (!(c > 0 && c < 1)) throw std::invalid_argument(fmt::format("--confidence must be between 0 and 1 (exclusive), got {}", c));
}

void check_job(const JobArgs& j, const char* which) {
  if (j.procs < 1 || j.procs > std::numeric_limits<int32_t>::max())  // the option named, not the library's words
    throw std::invalid_argument(fmt::format("--procs{} must be 1 to 2^31 - 1, got {}", which, j.procs));
  if (j.elapsed < 0) throw std::invalid_argument(fmt::format("--elapsed{} must be >= 0, got {}", which, j.elapsed));
}

pf::JobQuery to_query(const JobArgs& j) { return {j.exe, j.user, j.procs, j.elapsed}; }

std::string describe_job(const JobArgs& j) {
  return fmt::format("user {}, executable {}, {}{}", j.user,
                     j.exe < 0 ? std::string("unknown") : std::to_string(j.exe), counted(j.procs, "processor"),
                     j.elapsed > 0 ? fmt::format(", has run {} s", j.elapsed) : std::string());
}

// Why the answer came from its level: the categories are tried from (executable, user) to the whole system, and a
// query answered by the system alone looked as if the user and executable had been ignored.
std::string level_reason(const pf::Estimate& e, const JobArgs& job) {
  switch (e.level) {
    case pf::Level::kExeUser: return fmt::format(" (executable {} of user {})", job.exe, job.user);
    case pf::Level::kExe:
      return fmt::format(" (all users' jobs of executable {}: user {}'s could not answer)", job.exe, job.user);
    case pf::Level::kSystem:
      return job.exe < 0 ? " (the whole system: no executable given, so no executable category)"
                         : fmt::format(" (the whole system: executable {}'s jobs could not answer)", job.exe);
  }
  return "";
}

void print_estimate(const pf::Estimate& e, const JobArgs& job, double confidence, const char* indent,
                    bool conditioned) {
  if (!e.ok) {
    const char* ran = conditioned ? " that ran that long" : "";
    if (e.held == 0) {
      fmt::print("{}estimate     none: no category of this job (exe+user, exe, system) has jobs{}\n", indent, ran);
    } else {
      // Data that cannot answer (a size far beyond the log's, where the fit turns negative) is not "no data".
      const int b = pf::proc_bucket(job.procs);
      const std::string sizes = b == 0 ? "1 processor" : fmt::format("{}-{} processors", (int64_t{1} << (b - 1)) + 1,
                                                                     int64_t{1} << b);
      fmt::print("{}estimate     none: the whole system's {}{} cannot answer at {}: its fit is not "
                 "positive there and fewer than 2 of its jobs ran on {}\n",
                 indent, counted(e.held, "job"), ran, counted(job.procs, "processor"), sizes);
    }
    return;
  }
  if (e.corrected) {
    fmt::print("{}estimate     {:.1f} s (corrected: the job has outlived the mean {:.1f} s + 3 half-widths)\n",
               indent, e.estimate, e.uncorrected);
  } else {
    fmt::print("{}estimate     {:.1f} s (mean runtime)\n", indent, e.estimate);
  }
  fmt::print("{}interval     {:g}% ± {:.1f} s: [{:.1f}, {:.1f}]\n", indent, confidence * 100, e.half_width,
             e.estimate - e.half_width, e.upper());
  fmt::print("{}level        {}{}\n", indent, pf::level_name(e.level), level_reason(e, job));
  if (e.function) {
    const auto& b = e.function->coefficients();
    fmt::print("{}method       fit over {} processor buckets: T(p) = {:.4g}/p {:+.4g} {:+.4g}·p (std. error {:.1f} s, "
               "ν = {:g})\n",
               indent, e.buckets, b[0], b[1], b[2], e.std_error, e.dof);
  } else {
    fmt::print("{}method       mean of the processor bucket (sd {:.1f} s, std. error {:.1f} s, ν = {:g})\n", indent,
               e.sd, e.std_error, e.dof);
  }
  fmt::print("{}samples      {}\n", indent, counted(e.samples, "job"));
}

void run_ingest(const IngestArgs& a) {
  if (!a.source.empty() && a.traces.size() > 1) {
    throw std::invalid_argument("--source names one log; give one TRACE with it");
  }
  pf::ProfilerDb db(a.db, pf::ProfilerDb::Mode::kWrite);
  std::vector<pf::IngestReport> reports;
  const auto t0 = std::chrono::steady_clock::now();
  for (const auto& trace : a.traces) {
    reports.push_back(db.ingest(trace, {a.source}));
    for (const std::string& w : reports.back().header_warnings) fmt::print(stderr, "schedlab: warning: {}\n", w);
    if (!reports.back().partial_executions_note.empty())
      fmt::print(stderr, "schedlab: note: {}\n", reports.back().partial_executions_note);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const pf::DbSummary sum = db.summary();
  int64_t records = 0;
  for (const auto& r : reports) records += r.records;
  if (a.json) {
    nlohmann::json doc = experiments::to_json(reports, sum);
    doc["db"] = a.db;
    doc["created"] = db.created();
    doc["wall_time_s"] = seconds;
    fmt::print("{}\n", base::json_text(doc, 2));
    return;
  }
  fmt::print("database     {}{}\n", a.db, db.created() ? " (created)" : "");
  for (const auto& r : reports) {
    fmt::print("log          {}\n", r.trace);
    fmt::print("source       {}{}\n", r.source, r.new_source ? " (new)" : " (seen before)");
    fmt::print("records      {} read: {} added, {} already in the database, {} skipped\n", r.records, r.added,
               r.already, r.skipped_total);
    for (const auto& [reason, n] : r.skipped) fmt::print("  skipped {:<18} {}\n", reason, n);
  }
  fmt::print("database now {} from {}, {}\n", counted(sum.jobs, "job"),
             counted(static_cast<int64_t>(sum.sources.size()), "log"), counted(sum.entries, "entry", "entries"));
  fmt::print("ingest time  {:.3f} s ({:.0f} records/s)\n", seconds,
             seconds > 0 ? static_cast<double>(records) / seconds : 0.0);
}

void run_query(const QueryArgs& a) {
  check_confidence(a.confidence);
  check_job(a.job, "");
  const pf::Repository repo = pf::load_repository(a.db);
  const pf::Estimate e = repo.get_estimate(to_query(a.job), a.confidence);
  if (a.json) {
    nlohmann::json doc = experiments::to_json(e, a.confidence);
    doc["job"] = {{"user", a.job.user}, {"executable", a.job.exe}, {"procs", a.job.procs}, {"elapsed", a.job.elapsed}};
    doc["db"] = a.db;
    fmt::print("{}\n", base::json_text(doc, 2));
    return;
  }
  fmt::print("job          {}\n", describe_job(a.job));
  print_estimate(e, a.job, a.confidence, "", a.job.elapsed > 0);
}

void run_profiler_compare(const ProfilerCompareArgs& a) {
  check_confidence(a.confidence);
  check_job(a.a, "-a");
  check_job(a.b, "-b");
  const pf::Repository repo = pf::load_repository(a.db);
  const pf::Comparison c = pf::compare_job_estimates(repo, a.difference, a.confidence, to_query(a.a), to_query(a.b));
  if (!c.ok) {
    throw std::runtime_error(fmt::format("{}: cannot compare: no estimate for job {} ({})", a.db, c.a.ok ? "B" : "A",
                                         describe_job(c.a.ok ? a.b : a.a)));
  }
  const std::string verdict = c.test.accepted ? "accepted" : "not supported";
  if (a.json) {
    nlohmann::json doc = experiments::to_json(c, a.difference, a.confidence);
    doc["db"] = a.db;
    fmt::print("{}\n", base::json_text(doc, 2));
    return;
  }
  fmt::print("job A        {}\n", describe_job(a.a));
  print_estimate(c.a, a.a, a.confidence, "  ", a.a.elapsed > 0);
  fmt::print("job B        {}\n", describe_job(a.b));
  print_estimate(c.b, a.b, a.confidence, "  ", a.b.elapsed > 0);
  fmt::print("hypothesis   mean runtime of A - mean runtime of B > {:g} s (Welch, one-sided, {:g}%)\n", a.difference,
             a.confidence * 100);
  fmt::print("t            {:.4f}\n", c.test.t);
  fmt::print("dof          {:.2f}\n", c.test.dof);
  fmt::print("critical     {:.4f}\n", c.test.critical);
  fmt::print("verdict      {}\n", verdict);
}

void add_job_options(CLI::App* cmd, JobArgs& j, const std::string& suffix, const std::string& what) {
  cmd->add_option("--user" + suffix, j.user, "user id (SWF field 12) of " + what)->required();
  cmd->add_option("--exe" + suffix, j.exe, "executable id (SWF field 14) of " + what + " (default -1: unknown)");
  cmd->add_option("--procs" + suffix, j.procs, "processors of " + what)->required();
  cmd->add_option("--elapsed" + suffix, j.elapsed,
                  "seconds " + what + " has already run: only jobs that ran about as long count (default 0)");
}

}  // namespace

void add_profiler_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "profiler", "Historical application profiler (Gibbons 1997): learn runtimes into a database, query it");
  cmd->require_subcommand(1);

  auto ingest = std::make_shared<IngestArgs>();
  CLI::App* in = cmd->add_subcommand("ingest", "Learn the jobs of SWF logs into the database (idempotent)");
  in->add_option("TRACE", ingest->traces, "logs: SWF (plain or gzip; - = standard input), or CSV for a .csv or .csv.gz name")->required();
  in->add_option("--db", ingest->db, "the profiler database (SQLite file; created when absent)")->required();
  in->add_option("--source", ingest->source, "the log's identity (default: from its header or file name)");
  in->add_flag("--json", ingest->json, "print one JSON document");
  in->callback([ingest]() { run_ingest(*ingest); });

  auto query = std::make_shared<QueryArgs>();
  CLI::App* q = cmd->add_subcommand("query", "Estimate a job's runtime with a confidence interval (getEstimate)");
  q->add_option("--db", query->db, "the profiler database")->required();
  add_job_options(q, query->job, "", "the job");
  q->add_option("--confidence", query->confidence, "confidence of the interval, 0 < C < 1 (default 0.95)");
  q->add_flag("--json", query->json, "print one JSON document");
  q->callback([query]() { run_query(*query); });

  auto compare = std::make_shared<ProfilerCompareArgs>();
  CLI::App* c = cmd->add_subcommand(
      "compare", "is job A's mean runtime longer than job B's by more than D seconds? (Welch's one-sided test)");
  c->add_option("--db", compare->db, "the profiler database")->required();
  add_job_options(c, compare->a, "-a", "job A");
  add_job_options(c, compare->b, "-b", "job B");
  c->add_option("--difference", compare->difference, "D, seconds (default 0)");
  c->add_option("--confidence", compare->confidence, "confidence of the test, 0 < C < 1 (default 0.95)");
  c->add_flag("--json", compare->json, "print one JSON document");
  c->callback([compare]() { run_profiler_compare(*compare); });
}

}  // namespace schedlab::cli
