#include "schedlab/swf/sacct.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <vector>

#include <fmt/core.h>

#include "schedlab/base/params.h"
#include "schedlab/base/time_zone.h"
#include "schedlab/base/version.h"
#include "schedlab/swf/csv.h"
#include "swf/foreign_format.h"

namespace schedlab::swf {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string_view> split(std::string_view line, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (;;) {
    const size_t at = line.find(sep, start);
    out.push_back(line.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

// The machine's zone name, for the header.
std::string machine_zone() {
  if (const char* tz = std::getenv("TZ"); tz != nullptr && *tz != '\0') return tz[0] == ':' ? tz + 1 : tz;
  std::ifstream f("/etc/timezone");
  std::string zone;
  if (f && std::getline(f, zone) && !zone.empty()) return zone;
  std::error_code ec;
  const auto target = std::filesystem::read_symlink("/etc/localtime", ec).string();
  const auto at = target.find("zoneinfo/");
  return !ec && at != std::string::npos ? target.substr(at + 9) : "UTC";
}

struct Fail {
  const std::string& name;
  int64_t line;
  [[noreturn]] void operator()(std::string_view column, const std::string& what) const {
    throw ReadError(fmt::format("{}:{}: column {}: {}", name, line, column, what));
  }
};

bool absent_time(std::string_view v) { return v.empty() || v == "Unknown" || v == "None" || v == "N/A"; }

// "2026-11-25T11:13:58" in the current TZ -> seconds since the epoch.
std::optional<int64_t> parse_time(std::string_view v, std::string_view column, const Fail& fail) {
  if (absent_time(v)) return std::nullopt;
  std::tm tm{};
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  char t = 0;
  // sacct's own form, "2026-11-25T11:13:58", read digit by digit (sscanf was a third of a large conversion's time);
  // anything else as sscanf reads it, as before.
  const auto digits = [&](size_t at, size_t n) {
    int x = 0;
    for (size_t i = at; i < at + n; ++i) {
      if (v[i] < '0' || v[i] > '9') return -1;
      x = x * 10 + (v[i] - '0');
    }
    return x;
  };
  int read = 0;
  if (v.size() == 19 && v[4] == '-' && v[7] == '-' && v[13] == ':' && v[16] == ':' &&
      (y = digits(0, 4)) >= 0 && (mo = digits(5, 2)) >= 0 && (d = digits(8, 2)) >= 0 && (h = digits(11, 2)) >= 0 &&
      (mi = digits(14, 2)) >= 0 && (s = digits(17, 2)) >= 0) {
    t = v[10];
    read = 7;
  } else {
    // Up to its end: "2026-01-05T09:00:0x" was read as 09:00:00.
    const std::string text(v);
    int used = 0;
    read = std::sscanf(text.c_str(), "%4d-%2d-%2d%c%2d:%2d:%2d%n", &y, &mo, &d, &t, &h, &mi, &s, &used);
    if (static_cast<size_t>(used) != text.size()) read = 0;
  }
  if (read != 7 || (t != 'T' && t != ' ') || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60)
    fail(column, fmt::format("malformed timestamp '{}' (expected YYYY-MM-DDTHH:MM:SS)", v));
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = s;
  tm.tm_isdst = -1;
  return static_cast<int64_t>(std::mktime(&tm));
}

// [D-]HH:MM:SS, [D-]HH:MM, D-HH, MM:SS, MM -> seconds; UNLIMITED / Partition_Limit -> -1.
std::optional<int64_t> parse_duration(std::string_view v, std::string_view column, const Fail& fail) {
  if (v.empty()) return std::nullopt;
  if (v == "UNLIMITED" || v == "Partition_Limit" || v == "INVALID") return -1;
  const auto bad = [&] { fail(column, fmt::format("malformed duration '{}' (expected [D-]HH:MM:SS)", v)); };
  int64_t days = 0;
  std::string_view rest = v;
  const auto dash = v.find('-');
  const auto number = [&](std::string_view p) {
    if (p.empty() || p.size() > 9 || !std::all_of(p.begin(), p.end(), [](char c) { return c >= '0' && c <= '9'; })) bad();
    return std::stoll(std::string(p));
  };
  if (dash != std::string_view::npos) {
    days = number(v.substr(0, dash));
    rest = v.substr(dash + 1);
  }
  // Fractions of a second (Elapsed may print them) are dropped.
  if (const auto dot = rest.find('.'); dot != std::string_view::npos) rest = rest.substr(0, dot);
  const auto parts = split(rest, ':');
  std::vector<int64_t> n;
  for (auto p : parts) n.push_back(number(p));
  int64_t secs = 0;
  if (dash != std::string_view::npos) {  // D-HH, D-HH:MM, D-HH:MM:SS
    if (n.size() == 1) secs = n[0] * 3600;
    else if (n.size() == 2) secs = n[0] * 3600 + n[1] * 60;
    else if (n.size() == 3) secs = n[0] * 3600 + n[1] * 60 + n[2];
    else bad();
  } else {  // MM, MM:SS, HH:MM:SS
    if (n.size() == 1) secs = n[0] * 60;
    else if (n.size() == 2) secs = n[0] * 60 + n[1];
    else if (n.size() == 3) secs = n[0] * 3600 + n[1] * 60 + n[2];
    else bad();
  }
  return days * 86400 + secs;
}

int64_t parse_count(std::string_view v, std::string_view column, const Fail& fail) {
  if (v.empty() || !std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }) || v.size() > 9)
    fail(column, fmt::format("malformed count '{}'", v));
  return std::stoll(std::string(v));
}

// Names -> 1, 2, ... in order of first appearance.
class Ids {
 public:
  int32_t of(std::string_view name) {
    if (name.empty()) return -1;
    const auto [it, inserted] = ids_.emplace(std::string(name), static_cast<int32_t>(order_.size() + 1));
    if (inserted) order_.emplace_back(name);
    return it->second;
  }
  std::string note(const char* what) const {
    std::string s = fmt::format("{}:", what);
    for (size_t i = 0; i < order_.size(); ++i) s += fmt::format("{} {}={}", i ? "," : "", i + 1, order_[i]);
    return s;
  }
  bool empty() const { return order_.empty(); }

 private:
  std::map<std::string, int32_t> ids_;
  std::vector<std::string> order_;
};

// A further component `part` of the heterogeneous job `job` (its first component's row): processors summed, the
// shortest wait, the longest runtime and time limit (unlimited, -1, when one is); the rest is the first's.
void merge_component(Record& job, const Record& part, const Fail& fail, std::string_view cpus_column) {
  const auto sum = [&](int32_t a, int32_t b) {
    if (a < 0 || b < 0) return a < 0 ? b : a;
    if (int64_t{a} + b > std::numeric_limits<int32_t>::max())
      fail(cpus_column, "the heterogeneous job's components sum to more than 2147483647 processors");
    return a + b;
  };
  job.allocated_procs = sum(job.allocated_procs, part.allocated_procs);
  job.requested_procs = sum(job.requested_procs, part.requested_procs);
  if (part.wait_time >= 0 && (job.wait_time < 0 || part.wait_time < job.wait_time)) job.wait_time = part.wait_time;
  job.run_time = std::max(job.run_time, part.run_time);
  job.requested_time =
      job.requested_time < 0 || part.requested_time < 0 ? -1 : std::max(job.requested_time, part.requested_time);
}

}  // namespace

Log parse_sacct(std::string_view text, const std::string& name, const SacctOptions& options, SacctReport* report) {
  if (options.procs && (*options.procs < 1 || *options.procs > std::numeric_limits<int32_t>::max()))
    throw std::invalid_argument(
        fmt::format("the machine size (MaxProcs) must be in 1..2147483647, not {}", *options.procs));
  SacctReport rep;
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a byte order mark (the file saved by an editor)
  // A compressed or UTF-16 file, or binary data: said in one line (the header's column list showed its bytes).
  if (const auto f = foreign_format(text))
    throw ReadError(fmt::format("{}: {}, which is not read (the output of sacct -P, plain or gzip): {}", name, f->what,
                                f->advice));
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos)
    throw ReadError(fmt::format("{}:{}: binary data (a NUL byte), not the text output of sacct -P", name,
                                1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n')));
  std::vector<std::string_view> lines = split(text, '\n');
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  if (lines.empty()) throw ReadError(fmt::format("{}: empty file (expected the output of sacct -P)", name));
  const auto strip = [](std::string_view l) { return !l.empty() && l.back() == '\r' ? l.substr(0, l.size() - 1) : l; };
  const auto header = split(strip(lines[0]), '|');
  std::map<std::string, size_t> col;
  for (size_t i = 0; i < header.size(); ++i) col.emplace(lower(header[i]), i);
  const auto find = [&](std::initializer_list<const char*> names) -> std::optional<size_t> {
    for (const char* n : names)
      if (auto it = col.find(n); it != col.end()) return it->second;
    return std::nullopt;
  };
  const auto need = [&](std::initializer_list<const char*> names, const char* shown) {
    const auto c = find(names);
    if (!c)
      throw ReadError(fmt::format("{}:1: column {} is missing (the header has: {}); see docs/slurm.md for the sacct "
                                  "--format list",
                                  name, shown, base::excerpt(strip(lines[0]))));
    return *c;
  };
  const size_t c_id = need({"jobid"}, "JobID"), c_submit = need({"submit"}, "Submit"), c_start = need({"start"}, "Start"),
               c_end = need({"end"}, "End"), c_state = need({"state"}, "State"),
               c_cpus = need({"alloccpus", "ncpus"}, "AllocCPUS"), c_limit = need({"timelimit"}, "Timelimit");
  const auto c_name = find({"jobname"}), c_user = find({"user"}), c_group = find({"group"}),
             c_part = find({"partition"}), c_req = find({"reqcpus"}), c_elapsed = find({"elapsed"}),
             c_nodes = find({"nodelist"});

  const base::ScopedTimeZone scope(options.timezone);  // first: machine_zone() reads TZ, under the same lock
  const std::string zone = options.timezone.empty() ? machine_zone() : options.timezone;
  struct Row {
    int64_t submit;
    Record r;
    int64_t line;
  };
  std::vector<Row> rows;
  rows.reserve(lines.size());
  std::map<std::string, size_t, std::less<>> het_jobs;  // a heterogeneous job's id -> its row
  Ids users, groups, parts, names;
  for (size_t li = 1; li < lines.size(); ++li) {
    const std::string_view line = strip(lines[li]);
    if (line.empty()) continue;
    const Fail fail{name, static_cast<int64_t>(li + 1)};
    const auto f = split(line, '|');
    if (f.size() < header.size())
      throw ReadError(fmt::format("{}:{}: {} fields, the header has {}", name, li + 1, f.size(), header.size()));
    ++rep.rows;
    // Without -X sacct adds a row per job step ("123.batch", "123.0", "123_4.extern"): the allocation's row
    // already holds the job; converted, the steps would count it again and again.
    if (f[c_id].find('.') != std::string_view::npos) {
      ++rep.steps;
      continue;
    }
    const std::string_view state_text = f[c_state];
    const std::string state(state_text.substr(0, state_text.find(' ')));
    ++rep.states[state];
    int32_t status = -2;
    if (state == "COMPLETED") status = 1;
    else if (state == "CANCELLED") status = 5;
    else if (state == "FAILED" || state == "TIMEOUT" || state == "NODE_FAIL" || state == "OUT_OF_MEMORY" ||
             state == "BOOT_FAIL" || state == "DEADLINE" || state == "PREEMPTED")
      status = 0;
    if (status == -2) {  // still pending, running, suspended, requeued...
      ++rep.unfinished;
      continue;
    }
    const auto submit = parse_time(f[c_submit], header[c_submit], fail);
    if (!submit) fail(header[c_submit], fmt::format("no submit time ('{}')", f[c_submit]));
    // A job cancelled before its begin time gets the cancel time as Start, but no node.
    const bool no_node = c_nodes && f[*c_nodes] == "None assigned";
    const int64_t start = no_node ? -1 : parse_time(f[c_start], header[c_start], fail).value_or(-1);
    const int64_t end = parse_time(f[c_end], header[c_end], fail).value_or(-1);
    const bool started = start >= 0;
    // Every field is checked, also for a job left out.
    const int64_t cpus = parse_count(f[c_cpus], header[c_cpus], fail);
    const int64_t req = c_req && !f[*c_req].empty() ? parse_count(f[*c_req], header[*c_req], fail) : cpus;
    const int64_t limit = parse_duration(f[c_limit], header[c_limit], fail).value_or(-1);
    Record r;
    r.status = status;
    if (!started) {
      ++rep.unstarted;
      if (!options.keep_unstarted) continue;
      r.status = 5;
    } else {
      // SWF times are 32-bit seconds: a wait of more than 68 years is a corrupt timestamp, not a wait.
      if (start - *submit > std::numeric_limits<int32_t>::max())
        fail(header[c_start], fmt::format("'{}' is more than 68 years after the submit time '{}'", f[c_start],
                                          f[c_submit]));
      r.wait_time = static_cast<int32_t>(std::max<int64_t>(0, start - *submit));
      if (start < *submit && rep.start_before_submit++ == 0) rep.start_before_submit_line = static_cast<int64_t>(li + 1);
      int64_t run = -1;
      if (end >= 0) {
        run = std::max<int64_t>(0, end - start);
        if (end < start && rep.end_before_start++ == 0) rep.end_before_start_line = static_cast<int64_t>(li + 1);
      } else if (c_elapsed) {
        run = parse_duration(f[*c_elapsed], header[*c_elapsed], fail).value_or(-1);
      }
      r.run_time = static_cast<int32_t>(std::min<int64_t>(run, std::numeric_limits<int32_t>::max()));
    }
    r.allocated_procs = started ? static_cast<int32_t>(cpus) : -1;
    r.requested_procs = static_cast<int32_t>(req);
    r.requested_time = static_cast<int32_t>(std::min<int64_t>(limit, std::numeric_limits<int32_t>::max()));
    // A heterogeneous job's components ("123+0", "123+1", one row each with -X) are one job, scheduled as one:
    // converted one by one they counted it several times, each part free to start on its own.
    const std::string_view id = f[c_id];
    if (const size_t plus = id.find('+'); plus != std::string_view::npos) {
      const auto [it, first_component] = het_jobs.try_emplace(std::string(id.substr(0, plus)), rows.size());
      if (!first_component) {
        merge_component(rows[it->second].r, r, fail, header[c_cpus]);
        ++rep.het_components;
        continue;
      }
    }
    if (c_user) r.user_id = users.of(f[*c_user]);
    if (c_group) r.group_id = groups.of(f[*c_group]);
    if (c_name) r.executable = names.of(f[*c_name]);
    if (c_part) r.partition = parts.of(f[*c_part]);
    rows.push_back({*submit, r, static_cast<int64_t>(li + 1)});
  }
  // sacct lists jobs by id, nearly always in submit order already: then no sort (its buffer is a copy of every row).
  const auto by_submit = [](const Row& a, const Row& b) { return a.submit < b.submit; };
  if (!std::is_sorted(rows.begin(), rows.end(), by_submit)) std::stable_sort(rows.begin(), rows.end(), by_submit);
  Log log;
  const int64_t first = rows.empty() ? 0 : rows.front().submit;
  // Submit times are seconds after the first one, in 32 bits: a log spanning more than 68 years has a corrupt
  // timestamp (the latest is named).
  if (!rows.empty() && rows.back().submit - first > std::numeric_limits<int32_t>::max())
    throw ReadError(fmt::format("{}:{}: column {}: more than 68 years after the first submit ({}:{}): a corrupt "
                                "timestamp?",
                                name, rows.back().line, header[c_submit], name, rows.front().line));
  int64_t largest = 0;
  log.records.reserve(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    Record r = rows[i].r;
    r.job_number = static_cast<int32_t>(i + 1);
    r.submit_time = static_cast<int32_t>(rows[i].submit - first);
    largest = std::max<int64_t>(largest, std::max(r.allocated_procs, r.requested_procs));
    log.records.push_back(r);
  }
  rep.jobs = static_cast<int64_t>(log.records.size());
  Header& h = log.header;
  h.add_line("; Version: 2.2");
  h.add_line("; Computer: Slurm cluster (sacct)");
  h.add_line(fmt::format("; Conversion: schedlab {} convert --from sacct {}", base::kVersion, name));
  h.add_line(fmt::format("; MaxJobs: {}", rep.jobs));
  h.add_line(fmt::format("; MaxRecords: {}", rep.jobs));
  h.add_line(fmt::format("; UnixStartTime: {}", first));
  h.add_line(fmt::format("; TimeZoneString: {}", zone));
  h.add_line(fmt::format("; MaxProcs: {}", options.procs ? *options.procs : std::max<int64_t>(largest, 1)));
  std::string states;
  for (const auto& [s, n] : rep.states) states += fmt::format("{}{} {}", states.empty() ? "" : ", ", s, n);
  const std::string merged = rep.het_components > 0 ? fmt::format(", heterogeneous-job components {} (merged into "
                                                                   "their job)", rep.het_components)
                                                     : std::string();
  h.add_note(fmt::format("sacct rows {}: jobs {}, never started {} ({}), unfinished {} (left out), job steps {} (left "
                         "out){}; states: {}",
                         rep.rows, rep.jobs, rep.unstarted, options.keep_unstarted ? "kept with status 5" : "left out",
                         rep.unfinished, rep.steps, merged, states));
  if (rep.start_before_submit > 0 || rep.end_before_start > 0)
    h.add_note(fmt::format("sacct rows with Start before Submit: {} (wait set to 0); with End before Start: {} "
                           "(runtime set to 0)",
                           rep.start_before_submit, rep.end_before_start));
  if (!users.empty()) h.add_note(users.note("users"));
  if (!groups.empty()) h.add_note(groups.note("groups"));
  if (!parts.empty()) h.add_note(parts.note("partitions"));
  if (!names.empty()) h.add_note(names.note("job names (field 14)"));
  if (report != nullptr) *report = rep;
  return log;
}

Log read_sacct(const std::string& path, const SacctOptions& options, SacctReport* report) {
  return parse_sacct(read_text(path), path == "-" ? "<stdin>" : path, options, report);
}

std::vector<std::string> sacct_warnings(const SacctReport& report, const std::string& path) {
  std::vector<std::string> out;
  if (report.start_before_submit > 0)
    out.push_back(fmt::format("{}:{}: {} job(s) started before their submit time (the first here): wait set to 0",
                              path, report.start_before_submit_line, report.start_before_submit));
  if (report.end_before_start > 0)
    out.push_back(fmt::format("{}:{}: {} job(s) ended before their start time (the first here): runtime set to 0",
                              path, report.end_before_start_line, report.end_before_start));
  return out;
}

}  // namespace schedlab::swf
