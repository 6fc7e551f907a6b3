// Slurm accounting output to SWF (swf/sacct.h), on hand-written sacct text; tests/slurm_local_test.sh does the
// same on a real Slurm's output.
#include "schedlab/swf/sacct.h"

#include <fmt/core.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace schedlab::swf {
namespace {

const char* kText =
    "State|JobID|JobName|User|Group|Partition|Submit|Start|End|Elapsed|Timelimit|AllocCPUS|ReqCPUS|NodeList|Extra\n"
    "COMPLETED|10|sim|alice|hpc|batch|2026-01-05T10:00:00|2026-01-05T10:00:30|2026-01-05T10:10:30|00:10:00|01:00:00|4|4|n1|x\n"
    "FAILED|11|sim|bob|hpc|batch|2026-01-05T09:00:00|2026-01-05T09:00:00|2026-01-05T09:00:05|00:00:05|1-00:00:00|1|1|n1|x\n"
    "TIMEOUT|12_1|arr|alice|hpc|debug|2026-01-05T10:05:00|2026-01-05T10:06:00|2026-01-05T10:07:00|00:01:00|1|2|2|n1|x\n"
    "CANCELLED by 0|13|big|bob|hpc|batch|2026-01-05T10:20:00|None|2026-01-05T10:30:00|00:00:00|UNLIMITED|0|64|None assigned|x\n"
    "CANCELLED by 0|14|late|bob|hpc|batch|2026-01-05T10:21:00|2026-01-05T10:22:00|2026-01-05T10:22:00|00:00:00|"
    "Partition_Limit|1|1|None assigned|x\n"
    "CANCELLED by 1000|15|sim|alice|hpc|batch|2026-01-05T10:40:00|2026-01-05T10:41:00|2026-01-05T10:45:00|00:04:00|"
    "10:00|8|8|n1|x\n"
    "RUNNING|16|sim|alice|hpc|batch|2026-01-05T11:00:00|2026-01-05T11:00:00|Unknown|00:10:00|01:00:00|1|1|n1|x\n";

// The text read as sacct printed it in UTC, with the default options (the report, when asked for, in `rep`).
Log parse_utc(const std::string& text, SacctReport* rep = nullptr, const std::string& name = "s.txt") {
  SacctOptions o;
  o.timezone = "UTC";
  return parse_sacct(text, name, o, rep);
}

TEST(Sacct, MapsStatusesTimesSizesAndNames) {
  SacctReport rep;
  const Log log = parse_utc(kText, &rep);
  EXPECT_EQ(rep.rows, 7);
  EXPECT_EQ(rep.unfinished, 1);  // RUNNING
  EXPECT_EQ(rep.unstarted, 2);   // Start None; and None assigned (cancelled before its begin time)
  ASSERT_EQ(log.records.size(), 4u);
  // Submit order: FAILED 09:00 first.
  const Record& failed = log.records[0];
  EXPECT_EQ(failed.job_number, 1);
  EXPECT_EQ(failed.submit_time, 0);
  EXPECT_EQ(failed.status, 0);
  EXPECT_EQ(failed.run_time, 5);
  EXPECT_EQ(failed.requested_time, 86400);
  EXPECT_EQ(failed.user_id, 2);  // alice is user 1 (first row), bob 2
  const Record& done = log.records[1];
  EXPECT_EQ(done.submit_time, 3600);
  EXPECT_EQ(done.wait_time, 30);
  EXPECT_EQ(done.run_time, 600);
  EXPECT_EQ(done.allocated_procs, 4);
  EXPECT_EQ(done.requested_time, 3600);
  EXPECT_EQ(done.status, 1);
  EXPECT_EQ(done.user_id, 1);
  EXPECT_EQ(done.executable, 1);
  EXPECT_EQ(done.partition, 1);
  const Record& timeout = log.records[2];
  EXPECT_EQ(timeout.status, 0);
  EXPECT_EQ(timeout.requested_time, 60);  // "1" = one minute
  EXPECT_EQ(timeout.partition, 2);        // debug
  const Record& cancelled = log.records[3];
  EXPECT_EQ(cancelled.status, 5);
  EXPECT_EQ(cancelled.run_time, 240);
  EXPECT_EQ(cancelled.requested_time, 600);  // "10:00" = MM:SS
  EXPECT_EQ(log.header.unix_start_time, 1767603600);  // 2026-01-05T09:00:00Z
  EXPECT_EQ(log.header.time_zone_string, "UTC");
  EXPECT_EQ(log.header.max_procs, 8);
  bool users = false;
  for (const auto& n : log.header.notes) users = users || n == "users: 1=alice, 2=bob";
  EXPECT_TRUE(users);
}

// sacct without -X: a row per job step besides each allocation's. The steps are left out and counted: the same
// log as with -X.
// A byte order mark before the header (the file saved by a Windows editor) is not part of its first column: that
// was "column State is missing (the header has: <BOM>State|JobID|...)".
TEST(Sacct, AByteOrderMarkIsNotPartOfTheHeader) {
  EXPECT_EQ(parse_utc("\xEF\xBB\xBF" + std::string(kText)).records, parse_utc(kText).records);
}

TEST(Sacct, JobStepsAreLeftOutAndCounted) {
  std::string with_steps;
  int steps = 0;
  size_t pos = 0;
  for (size_t next; (next = std::string_view(kText).find('\n', pos)) != std::string_view::npos; pos = next + 1) {
    const std::string line(kText + pos, next - pos);
    with_steps += line + "\n";
    if (pos == 0 || line.rfind("RUNNING", 0) == 0) continue;
    // COMPLETED|10|... -> COMPLETED|10.batch|... and COMPLETED|10.0|...
    const size_t a = line.find('|') + 1, b = line.find('|', a);
    for (const char* step : {".batch", ".0"}) {
      with_steps += line.substr(0, b) + step + line.substr(b) + "\n";
      ++steps;
    }
  }
  SacctOptions o;
  o.timezone = "UTC";
  SacctReport plain_rep, steps_rep;
  const Log plain = parse_sacct(kText, "s.txt", o, &plain_rep);
  const Log stepped = parse_sacct(with_steps, "s.txt", o, &steps_rep);
  EXPECT_EQ(steps, 12);
  EXPECT_EQ(steps_rep.steps, 12);
  EXPECT_EQ(plain_rep.steps, 0);
  EXPECT_EQ(steps_rep.rows, plain_rep.rows + 12);
  EXPECT_EQ(steps_rep.jobs, plain_rep.jobs);
  EXPECT_EQ(steps_rep.states, plain_rep.states);
  EXPECT_EQ(stepped.records, plain.records);
}

// A heterogeneous job's components are one job (they were one job each): the first component's submit, user and
// name; processors summed; the shortest wait, the longest runtime and time limit, unlimited when one is. Its rows
// need not be adjacent.
TEST(Sacct, HeterogeneousJobComponentsAreOneJob) {
  const std::string text =
      "JobID|JobName|User|Submit|Start|End|State|AllocCPUS|ReqCPUS|Timelimit\n"
      "20+0|het|alice|2026-01-05T10:00:00|2026-01-05T10:02:00|2026-01-05T10:12:00|COMPLETED|4|4|00:30:00\n"
      "21|solo|bob|2026-01-05T10:01:00|2026-01-05T10:01:00|2026-01-05T10:02:00|COMPLETED|1|1|00:10:00\n"
      "20+1|het-part|alice|2026-01-05T10:00:00|2026-01-05T10:01:00|2026-01-05T10:20:00|COMPLETED|8|6|01:00:00\n"
      "22+0|u|bob|2026-01-05T10:03:00|2026-01-05T10:04:00|2026-01-05T10:05:00|FAILED|2|2|00:10:00\n"
      "22+1|u|bob|2026-01-05T10:03:00|2026-01-05T10:04:00|2026-01-05T10:05:00|FAILED|2|2|UNLIMITED\n"
      "22+2|u|bob|2026-01-05T10:03:00|2026-01-05T10:04:00|2026-01-05T10:05:00|FAILED|16|16|00:20:00\n";
  SacctReport rep;
  const Log log = parse_utc(text, &rep, "h.txt");
  EXPECT_EQ(rep.rows, 6);
  EXPECT_EQ(rep.het_components, 3);
  ASSERT_EQ(log.records.size(), 3u);
  const Record& het = log.records[0];
  EXPECT_EQ(het.submit_time, 0);
  EXPECT_EQ(het.wait_time, 60);     // the component that started first
  EXPECT_EQ(het.run_time, 19 * 60); // the longest
  EXPECT_EQ(het.allocated_procs, 12);
  EXPECT_EQ(het.requested_procs, 10);
  EXPECT_EQ(het.requested_time, 3600);
  EXPECT_EQ(het.status, 1);
  EXPECT_EQ(het.executable, 1);  // "het": the other component's name is not a job of its own
  EXPECT_EQ(log.records[1].allocated_procs, 1);
  EXPECT_EQ(log.records[1].executable, 2);
  const Record& three = log.records[2];
  EXPECT_EQ(three.allocated_procs, 20);
  EXPECT_EQ(three.requested_time, -1);  // one component unlimited
  EXPECT_EQ(three.status, 0);
  std::string notes;
  for (const auto& note : log.header.notes) notes += note + "\n";
  EXPECT_NE(notes.find("heterogeneous-job components 3 (merged into their job)"), std::string::npos) << notes;
  EXPECT_NE(notes.find("job names (field 14): 1=het, 2=solo, 3=u\n"), std::string::npos) << notes;
}

// sacct -D prints every run of a requeued job, the same JobID on a row per run (the earlier ones REQUEUED, the
// last with a Submit at the requeue). They are one job: a summary line (the first Submit, the wait until the first
// run, the runs' summed runtime, the last row's status) and a partial-execution line per run, right after it;
// before, the REQUEUED rows were left out as "unfinished" and the job's first run was lost. The rows of a job need
// not be adjacent: sacct lists them by submit time.
TEST(Sacct, RequeuedRunsAreOneJobWithPartialExecutionLines) {
  const std::string text =
      "JobID|JobName|User|Submit|Start|End|State|AllocCPUS|ReqCPUS|Timelimit\n"
      "1|rq|alice|2026-01-05T10:00:00|2026-01-05T10:00:10|2026-01-05T10:01:10|REQUEUED|4|4|01:00:00\n"
      "2|ok|bob|2026-01-05T10:00:30|2026-01-05T10:00:30|2026-01-05T10:05:00|COMPLETED|2|2|00:30:00\n"
      "1|rq|alice|2026-01-05T10:01:10|2026-01-05T10:03:00|2026-01-05T10:13:00|COMPLETED|8|4|01:00:00\n"
      "3|twice|bob|2026-01-05T10:02:00|2026-01-05T10:02:00|2026-01-05T10:02:20|NODE_FAIL|1|1|00:10:00\n"
      "3|twice|bob|2026-01-05T10:02:20|2026-01-05T10:02:30|2026-01-05T10:02:50|PREEMPTED|1|1|00:10:00\n"
      "3|twice|bob|2026-01-05T10:02:50|2026-01-05T10:04:00|2026-01-05T10:04:05|FAILED|1|1|00:10:00\n";
  SacctReport rep;
  const Log log = parse_utc(text, &rep, "d.txt");
  EXPECT_EQ(rep.rows, 6);
  EXPECT_EQ(rep.jobs, 3);
  EXPECT_EQ(rep.unfinished, 0);
  EXPECT_EQ(rep.requeued_jobs, 2);
  EXPECT_EQ(rep.requeued_rows, 3);  // beyond each job's first
  EXPECT_EQ(rep.partial_executions, 5);
  ASSERT_EQ(log.records.size(), 8u);
  const Record& one = log.records[0];
  EXPECT_EQ(one.job_number, 1);
  EXPECT_EQ(one.submit_time, 0);
  EXPECT_EQ(one.wait_time, 10);
  EXPECT_EQ(one.run_time, 60 + 600);
  EXPECT_EQ(one.allocated_procs, 8);  // the last run's allocation
  EXPECT_EQ(one.requested_procs, 4);
  EXPECT_EQ(one.status, 1);
  EXPECT_EQ(one.user_id, 1);
  EXPECT_EQ(one.executable, 1);
  const Record& first_run = log.records[1];
  EXPECT_EQ(first_run.job_number, 1);
  EXPECT_EQ(first_run.submit_time, 0);
  EXPECT_EQ(first_run.wait_time, 10);
  EXPECT_EQ(first_run.run_time, 60);
  EXPECT_EQ(first_run.allocated_procs, 4);
  EXPECT_EQ(first_run.status, 2);
  const Record& last_run = log.records[2];
  EXPECT_EQ(last_run.wait_time, 180);  // from the job's submit, not the requeue's
  EXPECT_EQ(last_run.run_time, 600);
  EXPECT_EQ(last_run.allocated_procs, 8);
  EXPECT_EQ(last_run.status, 3);
  EXPECT_EQ(log.records[3].job_number, 2);
  EXPECT_EQ(log.records[3].submit_time, 30);
  const Record& three = log.records[4];
  EXPECT_EQ(three.job_number, 3);
  EXPECT_EQ(three.submit_time, 120);
  EXPECT_EQ(three.run_time, 20 + 20 + 5);
  EXPECT_EQ(three.status, 0);
  EXPECT_EQ(log.records[5].status, 2);
  EXPECT_EQ(log.records[6].status, 2);
  EXPECT_EQ(log.records[7].status, 4);
  EXPECT_EQ(log.records[7].wait_time, 120);
  for (size_t i = 5; i < 8; ++i) EXPECT_EQ(log.records[i].job_number, 3);
  // Every other reader takes the job by its summary line: the written text read back has the three jobs.
  std::string swf;
  for (const Record& r : log.records)
    swf += fmt::format("{} {} {} {} {} -1 -1 {} {} -1 {} {} -1 {} -1 -1 -1 -1\n", r.job_number, r.submit_time,
                       r.wait_time, r.run_time, r.allocated_procs, r.requested_procs, r.requested_time, r.status,
                       r.user_id, r.executable);
  const Log back = parse_log(swf, "d.swf");
  ASSERT_EQ(back.records.size(), 3u);
  EXPECT_EQ(back.report.partial_executions.count, 5);
  EXPECT_EQ(back.records[0].run_time, 660);
  std::string header;
  for (const std::string& l : log.header.lines) header += l + "\n";
  EXPECT_NE(header.find("requeued jobs 2 (5 rows folded into them, 5 partial-execution lines)"), std::string::npos);
  EXPECT_NE(header.find("; MaxRecords: 8\n"), std::string::npos);
  EXPECT_NE(header.find("; MaxJobs: 3\n"), std::string::npos);
}

// Slurm gives a JobID again when its range cycles (MaxJobId) or its state is lost, and the accounting keeps the
// earlier job: rows of one JobID after a run that ended its job (any end but REQUEUED, PREEMPTED, NODE_FAIL; a
// requeue turns even a completed run's row into REQUEUED, as on a real Slurm) are another job. Before, they were
// folded into one job with a wait of months, or refused as several clusters' rows when the user differed.
TEST(Sacct, AJobIdGivenAgainIsAnotherJob) {
  const std::string text =
      "JobID|JobName|User|Submit|Start|End|State|AllocCPUS|Timelimit\n"
      "100|a|alice|2026-01-05T10:00:00|2026-01-05T10:00:10|2026-01-05T10:01:10|COMPLETED|4|01:00:00\n"
      "100|b|bob|2026-03-05T10:00:00|2026-03-05T10:00:10|2026-03-05T10:01:10|COMPLETED|2|01:00:00\n"
      "101|c|carol|2026-01-05T10:00:20|2026-01-05T10:00:20|2026-01-05T10:00:40|REQUEUED|1|01:00:00\n"
      "101|c|carol|2026-01-05T10:00:40|2026-01-05T10:00:50|2026-01-05T10:01:50|COMPLETED|1|01:00:00\n"
      "101|d|dave|2026-03-06T10:00:00|2026-03-06T10:00:00|2026-03-06T10:00:30|FAILED|1|01:00:00\n"
      "102|e|erin|2026-01-05T10:00:25|None|2026-01-05T10:05:00|CANCELLED by 0|0|01:00:00\n"
      "102|f|frank|2026-03-07T10:00:00|2026-03-07T10:00:00|2026-03-07T10:00:05|COMPLETED|1|01:00:00\n"
      "103|g|gina|2026-01-05T10:00:30|2026-01-05T10:00:30|2026-01-05T10:00:35|TIMEOUT|1|00:00:05\n"
      "103|h|hal|2026-03-08T10:00:00|2026-03-08T10:00:00|2026-03-08T10:00:10|NODE_FAIL|3|01:00:00\n"
      "103|h|hal|2026-03-08T10:00:10|2026-03-08T10:00:20|2026-03-08T10:00:50|COMPLETED|3|01:00:00\n";
  SacctReport rep;
  const Log log = parse_utc(text, &rep, "r.txt");
  EXPECT_EQ(rep.rows, 10);
  EXPECT_EQ(rep.jobs, 7);  // 100 twice, 101 twice (carol's requeued), 102 once (erin's never started), 103 twice
  EXPECT_EQ(rep.unstarted, 1);
  EXPECT_EQ(rep.reused_ids, 4);
  EXPECT_EQ(rep.requeued_jobs, 2);  // carol's and hal's
  EXPECT_EQ(rep.requeued_rows, 2);
  EXPECT_EQ(rep.partial_executions, 4);
  ASSERT_EQ(log.records.size(), 11u);
  // In submit order: alice, carol (and her two runs), gina; then bob, dave, frank, hal (and his two runs).
  const std::vector<int> users = {1, 3, 3, 3, 7, 2, 4, 6, 8, 8, 8};
  const std::vector<int> numbers = {1, 2, 2, 2, 3, 4, 5, 6, 7, 7, 7};
  const std::vector<int> runtimes = {60, 80, 20, 60, 5, 60, 30, 5, 40, 10, 30};
  const std::vector<int> statuses = {1, 1, 2, 3, 0, 1, 0, 1, 1, 2, 3};
  for (size_t i = 0; i < log.records.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(log.records[i].user_id, users[i]);
    EXPECT_EQ(log.records[i].job_number, numbers[i]);
    EXPECT_EQ(log.records[i].run_time, runtimes[i]);
    EXPECT_EQ(log.records[i].status, statuses[i]);
  }
  const Record& bob = log.records[5];
  EXPECT_EQ(bob.submit_time, 59 * 86400);
  EXPECT_EQ(bob.wait_time, 10);
  EXPECT_EQ(bob.allocated_procs, 2);
  EXPECT_EQ(bob.executable, 2);
  const Record& hal = log.records[8];
  EXPECT_EQ(hal.wait_time, 0);
  EXPECT_EQ(hal.allocated_procs, 3);
  EXPECT_EQ(log.records[10].wait_time, 20);  // his second run, from his job's submit
  std::string header;
  for (const std::string& l : log.header.lines) header += l + "\n";
  EXPECT_NE(header.find("jobs on a JobID an earlier job had (Slurm gave it again) 4"), std::string::npos) << header;
  // The same rows in other orders (sacct by submit time; reversed, a later job's row read first) give the same
  // jobs, each with its own user and name (the users are numbered in the order their rows are read).
  std::vector<std::string> lines;
  for (size_t a = 0, b; (b = text.find('\n', a)) != std::string::npos; a = b + 1)
    lines.push_back(text.substr(a, b - a + 1));
  std::vector<std::string> by_submit = lines;
  std::stable_sort(by_submit.begin() + 1, by_submit.end(), [](const std::string& x, const std::string& y) {
    return x.substr(x.find("|20") + 1, 19) < y.substr(y.find("|20") + 1, 19);
  });
  std::vector<std::string> reversed = lines;
  std::reverse(reversed.begin() + 1, reversed.end());
  const auto user_name = [](const Log& l, const Record& r) {
    std::string notes;
    for (const std::string& h : l.header.lines) notes += h + "\n";
    const std::string key = fmt::format(" {}=", r.user_id);
    const size_t at = notes.find(key, notes.find("; Note: users:"));
    return notes.substr(at + key.size(), notes.find_first_of(",\n", at) - at - key.size());
  };
  for (const auto& order : {by_submit, reversed}) {
    std::string reordered;
    for (const std::string& l : order) reordered += l;
    ASSERT_NE(reordered, text);
    SacctReport rep2;
    const Log again = parse_utc(reordered, &rep2, "r.txt");
    ASSERT_EQ(again.records.size(), log.records.size());
    for (size_t i = 0; i < log.records.size(); ++i) {
      SCOPED_TRACE(i);
      EXPECT_EQ(again.records[i].submit_time, log.records[i].submit_time);
      EXPECT_EQ(again.records[i].run_time, log.records[i].run_time);
      EXPECT_EQ(again.records[i].status, log.records[i].status);
      EXPECT_EQ(user_name(again, again.records[i]), user_name(log, log.records[i]));
    }
    EXPECT_EQ(rep2.reused_ids, 4);
  }
  EXPECT_EQ(user_name(log, log.records[5]), "bob");
}

// A requeued job that has not run again when sacct is asked (its last row REQUEUED or PENDING) is unfinished, all
// its rows left out; one requeued and then cancelled before its second run ran once: no partial-execution line,
// its status the cancel's. A requeued heterogeneous job keeps the last row of each component (the merge of
// components is not a fold of runs); its earlier rows are left out and counted.
TEST(Sacct, RequeuedJobsNotRunAgainHeterogeneousRequeues) {
  const std::string text =
      "JobID|User|Submit|Start|End|State|AllocCPUS|Timelimit|NodeList\n"
      "5|a|2026-01-05T10:00:00|2026-01-05T10:00:00|2026-01-05T10:00:40|REQUEUED|2|00:10:00|n1\n"
      "5|a|2026-01-05T10:00:40|Unknown|Unknown|PENDING|0|00:10:00|None assigned\n"
      "6|a|2026-01-05T10:01:00|2026-01-05T10:01:00|2026-01-05T10:01:30|REQUEUED|2|00:10:00|n1\n"
      "6|a|2026-01-05T10:01:30|None|2026-01-05T10:09:00|CANCELLED by 0|0|00:10:00|None assigned\n"
      "7+0|a|2026-01-05T10:02:00|2026-01-05T10:02:00|2026-01-05T10:02:10|REQUEUED|1|00:10:00|n1\n"
      "7+1|a|2026-01-05T10:02:00|2026-01-05T10:02:00|2026-01-05T10:02:10|REQUEUED|2|00:10:00|n1\n"
      "7+0|a|2026-01-05T10:02:10|2026-01-05T10:03:00|2026-01-05T10:04:00|COMPLETED|1|00:10:00|n1\n"
      "7+1|a|2026-01-05T10:02:10|2026-01-05T10:03:00|2026-01-05T10:05:00|COMPLETED|2|00:10:00|n1\n";
  SacctReport rep;
  const Log log = parse_utc(text, &rep, "d.txt");
  EXPECT_EQ(rep.rows, 8);
  EXPECT_EQ(rep.unfinished, 2);  // job 5's two rows
  EXPECT_EQ(rep.het_requeued_rows, 2);
  EXPECT_EQ(rep.het_components, 1);
  EXPECT_EQ(rep.requeued_jobs, 1);
  EXPECT_EQ(rep.partial_executions, 0);
  ASSERT_EQ(log.records.size(), 2u);
  const Record& cancelled = log.records[0];  // job 6
  EXPECT_EQ(cancelled.status, 5);
  EXPECT_EQ(cancelled.submit_time, 0);
  EXPECT_EQ(cancelled.wait_time, 0);
  EXPECT_EQ(cancelled.run_time, 30);
  EXPECT_EQ(cancelled.allocated_procs, 2);
  const Record& het = log.records[1];  // job 7: the last runs of its components, merged
  EXPECT_EQ(het.submit_time, 70);
  EXPECT_EQ(het.wait_time, 50);
  EXPECT_EQ(het.run_time, 120);
  EXPECT_EQ(het.allocated_procs, 3);
}

// A job held from the scheduler (a dependency, a begin time, a hold) reaches it at its Eligible time: submitted
// then, its wait the time since. Eligible after the Start (it cannot be) stops at the Start; before the Submit or
// Unknown, the Submit stands. A job never started is not counted unless kept; a requeued job by its first row.
TEST(Sacct, AJobIsSubmittedAtItsEligibleTime) {
  const std::string text =
      "JobID|Submit|Eligible|Start|End|State|AllocCPUS|Timelimit\n"
      "1|2026-01-05T10:00:00|2026-01-05T10:00:00|2026-01-05T10:00:03|2026-01-05T10:00:06|COMPLETED|1|10\n"
      "2|2026-01-05T10:00:00|2026-01-05T10:00:07|2026-01-05T10:00:07|2026-01-05T10:00:08|COMPLETED|1|10\n"
      "3|2026-01-05T10:00:00|2026-01-05T10:00:04|2026-01-05T10:00:09|2026-01-05T10:00:10|COMPLETED|1|10\n"
      "4|2026-01-05T10:00:01|2026-01-05T10:00:30|2026-01-05T10:00:20|2026-01-05T10:00:21|COMPLETED|1|10\n"
      "5|2026-01-05T10:00:02|Unknown|2026-01-05T10:00:05|2026-01-05T10:00:06|COMPLETED|1|10\n"
      "6|2026-01-05T10:00:02|2026-01-05T09:00:00|2026-01-05T10:00:05|2026-01-05T10:00:06|COMPLETED|1|10\n"
      "7|2026-01-05T10:00:02|2026-01-05T10:09:00|None|2026-01-05T10:01:00|CANCELLED|1|10\n"
      "8|2026-01-05T10:00:03|2026-01-05T10:00:10|2026-01-05T10:00:10|2026-01-05T10:00:11|REQUEUED|1|10\n"
      "8|2026-01-05T10:00:11|2026-01-05T10:02:11|2026-01-05T10:02:11|2026-01-05T10:02:12|COMPLETED|1|10\n";
  SacctReport rep;
  const Log log = parse_utc(text, &rep, "e.txt");
  EXPECT_EQ(rep.held, 4);  // 2, 3, 4 and 8 (by its first row); 7 never started
  EXPECT_EQ(rep.held_line, 3);
  // Submit order: 1 (0), 5 (2), 6 (2), 3 (4), 2 (7), 8 (10, then its two runs), 4 (20: its Start)
  std::vector<std::pair<int32_t, int32_t>> submit_wait;
  for (const Record& r : log.records)
    if (r.status < 2) submit_wait.emplace_back(r.submit_time, r.wait_time);
  const std::vector<std::pair<int32_t, int32_t>> expected{{0, 3}, {2, 3}, {2, 3}, {4, 5}, {7, 0}, {10, 0}, {20, 0}};
  EXPECT_EQ(submit_wait, expected);
  SacctOptions keep;
  keep.timezone = "UTC";
  keep.keep_unstarted = true;
  SacctReport kept;
  const Log all = parse_sacct(text, "e.txt", keep, &kept);
  EXPECT_EQ(kept.held, 5);
  EXPECT_EQ(all.records.back().submit_time, 540);  // 7 at its Eligible time, never started
  // Without the column, every job at its Submit.
  std::string no_eligible;
  for (std::string_view rest = text; !rest.empty();) {
    const size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    rest.remove_prefix(nl + 1);
    const size_t a = line.find('|', line.find('|') + 1), b = line.find('|', a + 1);
    no_eligible += std::string(line.substr(0, a)) + std::string(line.substr(b)) + "\n";
  }
  SacctReport plain;
  const Log at_submit = parse_utc(no_eligible, &plain, "s.txt");
  EXPECT_EQ(plain.held, 0);
  EXPECT_EQ(at_submit.records[1].submit_time, 0);
  EXPECT_EQ(at_submit.records[1].wait_time, 7);
}

// A zone the time zone database does not hold was read as UTC without a word (the C library's fallback) and
// written into the header; now it is refused with the nearest name. The TZ variable as a path (":/etc/localtime",
// a file of the database) gives the zone's name to the header, not a path of this machine.
TEST(Sacct, AZoneOutsideTheDatabaseIsRefused) {
  const auto message = [](const SacctOptions& o) {
    try {
      (void)parse_sacct(kText, "s.txt", o);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  SacctOptions o;
  o.timezone = "Europe/Stokholm";
  EXPECT_EQ(message(o), "--timezone 'Europe/Stokholm' is not a zone of the time zone database (/usr/share/zoneinfo); "
                        "did you mean 'Europe/Stockholm'?");
  for (const char* bad : {"Mars/Olympus", "/etc/localtime", "../zoneinfo/UTC", "zone.tab", "CET-1CEST"}) {
    o.timezone = bad;
    EXPECT_EQ(message(o).rfind(fmt::format("--timezone '{}' is not a zone of the time zone database", bad), 0), 0u)
        << message(o);
  }
  const char* old_tz = std::getenv("TZ");
  const std::optional<std::string> saved = old_tz != nullptr ? std::optional<std::string>(old_tz) : std::nullopt;
  o.timezone = "";
  setenv("TZ", "Europe/Stokholm", 1);
  EXPECT_EQ(message(o), "s.txt: the machine's time zone 'Europe/Stokholm' (from the TZ variable) is not a zone of the "
                        "time zone database (/usr/share/zoneinfo): give the zone sacct printed the times in with "
                        "--timezone NAME; did you mean 'Europe/Stockholm'?");
  setenv("TZ", ":Mars", 1);
  EXPECT_NE(message(o).find("'Mars' (from the TZ variable, ':Mars')"), std::string::npos) << message(o);
  setenv("TZ", ":/usr/share/zoneinfo/Europe/Stockholm", 1);
  const Log log = parse_sacct(kText, "s.txt", o);
  EXPECT_EQ(log.header.time_zone_string, "Europe/Stockholm");
  EXPECT_EQ(log.header.unix_start_time, 1767603600 - 3600);  // read in Stockholm's time (UTC+1 in January)
  if (saved) {
    setenv("TZ", saved->c_str(), 1);
  } else {
    unsetenv("TZ");
  }
  tzset();
}

// sacct prints local times without an offset. In the hour Berlin's clocks show twice (25 Oct 2026, 02:00-02:59:
// first CEST, then CET) a time is its first pass unless a time known to come before it is later: a job's End
// after its Start, its Start after its Submit, a Submit after the row above's when its JobID is larger. mktime's guess followed the last
// timestamp converted: job 1's end, 02:10 CET, was read as 02:10 CEST, before its start (runtime 0). A time the
// clocks skip, and a date that does not exist (mktime moved 30 Feb to 2 Mar), are errors naming the line and
// column.
TEST(Sacct, TimesAtAClockChange) {
  const std::string head = "JobID|Submit|Start|End|State|AllocCPUS|Timelimit\n";
  const std::string rows = "1|2026-10-25T02:50:00|2026-10-25T02:55:00|2026-10-25T02:10:00|COMPLETED|1|1:00:00\n"
                           "2|2026-10-25T02:20:00|2026-10-25T02:25:00|2026-10-25T03:30:00|COMPLETED|1|1:00:00\n";
  SacctOptions o;
  o.timezone = "Europe/Berlin";
  const Log log = parse_sacct(head + rows, "s.txt", o);
  ASSERT_EQ(log.records.size(), 2u);
  EXPECT_EQ(log.header.unix_start_time, 1792889400);  // 02:50 CEST = 00:50 UTC
  EXPECT_EQ(log.records[0].wait_time, 300);
  EXPECT_EQ(log.records[0].run_time, 900);      // 02:55 CEST to 02:10 CET
  EXPECT_EQ(log.records[1].submit_time, 1800);  // 02:20 CET, after job 1's submit
  EXPECT_EQ(log.records[1].wait_time, 300);
  EXPECT_EQ(log.records[1].run_time, 3900);  // 02:25 CET to 03:30 CET
  // A row listed out of JobID order (a requeued job's run, listed later) has no floor from the row above: its 02:20
  // is the first pass, 00:20 UTC, before job 5's 02:50 CEST.
  const Log out_of_order = parse_sacct(
      head + "5|2026-10-25T02:50:00|2026-10-25T02:55:00|2026-10-25T03:10:00|COMPLETED|1|1:00:00\n"
             "3|2026-10-25T02:20:00|2026-10-25T02:25:00|2026-10-25T02:30:00|COMPLETED|1|1:00:00\n",
      "s.txt", o);
  EXPECT_EQ(out_of_order.header.unix_start_time, 1792887600);
  EXPECT_EQ(out_of_order.records[1].submit_time, 1800);
  // A requeued job's next run, listed later, is submitted at the requeue, the End of its run before (02:10 CET
  // here): that is its floor, not the row above's Submit. Read as its first pass (02:10 CEST) it came before the
  // requeued run, and the job's rows were taken for the runs of another order (found in bench/run.sh sacct's text).
  const Log rerun = parse_sacct(
      head + "7|2026-10-25T02:50:00|2026-10-25T02:55:00|2026-10-25T02:10:00|REQUEUED|1|1:00:00\n"
             "8|2026-10-25T02:52:00|2026-10-25T02:53:00|2026-10-25T02:54:00|COMPLETED|1|1:00:00\n"
             "7|2026-10-25T02:10:00|2026-10-25T02:12:00|2026-10-25T02:20:00|COMPLETED|1|1:00:00\n",
      "s.txt", o);
  ASSERT_EQ(rerun.records.size(), 4u);  // job 7's summary line and its two runs; job 8
  EXPECT_EQ(rerun.records[0].run_time, 900 + 480);
  EXPECT_EQ(rerun.records[0].status, 1);
  EXPECT_EQ(rerun.records[2].wait_time, 300 + 900 + 120);  // 02:12 CET, from 02:50 CEST
  EXPECT_EQ(rerun.records[3].submit_time, 120);             // job 8
  const std::string late = "1|2026-10-25T03:30:00|2026-10-25T03:30:00|2026-10-25T03:40:00|COMPLETED|1|1:00:00\n";
  const auto message = [&](const std::string& row) {
    try {
      (void)parse_sacct(head + late + row, "s.txt", o);
    } catch (const ReadError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("3|2026-03-29T02:30:00|2026-03-29T03:30:00|2026-03-29T03:40:00|COMPLETED|1|1:00:00\n"),
            "s.txt:3: column Submit: timestamp '2026-03-29T02:30:00': the clocks of Europe/Berlin skip it (at a clock "
            "change), so sacct did not print it there: is that the zone sacct ran in (--timezone)?");
  EXPECT_EQ(message("3|2026-02-28T02:30:00|2026-02-30T03:30:00|2026-03-01T03:40:00|COMPLETED|1|1:00:00\n"),
            "s.txt:3: column Start: timestamp '2026-02-30T03:30:00': no such date");
  // A leap second is the second after :59, as before.
  const Log leap = parse_sacct(head + "4|2026-06-30T23:59:60|2026-07-01T00:00:00|2026-07-01T00:00:10|COMPLETED|1|1\n",
                               "s.txt", o);
  EXPECT_EQ(leap.records[0].wait_time, 0);
  EXPECT_EQ(leap.records[0].run_time, 10);
}

TEST(Sacct, KeepUnstartedTimeZoneAndProcs) {
  SacctOptions o;
  o.timezone = "Europe/Stockholm";  // UTC+1 in January: the same wall clock is one hour earlier in UTC
  o.keep_unstarted = true;
  o.procs = 128;
  const Log log = parse_sacct(kText, "s.txt", o);
  ASSERT_EQ(log.records.size(), 6u);
  EXPECT_EQ(log.header.unix_start_time, 1767603600 - 3600);
  EXPECT_EQ(log.header.max_procs, 128);
  // MaxProcs is a 32-bit header value (a larger --procs was written as it was, unreadable back).
  for (const int64_t bad : {int64_t{0}, int64_t{1} << 31}) {
    SacctOptions b = o;
    b.procs = bad;
    try {
      (void)parse_sacct(kText, "s.txt", b);
      ADD_FAILURE() << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), "the machine size (MaxProcs) must be in 1..2147483647, not " +
                                           std::to_string(bad));
    }
  }
  int unstarted = 0;
  for (const auto& r : log.records) {
    if (r.wait_time == -1) {
      ++unstarted;
      EXPECT_EQ(r.status, 5);
      EXPECT_EQ(r.run_time, -1);
    }
  }
  EXPECT_EQ(unstarted, 2);
}

// A Start before the Submit (a requeue, clock skew) or an End before the Start: 0, counted, first line named,
// and in the header's Note (they were clamped to 0 in silence).
TEST(Sacct, NegativeWaitsAndRuntimesAreCountedNotHidden) {
  const std::string text =
      "JobID|Submit|Start|End|State|AllocCPUS|Timelimit\n"
      "1|2026-01-05T10:00:00|2026-01-05T10:00:10|2026-01-05T10:01:10|COMPLETED|1|10\n"
      "2|2026-01-05T10:00:00|2026-01-05T09:59:00|2026-01-05T10:01:00|COMPLETED|1|10\n"
      "3|2026-01-05T10:00:00|2026-01-05T10:00:00|2026-01-05T09:00:00|COMPLETED|1|10\n"
      "4|2026-01-05T10:00:00|2026-01-05T09:00:00|2026-01-05T10:30:00|COMPLETED|1|10\n";
  SacctReport rep;
  const Log log = parse_utc(text, &rep);
  ASSERT_EQ(log.records.size(), 4u);
  EXPECT_EQ(log.records[0].wait_time, 10);
  EXPECT_EQ(log.records[1].wait_time, 0);
  EXPECT_EQ(log.records[1].run_time, 120);
  EXPECT_EQ(log.records[2].run_time, 0);
  EXPECT_EQ(rep.start_before_submit, 2);
  EXPECT_EQ(rep.start_before_submit_line, 3);
  EXPECT_EQ(rep.end_before_start, 1);
  EXPECT_EQ(rep.end_before_start_line, 4);
  bool noted = false;
  for (const auto& n : log.header.notes)
    noted = noted || n == "sacct rows with Start before Submit: 2 (wait set to 0); with End before Start: 1 (runtime "
                          "set to 0)";
  EXPECT_TRUE(noted);
  // The runtime is End - Start; Elapsed only stands in when End is absent (a row whose Elapsed disagrees shows
  // which was used: a misplaced `else` once made every runtime the Elapsed).
  const std::string elapsed =
      "JobID|Submit|Start|End|Elapsed|State|AllocCPUS|Timelimit\n"
      "1|2026-01-05T10:00:00|2026-01-05T10:00:00|2026-01-05T10:01:00|00:30:00|COMPLETED|1|10\n"
      "2|2026-01-05T10:00:00|2026-01-05T10:00:00|Unknown|00:30:00|COMPLETED|1|10\n";
  const Log el = parse_utc(elapsed, nullptr, "e.txt");
  ASSERT_EQ(el.records.size(), 2u);
  EXPECT_EQ(el.records[0].run_time, 60);
  EXPECT_EQ(el.records[1].run_time, 1800);
  SacctReport clean;
  const Log ok = parse_utc(kText, &clean);
  EXPECT_EQ(clean.start_before_submit + clean.end_before_start, 0);
  for (const auto& n : ok.header.notes) EXPECT_EQ(n.find("before"), std::string::npos) << n;
}

std::string sacct_error_of(const std::string& text) {
  try {
    parse_utc(text);
  } catch (const ReadError& e) {
    return e.what();
  }
  return "";
}

TEST(Sacct, BadInputNamesTheLineAndColumn) {
  EXPECT_EQ(sacct_error_of(""), "s.txt: empty file (expected the output of sacct -P)");
  EXPECT_EQ(sacct_error_of("JobID|Submit|Start|End|State|AllocCPUS\n").rfind("s.txt:1: column Timelimit is missing", 0),
            0u);
  const std::string head = "JobID|Submit|Start|End|State|AllocCPUS|Timelimit\n";
  EXPECT_EQ(sacct_error_of(head + "1|2026-13-01T00:00:00|None|None|COMPLETED|1|1:00\n"),
            "s.txt:2: column Submit: malformed timestamp '2026-13-01T00:00:00' (expected YYYY-MM-DDTHH:MM:SS)");
  EXPECT_EQ(sacct_error_of(head + "1|2026-01-01T00:00:00|None|None|COMPLETED|1|1:0x\n"),
            "s.txt:2: column Timelimit: malformed duration '1:0x' (expected [D-]HH:MM:SS)");
  EXPECT_EQ(sacct_error_of(head + "1|2026-01-01T00:00:00|None|None|COMPLETED|many|1:00\n"),
            "s.txt:2: column AllocCPUS: malformed count 'many'");
  EXPECT_EQ(sacct_error_of(head + "1|2026-01-01T00:00:00\n"), "s.txt:2: 2 fields, the header has 7");
  // SWF times are 32-bit seconds: a year 5930 timestamp (found by fuzzing) wrapped around into a negative submit
  // time and a job out of order.
  EXPECT_EQ(sacct_error_of(head + "1|2026-01-01T00:00:00|2026-01-01T00:00:10|2026-01-01T00:01:00|COMPLETED|1|1:00\n" +
                           "2|5930-01-01T00:00:00|5930-01-01T00:00:10|5930-01-01T00:01:00|COMPLETED|1|1:00\n"),
            "s.txt:3: column Submit: more than 68 years after the first submit (s.txt:2): a corrupt timestamp?");
  EXPECT_EQ(sacct_error_of(head + "1|2026-01-01T00:00:00|5930-01-01T00:00:10|5930-01-01T00:01:00|COMPLETED|1|1:00\n"),
            "s.txt:2: column Start: '5930-01-01T00:00:10' is more than 68 years after the submit time "
            "'2026-01-01T00:00:00'");
  // The rows of several clusters (sacct -L, -M a,b) are not one machine's log; without the Cluster column, one
  // JobID for two users' jobs is not a requeued job's runs (sacct -D), which folded them into one job.
  const std::string two = "1|2026-01-01T00:00:00|2026-01-01T00:00:10|2026-01-01T00:01:00|COMPLETED|1|1:00\n";
  EXPECT_EQ(sacct_error_of("JobID|Cluster|User|Submit|Start|End|State|AllocCPUS|Timelimit\n1|a|u|" + two.substr(2) +
                           "1|b|v|" + two.substr(2)),
            "s.txt:3: column Cluster: cluster 'b' here, 'a' on line 2: a log is one machine; convert one cluster's "
            "rows at a time (sacct -M NAME)");
  EXPECT_EQ(sacct_error_of("JobID|User|Submit|Start|End|State|AllocCPUS|Timelimit\n1|u|" + two.substr(2) + "1|v|" +
                     two.substr(2)),
            "s.txt:3: column Submit: JobID 1 is submitted here before the job with it on line 2 ended: not one job's "
            "runs (sacct -D) nor a JobID given again; the rows of several clusters (sacct -L, -M)? Convert one "
            "cluster's at a time (sacct -M NAME)");
  // After a requeue (REQUEUED) the next row is the same job's run, the same user's.
  const std::string requeued = "1|2026-01-01T00:00:00|2026-01-01T00:00:10|2026-01-01T00:01:00|REQUEUED|1|1:00\n";
  const std::string rerun = "1|2026-01-01T00:01:00|2026-01-01T00:01:10|2026-01-01T00:02:00|COMPLETED|1|1:00\n";
  EXPECT_EQ(sacct_error_of("JobID|User|Submit|Start|End|State|AllocCPUS|Timelimit\n1|u|" + requeued.substr(2) +
                           "1|v|" + rerun.substr(2)),
            "s.txt:3: column User: JobID 1 is 'v' here and 'u' on line 2: not one job's runs (sacct -D) nor a JobID "
            "given again; the rows of several clusters (sacct -L, -M)? Convert one cluster's at a time (sacct -M "
            "NAME)");
  EXPECT_NO_THROW(parse_utc("JobID|Cluster|User|Submit|Start|End|State|AllocCPUS|Timelimit\n1|a|u|" + two.substr(2) +
                            "2|a|v|" + two.substr(2)));
}

// sacct's own timestamps are read digit by digit, any other form as sscanf reads it: the same seconds either way,
// and a bad digit in either is an error.
TEST(Sacct, TimestampsInEitherFormReadTheSame) {
  const std::string head = "JobID|Submit|Start|End|State|AllocCPUS|Timelimit\n";
  const auto log_of = [&](const std::string& submit, const std::string& start) {
    return parse_utc(head + "1|2026-01-05T09:00:00|2026-01-05T09:00:00|2026-01-05T09:00:01|COMPLETED|1|1\n" + "2|" +
                     submit + "|" + start + "|2026-03-01T00:00:00|COMPLETED|1|1\n");
  };
  const Log canonical = log_of("2026-02-07T08:09:10", "2026-02-07T18:09:10");
  EXPECT_EQ(canonical.records[1].submit_time, 33 * 86400 - 3600 + 9 * 60 + 10);
  EXPECT_EQ(canonical.records[1].wait_time, 36000);
  for (const auto& [submit, start] : {std::pair<std::string, std::string>{"2026-02-07 08:09:10", "2026-02-07 18:09:10"},
                                      {"2026-2-7T8:9:10", "2026-02-07T18:9:10"}}) {
    const Log other = log_of(submit, start);
    EXPECT_EQ(other.records, canonical.records) << submit;
  }
  EXPECT_EQ(sacct_error_of(head + "1|2026-01-05T09:00:0x|None|None|COMPLETED|1|1\n"),
            "s.txt:2: column Submit: malformed timestamp '2026-01-05T09:00:0x' (expected YYYY-MM-DDTHH:MM:SS)");
  EXPECT_EQ(sacct_error_of(head + "1|2026-01-05X09:00:00|None|None|COMPLETED|1|1\n"),
            "s.txt:2: column Submit: malformed timestamp '2026-01-05X09:00:00' (expected YYYY-MM-DDTHH:MM:SS)");
  EXPECT_EQ(sacct_error_of(head + "1|2026-01-05T24:00:00|None|None|COMPLETED|1|1\n"),
            "s.txt:2: column Submit: malformed timestamp '2026-01-05T24:00:00' (expected YYYY-MM-DDTHH:MM:SS)");
}

// What is not sacct's text output is named in one line: the header's column list used to show the bytes of a
// compressed file, UTF-16 text or random data (and a header of any length whole).
TEST(Sacct, CompressedUtf16AndBinaryInputIsNamed) {
  EXPECT_EQ(sacct_error_of("BZh91AY&SY\x65\x01|\n"),
            "s.txt: compressed with bzip2, which is not read (the output of sacct -P, plain or gzip): bunzip2 it first");
  EXPECT_EQ(sacct_error_of("\xFD" "7zXZ\n"),
            "s.txt: compressed with xz, which is not read (the output of sacct -P, plain or gzip): unxz it first");
  EXPECT_EQ(sacct_error_of(std::string("\xFF\xFEJ\0o\0b\0", 8)),
            "s.txt: UTF-16 text, which is not read (the output of sacct -P, plain or gzip): convert it to UTF-8 first "
            "(iconv -f UTF-16 -t UTF-8)");
  EXPECT_EQ(sacct_error_of(std::string("JobID|Submit\n1|x\n\x01\0\x02", 20)),
            "s.txt:3: binary data (a NUL byte), not the text output of sacct -P");
  // A header of 100,000 bytes is shown by its start and size.
  const std::string wide = sacct_error_of("JobID|" + std::string(100000, 'x') + "\n");
  EXPECT_LT(wide.size(), 400u) << wide;
  EXPECT_EQ(wide.rfind("s.txt:1: column Submit is missing (the header has: JobID|xxx", 0), 0u) << wide;
  // "BZh" then a letter is text, not bzip2.
  EXPECT_EQ(sacct_error_of("BZhx|Submit\n").rfind("s.txt:1: column JobID is missing", 0), 0u);
}

}  // namespace
}  // namespace schedlab::swf
