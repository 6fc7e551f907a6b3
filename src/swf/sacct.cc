#include "schedlab/swf/sacct.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "schedlab/base/nearest.h"
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

// The zone a file of the database names: "/usr/share/zoneinfo/Europe/Stockholm" is Europe/Stockholm, and
// /etc/localtime the zone it links to; else the path as it is (which the database check then refuses).
std::string zone_of_path(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path link = std::filesystem::read_symlink(path, ec);
  const std::string target = ec ? path : link.string();
  const auto at = target.rfind("zoneinfo/");
  return at != std::string::npos ? target.substr(at + 9) : path;
}

// The machine's zone name, for the header, and where it was found (for an error).
std::pair<std::string, std::string> machine_zone() {
  if (const char* tz = std::getenv("TZ"); tz != nullptr && *tz != '\0') {
    std::string zone = tz[0] == ':' ? tz + 1 : tz;
    if (!zone.empty() && zone.front() == '/') zone = zone_of_path(zone);  // TZ=:/etc/localtime
    return {zone, zone == tz ? std::string("the TZ variable") : fmt::format("the TZ variable, '{}'", tz)};
  }
  std::ifstream f("/etc/timezone");
  std::string zone;
  if (f && std::getline(f, zone) && !zone.empty()) return {zone, "/etc/timezone"};
  std::error_code ec;
  if (std::filesystem::is_symlink("/etc/localtime", ec)) return {zone_of_path("/etc/localtime"), "/etc/localtime"};
  return {"UTC", "no TZ, /etc/timezone or /etc/localtime link"};
}

// The zone the times are read in: the one given, else the machine's. Either must be a zone of the database: the C
// library reads the times of a name it does not know ("Europe/Stokholm") in UTC without a word, and the header
// would name a zone no analysis can use.
std::string sacct_zone(const std::string& given, const std::string& name) {
  if (!given.empty()) {
    if (!base::time_zone_in_database(given))
      throw std::invalid_argument(fmt::format("--timezone '{}' is not a zone of the time zone database ({}){}", given,
                                              base::time_zone_directory(),
                                              base::did_you_mean(given, base::time_zone_names())));
    return given;
  }
  const auto [zone, source] = machine_zone();
  if (!base::time_zone_in_database(zone)) {
    const std::string nearest = base::did_you_mean(zone, base::time_zone_names());
    throw std::invalid_argument(fmt::format(
        "{}: the machine's time zone '{}' (from {}) is not a zone of the time zone database ({}): give the zone "
        "sacct printed the times in with --timezone NAME{}",
        name, zone, source, base::time_zone_directory(), nearest.empty() ? " (e.g. Europe/Stockholm)" : nearest));
  }
  return zone;
}

struct Fail {
  const std::string& name;
  int64_t line;
  [[noreturn]] void operator()(std::string_view column, const std::string& what) const {
    throw ReadError(fmt::format("{}:{}: column {}: {}", name, line, column, what));
  }
};

// The field at `index` of a '|'-separated row (empty when the row is shorter).
std::string_view nth_field(std::string_view line, size_t index) {
  size_t start = 0;
  for (size_t i = 0; i < index; ++i) {
    start = line.find('|', start);
    if (start == std::string_view::npos) return {};
    ++start;
  }
  return line.substr(start, line.find('|', start) - start);
}

// A JobID as one number, to find the repeated ones without hashing every text: "123" (a job), "123_4" (an array
// task), "123+1" (a heterogeneous job's component) -> distinct keys; 0 for any other form (then compared as text).
uint64_t id_key(std::string_view id) {
  const auto number = [](std::string_view d, uint64_t limit) -> std::optional<uint64_t> {
    if (d.empty() || d.size() > 12) return std::nullopt;
    uint64_t x = 0;
    for (const char c : d) {
      if (c < '0' || c > '9') return std::nullopt;
      x = x * 10 + static_cast<uint64_t>(c - '0');
    }
    return x < limit ? std::optional<uint64_t>(x) : std::nullopt;
  };
  const size_t sep = id.find_first_of("_+");
  const auto job = number(id.substr(0, sep), uint64_t{1} << 37);
  if (!job) return 0;
  uint64_t kind = 0, sub = 0;
  if (sep != std::string_view::npos) {
    const auto s = number(id.substr(sep + 1), (uint64_t{1} << 24) - 1);
    if (!s) return 0;
    kind = id[sep] == '_' ? 1 : 2;
    sub = *s + 1;
  }
  return ((*job + 1) << 26) | (kind << 24) | sub;
}

bool absent_time(std::string_view v) { return v.empty() || v == "Unknown" || v == "None" || v == "N/A"; }

// The zone the timestamps are read in, and their offsets, found hour by hour.
struct Clock {
  std::string zone;
  base::LocalTimes times;
};

// "2026-11-25T11:13:58" in the current TZ -> seconds since the epoch. Decision: a time the clocks show twice (the
// hour repeated when daylight saving time ends; sacct prints no offset) is its first pass unless that is before
// `not_before`, a time known to come earlier (the row's Submit for its Start, the Start for its End, the row
// above's Submit for a Submit), then its second: mktime's guess followed the last timestamp it converted, so a
// job's start in the second pass could come out before its submit in the first. A time the clocks skip is an error.
std::optional<int64_t> parse_time(std::string_view v, std::string_view column, const Fail& fail, Clock& clock,
                                  int64_t not_before) {
  if (absent_time(v)) return std::nullopt;
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
  // A leap second (:60) is the second after :59, as mktime normalised it.
  const std::optional<int64_t> at = clock.times.instant(y, mo, d, h, mi, std::min(s, 59), not_before);
  if (!at) {
    if (!clock.times.instants(y, mo, d, 12, 0, 0)) fail(column, fmt::format("timestamp '{}': no such date", v));
    fail(column, fmt::format("timestamp '{}': the clocks of {} skip it (at a clock change), so sacct did not "
                             "print it there: is that the zone sacct ran in (--timezone)?",
                             v, clock.zone));
  }
  return *at + (s == 60 ? 1 : 0);
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

// ", requeued jobs 2 (5 rows folded into them, 5 partial-execution lines)" for sacct -D's repeated JobIDs.
std::string more_counts_note(const SacctReport& rep) {
  std::string s;
  if (rep.requeued_jobs > 0)
    s = fmt::format(", requeued jobs {} ({} rows folded into them, {} partial-execution lines)", rep.requeued_jobs,
                    rep.requeued_jobs + rep.requeued_rows, rep.partial_executions);
  if (rep.reused_ids > 0)
    s += fmt::format(", jobs on a JobID an earlier job had (Slurm gave it again) {}", rep.reused_ids);
  if (rep.het_requeued_rows > 0)
    s += fmt::format(", earlier runs of requeued heterogeneous jobs {} (left out)", rep.het_requeued_rows);
  if (rep.held > 0)
    s += fmt::format(", jobs submitted at their Eligible time, after their Submit (a begin time, a dependency, a hold, "
                     "Slurm's own delay) {}",
                     rep.held);
  return s;
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
             c_nodes = find({"nodelist"}), c_eligible = find({"eligible"}), c_cluster = find({"cluster"});
  std::string_view cluster;  // of the first row, when there is a Cluster column
  int64_t cluster_line = 0;

  const base::ScopedTimeZone scope(options.timezone);  // first: machine_zone() reads TZ, under the same lock
  const std::string zone = sacct_zone(options.timezone, name);
  Clock clock{zone, {}};  // the timestamps' offsets, hour by hour
  // At a clock change a Submit is not before the row above's when its JobID is larger (sacct lists jobs by JobID,
  // which Slurm gives in submit order); a row out of that order (a requeued job's run listed later) has no floor.
  int64_t previous_submit = std::numeric_limits<int64_t>::min();
  uint64_t previous_key = 0;
  // 32-bit line numbers keep a row at 88 bytes, as it was before `requeued` (the sort moves every row).
  if (lines.size() > std::numeric_limits<uint32_t>::max())
    throw ReadError(fmt::format("{}: more than {} lines", name, std::numeric_limits<uint32_t>::max()));
  struct Row {
    int64_t submit;
    Record r;
    uint32_t line;
    uint32_t requeued = 0;  // 1 + the index of its entry in `requeued` when the job ran more than once (sacct -D)
  };
  // One row of a requeued job: a run (or the last row, still pending, or never started).
  struct Run {
    int64_t submit, start, end, run, cpus, req, limit, line;  // end, run: -1 unknown
    int32_t status;                                      // 1, 0, 5 as a job's; -2 requeued, pending, running...
    bool end_before_start;                               // run set to 0
    bool held;                                           // submitted at its Eligible time
    bool ends_job;                                       // a state no run of the same job follows (below)
    int32_t user_id, group_id, executable, partition;    // the row's numbers (a later job's, on a reused JobID)
    std::string_view user, name;                         // the row's, to tell another job's row from a run
  };
  struct Requeued {
    size_t row;  // its placeholder in `rows`
    std::vector<Run> runs;
    std::vector<Record> bursts;  // the partial-execution lines, filled when the runs are folded
  };
  // sacct -D (--duplicates) prints every run of a requeued job, the same JobID on a row per run: the earlier runs
  // as REQUEUED (or PREEMPTED, NODE_FAIL), the last with the job's end; its Submit is then the time of the requeue.
  // Converted row by row they were jobs of their own (or left out as unfinished): a first pass finds the JobIDs on
  // more than one row, and their rows are folded into one job below.
  struct IdRows {
    uint32_t count = 0;
    size_t last_line = 0;
  };
  std::unordered_map<uint64_t, IdRows> repeated_keys;        // the numeric JobIDs on more than one row
  std::unordered_map<std::string_view, IdRows> text_ids;     // the other JobIDs, every one
  std::vector<uint64_t> keys(lines.size(), 0);               // a row's numeric JobID, 0 when it has none
  {
    bool increasing = true;  // JobIDs in increasing order (as sacct without -D nearly always lists them): no repeat
    uint64_t previous = 0;
    for (size_t li = 1; li < lines.size(); ++li) {
      const std::string_view id = nth_field(strip(lines[li]), c_id);
      if (id.empty() || id.find('.') != std::string_view::npos) continue;
      if (const uint64_t k = id_key(id); k != 0) {
        keys[li] = k;
        increasing &= k > previous;
        previous = k;
      } else {
        ++text_ids[id].count;
      }
    }
    if (!increasing) {
      std::vector<uint64_t> sorted;
      sorted.reserve(lines.size());
      for (const uint64_t k : keys)
        if (k != 0) sorted.push_back(k);
      std::sort(sorted.begin(), sorted.end());
      for (size_t i = 1; i < sorted.size(); ++i)
        if (sorted[i] == sorted[i - 1]) repeated_keys.try_emplace(sorted[i]);
    }
    for (size_t li = 1; li < lines.size(); ++li) {
      IdRows* ir = nullptr;
      if (keys[li] != 0) {
        if (repeated_keys.empty()) continue;
        const auto it = repeated_keys.find(keys[li]);
        if (it != repeated_keys.end()) ir = &it->second;
      } else if (!text_ids.empty()) {
        const std::string_view id = nth_field(strip(lines[li]), c_id);
        if (const auto it = text_ids.find(id); it != text_ids.end() && it->second.count > 1) ir = &it->second;
      }
      if (ir == nullptr) continue;
      if (keys[li] != 0) ++ir->count;
      ir->last_line = li;
    }
  }
  const bool any_repeated = !repeated_keys.empty() ||
                            std::any_of(text_ids.begin(), text_ids.end(), [](const auto& t) { return t.second.count > 1; });
  std::vector<Row> rows;
  rows.reserve(lines.size());
  std::vector<Requeued> requeued;
  std::unordered_map<std::string_view, size_t> requeued_of_id;  // JobID -> its entry in `requeued`
  std::unordered_map<std::string_view, int64_t> last_end_of_id;  // JobID -> the latest time of its last row read
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
    // A log is one machine: sacct's rows of several clusters (-L, -M a,b) are not one workload.
    if (c_cluster) {
      if (cluster_line == 0) {
        cluster = f[*c_cluster];
        cluster_line = static_cast<int64_t>(li + 1);
      } else if (f[*c_cluster] != cluster) {
        fail(header[*c_cluster], fmt::format("cluster '{}' here, '{}' on line {}: a log is one machine; convert one "
                                             "cluster's rows at a time (sacct -M NAME)",
                                             base::excerpt(f[*c_cluster]), base::excerpt(cluster), cluster_line));
      }
    }
    const std::string_view id = f[c_id];
    const IdRows* repeated = nullptr;
    if (any_repeated) {
      if (keys[li] != 0) {
        if (const auto it = repeated_keys.find(keys[li]); it != repeated_keys.end()) repeated = &it->second;
      } else if (const auto it = text_ids.find(id); it != text_ids.end() && it->second.count > 1) {
        repeated = &it->second;
      }
    }
    const bool het = id.find('+') != std::string_view::npos;
    const std::string_view state_text = f[c_state];
    const std::string state(state_text.substr(0, state_text.find(' ')));
    ++rep.states[state];
    int32_t status = -2;
    if (state == "COMPLETED") status = 1;
    else if (state == "CANCELLED") status = 5;
    else if (state == "FAILED" || state == "TIMEOUT" || state == "NODE_FAIL" || state == "OUT_OF_MEMORY" ||
             state == "BOOT_FAIL" || state == "DEADLINE" || state == "PREEMPTED")
      status = 0;
    // A requeued heterogeneous job: its components' earlier runs are left out (counted), the last row of each
    // stands, as sacct prints it without -D (the components are merged into one job below, run by run would not be).
    if (repeated && het && li != repeated->last_line) {
      ++rep.het_requeued_rows;
      continue;
    }
    const bool run_of_requeued = repeated && !het;
    if (status == -2 && !run_of_requeued) {  // still pending, running, suspended, requeued...
      ++rep.unfinished;
      continue;
    }
    const uint64_t key = id_key(id);
    const bool in_order = key != 0 && previous_key != 0 && key > previous_key;
    int64_t floor = in_order ? previous_submit : std::numeric_limits<int64_t>::min();
    // A later row of a JobID (a requeued job's next run, or the next job given the id) is submitted when the row
    // before it ended, or after: its floor in the hour the clocks repeat, where it is listed out of JobID order.
    if (run_of_requeued)
      if (const auto it = last_end_of_id.find(id); it != last_end_of_id.end()) floor = std::max(floor, it->second);
    auto submit = parse_time(f[c_submit], header[c_submit], fail, clock, floor);
    if (!submit) fail(header[c_submit], fmt::format("no submit time ('{}')", f[c_submit]));
    // A job cancelled before its begin time gets the cancel time as Start, but no node.
    const bool no_node = c_nodes && f[*c_nodes] == "None assigned";
    previous_submit = *submit;
    previous_key = key;
    const int64_t start = no_node ? -1 : parse_time(f[c_start], header[c_start], fail, clock, *submit).value_or(-1);
    // A job held from the scheduler (a begin time, a dependency on another job, a hold) reaches it at its Eligible
    // time: from its Submit it would start in a simulation before the job it waited for, and its logged wait would
    // count the hold. Eligible is never later than the Start.
    bool held = false;
    if (c_eligible) {
      const auto eligible = parse_time(f[*c_eligible], header[*c_eligible], fail, clock, *submit);
      if (eligible && *eligible > *submit) {
        const int64_t arrival = start >= 0 ? std::min(*eligible, std::max(start, *submit)) : *eligible;
        held = arrival > *submit;
        submit = std::max(*submit, arrival);
      }
    }
    const int64_t end = parse_time(f[c_end], header[c_end], fail, clock, start >= 0 ? start : *submit)
                            .value_or(-1);
    if (run_of_requeued) last_end_of_id[id] = std::max({*submit, start, end});
    const bool started = start >= 0;
    // Every field is checked, also for a job left out.
    const int64_t cpus = parse_count(f[c_cpus], header[c_cpus], fail);
    const int64_t req = c_req && !f[*c_req].empty() ? parse_count(f[*c_req], header[*c_req], fail) : cpus;
    const int64_t limit = parse_duration(f[c_limit], header[c_limit], fail).value_or(-1);
    // SWF times are 32-bit seconds: a wait of more than 68 years is a corrupt timestamp, not a wait.
    if (started && start - *submit > std::numeric_limits<int32_t>::max())
      fail(header[c_start],
           fmt::format("'{}' is more than 68 years after the submit time '{}'", f[c_start], f[c_submit]));
    int64_t run = -1;
    if (started) {
      if (end >= 0) run = end - start;
      else if (c_elapsed) run = parse_duration(f[*c_elapsed], header[*c_elapsed], fail).value_or(-1);
    }
    if (run_of_requeued) {
      // The row's user, group, name and partition numbered here, in the order of the rows, as any other row's.
      const int32_t user_id = c_user ? users.of(f[*c_user]) : -1, group_id = c_group ? groups.of(f[*c_group]) : -1,
                    executable = c_name ? names.of(f[*c_name]) : -1, partition = c_part ? parts.of(f[*c_part]) : -1;
      const auto [it, first_run] = requeued_of_id.try_emplace(id, requeued.size());
      if (first_run) {  // the job's place (its numbers are its first run's, set when the runs are sorted)
        requeued.push_back({rows.size(), {}, {}});
        rows.push_back({*submit, Record{}, static_cast<uint32_t>(li + 1), static_cast<uint32_t>(requeued.size())});
      }
      // A requeue turns the run's row into REQUEUED (the earlier run of a completed or failed job too, measured on
      // a real Slurm); preemption and a node failure may be followed by one. Any other end is the job's last.
      const bool ends_job = status == 1 || status == 5 || (status == 0 && state != "PREEMPTED" && state != "NODE_FAIL");
      const bool end_before_start = started && end >= 0 && end < start;
      requeued[it->second].runs.push_back({*submit, start, end, end_before_start ? 0 : run, cpus, req, limit,
                                           static_cast<int64_t>(li + 1), status, end_before_start, held, ends_job,
                                           user_id, group_id, executable, partition,
                                           c_user ? f[*c_user] : std::string_view(),
                                           c_name ? f[*c_name] : std::string_view()});
      continue;
    }
    Record r;
    r.status = status;
    if (!started) {
      ++rep.unstarted;
      if (!options.keep_unstarted) continue;
      r.status = 5;
    }
    // Counted for the rows that become jobs (a requeued job's by its first row, below).
    if (held && rep.held++ == 0) rep.held_line = static_cast<int64_t>(li + 1);
    if (started) {
      r.wait_time = static_cast<int32_t>(std::max<int64_t>(0, start - *submit));
      if (start < *submit && rep.start_before_submit++ == 0) rep.start_before_submit_line = static_cast<int64_t>(li + 1);
      if (end >= 0 && end < start && rep.end_before_start++ == 0)
        rep.end_before_start_line = static_cast<int64_t>(li + 1);
      r.run_time = static_cast<int32_t>(std::clamp<int64_t>(run, end >= 0 ? 0 : -1, std::numeric_limits<int32_t>::max()));
    }
    r.allocated_procs = started ? static_cast<int32_t>(cpus) : -1;
    r.requested_procs = static_cast<int32_t>(req);
    r.requested_time = static_cast<int32_t>(std::min<int64_t>(limit, std::numeric_limits<int32_t>::max()));
    // A heterogeneous job's components ("123+0", "123+1", one row each with -X) are one job, scheduled as one:
    // converted one by one they counted it several times, each part free to start on its own.
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
    rows.push_back({*submit, r, static_cast<uint32_t>(li + 1)});
  }
  // A requeued job's rows folded into one job, as the SWF definition writes a job that ran in bursts: a summary
  // line (submitted at its first row's Submit, waiting until its first run, its runtime the runs' sum, its status
  // the last row's), then a partial-execution line per run (status 2, the last 3 when the job completed, else 4;
  // the same submit time, the wait until that run). Every other command reads the job as its summary line.
  if (!requeued.empty()) {
    // One JobID on the rows of several jobs: Slurm gives an id again after its range cycles (MaxJobId) or its state
    // is lost, and the accounting keeps the earlier job. A run that ended its job is that job's last: the rows
    // after it are another job's (its own place and numbers, by its first row), submitted after that end (Slurm
    // gives an id only when no job has it). Within a job every run is the same user's job of the same name.
    // Otherwise the rows are several clusters' (sacct -L, -M a,b), which a log of one machine cannot hold either.
    const auto other_clusters = [&](const Run& run, std::string_view column, const std::string& what) {
      Fail{name, run.line}(column, fmt::format("JobID {} {}: not one job's runs (sacct -D) nor a JobID given again; "
                                               "the rows of several clusters (sacct -L, -M)? Convert one cluster's at "
                                               "a time (sacct -M NAME)",
                                               nth_field(strip(lines[static_cast<size_t>(run.line - 1)]), c_id), what));
    };
    const auto numbered = [](Record& r, const Run& run) {  // a job's numbers are its first run's
      r.user_id = run.user_id;
      r.group_id = run.group_id;
      r.executable = run.executable;
      r.partition = run.partition;
    };
    const size_t ids = requeued.size();
    for (size_t qi = 0; qi < ids; ++qi) {
      std::vector<Run> runs = std::move(requeued[qi].runs);  // (out of `requeued`, which grows below)
      std::stable_sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.submit < b.submit; });
      std::vector<size_t> firsts{0};  // each job's first run
      for (size_t k = 1; k < runs.size(); ++k) {
        const Run& before = runs[k - 1];
        if (before.ends_job) {
          if (before.end >= 0 && runs[k].submit < before.end)
            other_clusters(runs[k], header[c_submit],
                           fmt::format("is submitted here before the job with it on line {} ended", before.line));
          firsts.push_back(k);
          continue;
        }
        const Run& first = runs[firsts.back()];
        for (const auto& [c, seen, here] :
             {std::tuple{c_user, first.user, runs[k].user}, std::tuple{c_name, first.name, runs[k].name}})
          if (c && here != seen)
            other_clusters(runs[k], header[*c],
                           fmt::format("is '{}' here and '{}' on line {}", base::excerpt(here), base::excerpt(seen),
                                       first.line));
      }
      firsts.push_back(runs.size());
      // The first job keeps the entry (its numbers are set again: the row read first may be a later job's); each
      // later one gets its own entry and row.
      numbered(rows[requeued[qi].row].r, runs[0]);
      for (size_t j = 1; j + 1 < firsts.size(); ++j) {
        const Run& r0 = runs[firsts[j]];
        Row row{r0.submit, Record{}, static_cast<uint32_t>(r0.line), static_cast<uint32_t>(requeued.size() + 1)};
        numbered(row.r, r0);
        rows.push_back(row);
        requeued.push_back({rows.size() - 1,
                            std::vector<Run>(runs.begin() + static_cast<std::ptrdiff_t>(firsts[j]),
                                             runs.begin() + static_cast<std::ptrdiff_t>(firsts[j + 1])),
                            {}});
        ++rep.reused_ids;
      }
      runs.resize(firsts[1]);
      requeued[qi].runs = std::move(runs);
    }
    for (Requeued& q : requeued) {
      Row& row = rows[q.row];
      const Run& last = q.runs.back();
      row.submit = q.runs.front().submit;
      row.line = static_cast<uint32_t>(q.runs.front().line);
      Record& r = row.r;
      if (last.status == -2) {  // requeued, and not yet run again (or running) when sacct was asked
        rep.unfinished += static_cast<int64_t>(q.runs.size());
        r.job_number = -2;  // left out below
        continue;
      }
      std::vector<const Run*> ran;
      for (const Run& x : q.runs)
        if (x.start >= 0) ran.push_back(&x);
      r.status = last.status;
      r.requested_procs = static_cast<int32_t>(last.req);
      r.requested_time = static_cast<int32_t>(std::min<int64_t>(last.limit, std::numeric_limits<int32_t>::max()));
      if (ran.empty()) {
        ++rep.unstarted;
        if (!options.keep_unstarted) {
          r.job_number = -2;
          continue;
        }
        r.status = 5;
      }
      if (q.runs.front().held && rep.held++ == 0) rep.held_line = q.runs.front().line;
      if (ran.empty()) continue;
      if (q.runs.size() > 1) {  // a job alone on a reused JobID was not requeued
        ++rep.requeued_jobs;
        rep.requeued_rows += static_cast<int64_t>(q.runs.size()) - 1;
      }
      const Fail fail{name, ran.front()->line};
      const auto since_submit = [&](const Run& x) {
        if (x.start - row.submit > std::numeric_limits<int32_t>::max())
          fail(header[c_start], "more than 68 years after the job's first submit time");
        return static_cast<int32_t>(std::max<int64_t>(0, x.start - row.submit));
      };
      if (ran.front()->start < row.submit && rep.start_before_submit++ == 0)
        rep.start_before_submit_line = ran.front()->line;
      int64_t total = 0;
      for (const Run* x : ran) {
        if (x->end_before_start && rep.end_before_start++ == 0) rep.end_before_start_line = x->line;
        total += std::max<int64_t>(0, x->run);
      }
      r.wait_time = since_submit(*ran.front());
      r.run_time = static_cast<int32_t>(std::min<int64_t>(total, std::numeric_limits<int32_t>::max()));
      r.allocated_procs = static_cast<int32_t>(ran.back()->cpus);
      if (ran.size() < 2) continue;  // it ran once: the summary line says it all
      for (size_t k = 0; k < ran.size(); ++k) {
        Record b = r;
        b.wait_time = since_submit(*ran[k]);
        b.run_time = static_cast<int32_t>(std::clamp<int64_t>(ran[k]->run, 0, std::numeric_limits<int32_t>::max()));
        b.allocated_procs = static_cast<int32_t>(ran[k]->cpus);
        b.status = k + 1 < ran.size() ? 2 : r.status == 1 ? 3 : 4;
        q.bursts.push_back(b);
      }
      rep.partial_executions += static_cast<int64_t>(ran.size());
    }
    std::erase_if(rows, [](const Row& row) { return row.r.job_number == -2; });
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
  log.records.reserve(rows.size() + static_cast<size_t>(rep.partial_executions));  // one allocation, bursts too
  for (size_t i = 0; i < rows.size(); ++i) {
    Record r = rows[i].r;
    r.job_number = static_cast<int32_t>(i + 1);
    r.submit_time = static_cast<int32_t>(rows[i].submit - first);
    largest = std::max<int64_t>(largest, std::max(r.allocated_procs, r.requested_procs));
    log.records.push_back(r);
    if (rows[i].requeued == 0) continue;
    for (Record b : requeued[rows[i].requeued - 1].bursts) {  // its partial-execution lines, right after it
      b.job_number = r.job_number;
      b.submit_time = r.submit_time;
      largest = std::max<int64_t>(largest, b.allocated_procs);
      log.records.push_back(b);
    }
  }
  rep.jobs = static_cast<int64_t>(rows.size());
  Header& h = log.header;
  h.add_line("; Version: 2.2");
  h.add_line("; Computer: Slurm cluster (sacct)");
  h.add_line(fmt::format("; Conversion: schedlab {} convert --from sacct {}", base::kVersion, name));
  h.add_line(fmt::format("; MaxJobs: {}", rep.jobs));
  h.add_line(fmt::format("; MaxRecords: {}", log.records.size()));
  h.add_line(fmt::format("; UnixStartTime: {}", first));
  h.add_line(fmt::format("; TimeZoneString: {}", zone));
  h.add_line(fmt::format("; MaxProcs: {}", options.procs ? *options.procs : std::max<int64_t>(largest, 1)));
  std::string states;
  for (const auto& [s, n] : rep.states) states += fmt::format("{}{} {}", states.empty() ? "" : ", ", s, n);
  const std::string merged = rep.het_components > 0 ? fmt::format(", heterogeneous-job components {} (merged into "
                                                                   "their job)", rep.het_components)
                                                     : std::string();
  h.add_note(fmt::format("sacct rows {}: jobs {}, never started {} ({}), unfinished {} (left out), job steps {} (left "
                         "out){}{}; states: {}",
                         rep.rows, rep.jobs, rep.unstarted, options.keep_unstarted ? "kept with status 5" : "left out",
                         rep.unfinished, rep.steps, merged, more_counts_note(rep), states));
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
