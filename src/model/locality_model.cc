#include "schedlab/model/locality_model.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <utility>

#include <fmt/core.h>

#include "schedlab/base/choice.h"
#include "schedlab/base/count_text.h"
#include "schedlab/base/memory.h"
#include "schedlab/base/progress_text.h"
#include "schedlab/base/random.h"
#include "schedlab/base/version.h"
#include "schedlab/trace/conventions.h"

namespace schedlab::model {

namespace {

struct Item {
  int64_t submit = 0;
  uint64_t order = 0;  // generation order (ties)
  size_t source = 0;   // pool index of the job whose runtime and estimate it carries
  size_t size_from = 0;  // pool index of the job whose size it carries
  int64_t follows = -1;  // the generation order of the job before it in its run (-1: the run's first)
};

// Exponential gap with rate `rate` per second.
double exponential(base::Rng& rng, double rate) { return -std::log(1.0 - rng.uniform()) / rate; }

// Terms of the run-length sums added one by one; past this, the rest of a sum is Euler-Maclaurin's (below).
constexpr int64_t kDirectTerms = 1'000'000;

// sum_{r=a}^{b} r^-s (a >= kDirectTerms, s > 0) by Euler-Maclaurin: the integral, the end points' half values and
// the first two derivative corrections. At a >= 10^6 the next term is below 1e-30 of the sum, far under a double's
// precision, so the sum is what adding the terms exactly would give, in O(1): --max-repetitions 2000000000 added
// two billion powers (a minute) for the mean run length.
double power_sum_tail(double a, double b, double s) {
  const auto f = [&](double x) { return std::pow(x, -s); };
  const auto d1 = [&](double x) { return -s * std::pow(x, -s - 1); };
  const auto d3 = [&](double x) { return -s * (s + 1) * (s + 2) * std::pow(x, -s - 3); };
  const double integral = s == 1.0 ? std::log(b / a) : (std::pow(b, 1 - s) - std::pow(a, 1 - s)) / (1 - s);
  return integral + (f(a) + f(b)) / 2 + (d1(b) - d1(a)) / 12 - (d3(b) - d3(a)) / 720;
}

}  // namespace

namespace {
constexpr std::array<std::string_view, 3> kRepeatNames = {"job", "runtime", "size"};  // in enum order
constexpr std::array<std::string_view, 2> kArrivalsNames = {"poisson", "log"};
}  // namespace

std::string_view locality_repeat_name(LocalityModelOptions::Repeat r) { return kRepeatNames.at(static_cast<size_t>(r)); }
std::optional<LocalityModelOptions::Repeat> parse_locality_repeat(std::string_view name) {
  return base::parse_choice<LocalityModelOptions::Repeat>(kRepeatNames, name);
}
std::vector<std::string> locality_repeat_names() { return base::choice_names(kRepeatNames); }
std::string_view locality_arrivals_name(LocalityModelOptions::Arrivals a) {
  return kArrivalsNames.at(static_cast<size_t>(a));
}
std::optional<LocalityModelOptions::Arrivals> parse_locality_arrivals(std::string_view name) {
  return base::parse_choice<LocalityModelOptions::Arrivals>(kArrivalsNames, name);
}
std::vector<std::string> locality_arrivals_names() { return base::choice_names(kArrivalsNames); }

void check_locality_options(const LocalityModelOptions& o) {
  if (!(o.theta > 1.0)) throw std::invalid_argument(fmt::format("--theta must be > 1 (got {})", o.theta));
  // Job numbers are 32-bit in SWF.
  if (o.jobs < 0 || o.jobs > std::numeric_limits<int32_t>::max())
    throw std::invalid_argument(
        fmt::format("--jobs must be 1 to {}, or 0 for as many as the log has (got {})",
                    std::numeric_limits<int32_t>::max(), o.jobs));
  // The generated jobs and their sorted copy.
  base::check_fits_in_memory(static_cast<double>(o.jobs) * 2 * sizeof(swf::Record),
                             fmt::format("--jobs {} ({} bytes per job)", o.jobs, 2 * sizeof(swf::Record)));
  if (o.max_repetitions < 1) {
    throw std::invalid_argument(fmt::format("--max-repetitions must be >= 1 (got {})", o.max_repetitions));
  }
  if (o.think < 0) throw std::invalid_argument(fmt::format("--think must be >= 0 (got {})", o.think));
}

std::vector<swf::Record> generate_locality(const std::vector<swf::Record>& log, const LocalityModelOptions& o,
                                           LocalityModelStats* stats) {
  check_locality_options(o);
  std::vector<const swf::Record*> pool;
  std::vector<int64_t> submits;
  std::map<std::string, int64_t> left_out;
  for (const swf::Record& r : log) {
    if (r.submit_time >= 0) submits.push_back(r.submit_time);
    if (r.submit_time < 0) {
      ++left_out["unknown_submit_time"];
    } else if (r.run_time < 0) {
      ++left_out["unknown_runtime"];
    } else if (trace::job_size(r) <= 0) {
      ++left_out["unknown_size"];
    } else {
      pool.push_back(&r);
    }
  }
  if (pool.empty()) throw std::invalid_argument("the log has no job with a known runtime and size to sample from");
  std::sort(submits.begin(), submits.end());
  const int64_t jobs = o.jobs > 0 ? o.jobs : static_cast<int64_t>(pool.size());

  // The run-length table: P(R = r) ∝ r^-theta, r = 1..max. It stops at `jobs` entries: a draw past the table is a
  // run of more than `jobs` repeats, cut like any run at the jobs still to generate, so the longer table would give
  // the same log (it was 16 GB for --max-repetitions 2000000000). The normalisation and the mean run length are
  // over 1..max: the first kDirectTerms terms added, the rest by power_sum_tail.
  const int64_t max = o.max_repetitions;
  std::vector<double> cdf(static_cast<size_t>(std::min(max, jobs)));
  double total = 0, mean = 0;
  for (int64_t r = 1; r <= std::min(max, kDirectTerms); ++r) {
    const double p = std::pow(static_cast<double>(r), -o.theta);
    total += p;
    mean += static_cast<double>(r) * p;
    if (r <= static_cast<int64_t>(cdf.size())) cdf[static_cast<size_t>(r - 1)] = total;
  }
  if (max > kDirectTerms) {
    const auto a = static_cast<double>(kDirectTerms + 1), b = static_cast<double>(max);
    total += power_sum_tail(a, b, o.theta);
    mean += power_sum_tail(a, b, o.theta - 1);
    // Table entries past the terms added (jobs > kDirectTerms): each from the tail up to it.
    for (auto r = kDirectTerms + 1; r <= static_cast<int64_t>(cdf.size()); ++r)
      cdf[static_cast<size_t>(r - 1)] = cdf[static_cast<size_t>(kDirectTerms - 1)] +
                                        power_sum_tail(a, static_cast<double>(r), o.theta);
  }
  mean /= total;
  for (double& c : cdf) c /= total;

  const int64_t span = submits.back() - submits.front();
  double log_rate = 0;  // jobs per second
  if (o.arrivals == LocalityModelOptions::Arrivals::kPoisson) {
    if (span <= 0) throw std::invalid_argument("the log's jobs all arrive at one instant: no arrival rate to follow");
    log_rate = static_cast<double>(submits.size() - 1) / static_cast<double>(span);
  }
  const double run_rate = log_rate / mean;

  base::Rng rng = base::Rng::stream(o.seed, 0);
  base::Rng fresh = base::Rng::stream(o.seed, 1);
  std::vector<Item> items;
  items.reserve(static_cast<size_t>(jobs));
  double clock = static_cast<double>(submits.front());
  int64_t runs = 0;
  int64_t last_run_start = std::numeric_limits<int64_t>::min();
  const int64_t log_span = std::max<int64_t>(span, 1);
  while (static_cast<int64_t>(items.size()) < jobs) {
    const size_t x = static_cast<size_t>(rng.below(pool.size()));
    const double u = rng.uniform();
    const auto length = static_cast<int64_t>(std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin()) + 1;
    int64_t first;
    if (o.arrivals == LocalityModelOptions::Arrivals::kPoisson) {
      first = std::llround(clock);
      clock += exponential(rng, run_rate);
    } else {
      // Run k takes the log's submit time number k × E[R], so the runs cover the log's span at its job rate.
      const auto k = static_cast<size_t>(static_cast<double>(runs) * mean);
      first = submits[k % submits.size()] + static_cast<int64_t>(k / submits.size()) * log_span;
    }
    ++runs;
    last_run_start = std::max(last_run_start, first);
    int64_t at = first;
    for (int64_t i = 0; i < length && static_cast<int64_t>(items.size()) < jobs; ++i) {
      Item item{at, items.size(), x, x, i == 0 ? -1 : static_cast<int64_t>(items.size()) - 1};
      if (o.repeat == LocalityModelOptions::Repeat::kRuntime) item.size_from = static_cast<size_t>(fresh.below(pool.size()));
      if (o.repeat == LocalityModelOptions::Repeat::kSize) item.source = static_cast<size_t>(fresh.below(pool.size()));
      items.push_back(item);
      at += pool[item.source]->run_time + o.think;
    }
  }
  // The tail: repeats submitted after the last run has started, of runs still going on (generation order, so that
  // `follows` indexes items). A real log's end cuts such runs; here they stretch the log past the runs' span.
  int64_t tail_jobs = 0, tail_runs = 0, tail_end = last_run_start;
  for (const Item& item : items) {
    if (item.submit <= last_run_start) continue;
    ++tail_jobs;
    if (items[static_cast<size_t>(item.follows)].submit <= last_run_start) ++tail_runs;  // (a repeat: follows >= 0)
    tail_end = std::max(tail_end, item.submit);
  }
  const size_t generated = items.size();
  if (o.cut_tail)  // (a kept repeat's predecessor is kept: it was submitted no later)
    std::erase_if(items, [&](const Item& item) { return item.submit > last_run_start; });
  std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    return a.submit != b.submit ? a.submit < b.submit : a.order < b.order;
  });
  std::vector<swf::Record> out;
  out.reserve(items.size());
  // Job numbers by generation order, for fields 17-18 (a repeat sorts after the job before it: its submit is that
  // one's plus runtime and think time, and ties keep the generation order).
  std::vector<int32_t> number(generated, -1);
  int64_t following = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    const swf::Record& src = *pool[items[i].source];
    const swf::Record& sized = *pool[items[i].size_from];
    swf::Record r;
    if (items[i].submit > INT32_MAX) {
      throw std::invalid_argument(fmt::format("the generated log runs past the SWF time range (job {} at {} s)", i + 1,
                                              items[i].submit));
    }
    r.job_number = static_cast<int32_t>(i + 1);
    number[items[i].order] = r.job_number;
    if (items[i].follows >= 0) {
      r.preceding_job = number[static_cast<size_t>(items[i].follows)];
      r.think_time = static_cast<int32_t>(std::min<int64_t>(o.think, std::numeric_limits<int32_t>::max()));
      ++following;
    }
    r.submit_time = static_cast<int32_t>(items[i].submit);
    r.run_time = src.run_time;
    r.allocated_procs = r.requested_procs = trace::job_size(sized);
    r.requested_time = src.requested_time;
    r.status = 1;
    r.user_id = src.user_id;
    r.group_id = src.group_id;
    r.executable = src.executable;
    r.queue = src.queue;
    r.partition = src.partition;
    out.push_back(r);
  }
  if (stats != nullptr) {
    stats->pool = static_cast<int64_t>(pool.size());
    stats->left_out = std::move(left_out);
    stats->runs = runs;
    stats->following = following;
    stats->mean_run_length = mean;
    stats->log_rate_per_day = log_rate * 86400;
    stats->run_rate_per_day = run_rate * 86400;
    stats->last_run_start = last_run_start;
    stats->tail_jobs = tail_jobs;
    stats->tail_runs = tail_runs;
    stats->tail_seconds = tail_end - last_run_start;
    stats->largest_size = 0;
    for (const swf::Record* r : pool) stats->largest_size = std::max<int64_t>(stats->largest_size, trace::job_size(*r));
  }
  return out;
}

std::string left_out_text(const LocalityModelStats& stats, bool grouped) {
  int64_t total = 0;
  std::string reasons;
  for (const auto& [reason, n] : stats.left_out) {
    total += n;
    reasons += fmt::format("{}{} {}", reasons.empty() ? "" : ", ", reason,
                           grouped ? base::group_thousands(n) : std::to_string(n));
  }
  const auto count = grouped ? base::counted_grouped : base::counted;
  return total == 0 ? std::string() : fmt::format("{} left out: {}", count(total, "record", {}), reasons);
}

namespace {
void common_header(swf::Header& h, const swf::Header& log_header, int64_t largest_size,
                   const std::vector<std::string>& notes) {
  h.add_line("; Version: 2.2");
  if (log_header.max_nodes) h.add_line(fmt::format("; MaxNodes: {}", *log_header.max_nodes));
  h.add_line(fmt::format("; MaxProcs: {}", log_header.max_procs ? *log_header.max_procs : largest_size));
  // The generated submit times are on the source's axis (from its first submit on): its calendar origin holds for
  // them, and analyses of days and weeks (sessions, cycles) need it.
  if (log_header.unix_start_time) h.add_line(fmt::format("; UnixStartTime: {}", *log_header.unix_start_time));
  if (log_header.time_zone) h.add_line(fmt::format("; TimeZone: {}", *log_header.time_zone));
  if (log_header.time_zone_string) h.add_line(fmt::format("; TimeZoneString: {}", *log_header.time_zone_string));
  for (const auto& n : notes) h.add_note(n);
}
}  // namespace

std::string locality_tail_text(const LocalityModelStats& stats, bool cut_tail, std::string_view option,
                               bool grouped) {
  if (stats.tail_jobs == 0) return "no repeat arrives after the last run starts";
  const auto count = grouped ? base::counted_grouped : base::counted;
  return fmt::format("{} of {} arrive{} after the last run starts, over {:.1f} more days{}",
                     count(stats.tail_jobs, "repeat", {}), count(stats.tail_runs, "run", {}),
                     stats.tail_jobs == 1 ? "s" : "", static_cast<double>(stats.tail_seconds) / 86400,
                     cut_tail ? fmt::format(": dropped ({})", option)
                              : fmt::format(" (whole-log jobs per day and load count them; {} drops them)", option));
}

swf::Header locality_header(const swf::Header& log_header, const std::string& source, const LocalityModelOptions& o,
                            const LocalityModelStats& stats) {
  swf::Header h;
  common_header(h, log_header, stats.largest_size,
                {fmt::format("generated by schedlab {} generate locality: Feitelson's model with locality of sampling (runs of "
                             "repeated jobs, P(R = r) ~ r^-theta)",
                             base::kVersion),
                 fmt::format("source {} ({} in the global distribution{})", source, base::counted(stats.pool, "job"),
                             stats.left_out.empty() ? "" : "; " + left_out_text(stats)),
                 fmt::format("theta {}, max_repetitions {}, repeat {}, arrivals {}, think {} s, seed {}", o.theta,
                             o.max_repetitions, locality_repeat_name(o.repeat), locality_arrivals_name(o.arrivals), o.think,
                             o.seed) +
                     (o.cut_tail ? ", cut_tail" : ""),
                 fmt::format("{}, the model's mean run length E[R] {:.4f}; log rate {:.2f} jobs/day, runs start "
                             "at {:.2f}/day",
                             base::counted(stats.runs, "run"), stats.mean_run_length, stats.log_rate_per_day,
                             stats.run_rate_per_day),
                 locality_tail_text(stats, o.cut_tail, "cut_tail", false),
                 // (No repeat: it said "each of the 0 repeats names the job before it".)
                 stats.following == 0
                     ? std::string("fields 17-18: unused (no run has a repeat)")
                     : fmt::format("fields 17-18: {} names the job before it in its run and the think "
                                   "time (submit times assume no wait; simulate --feedback submits them after the "
                                   "simulated end)",
                                   stats.following == 1 ? std::string("the 1 repeat")
                                                        : fmt::format("each of the {} repeats", stats.following))});
  return h;
}

std::vector<swf::Record> scramble(const std::vector<swf::Record>& log, uint64_t seed) {
  std::vector<swf::Record> jobs = log;
  std::stable_sort(jobs.begin(), jobs.end(),
                   [](const swf::Record& a, const swf::Record& b) { return a.submit_time < b.submit_time; });
  std::vector<size_t> perm(jobs.size());
  std::iota(perm.begin(), perm.end(), 0);
  base::Rng rng = base::Rng::stream(seed, 0);
  for (size_t i = perm.size(); i > 1; --i) std::swap(perm[i - 1], perm[static_cast<size_t>(rng.below(i))]);
  std::vector<swf::Record> out;
  out.reserve(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    swf::Record r = jobs[perm[i]];
    r.job_number = static_cast<int32_t>(i + 1);
    r.submit_time = jobs[i].submit_time;
    r.wait_time = -1;  // the source's wait belonged to another instant
    r.preceding_job = -1;
    r.think_time = -1;
    out.push_back(r);
  }
  return out;
}

swf::Header scramble_header(const swf::Header& log_header, const std::vector<swf::Record>& log, const std::string& source,
                            uint64_t seed) {
  int64_t largest = 0;
  for (const swf::Record& r : log) largest = std::max<int64_t>(largest, trace::job_size(r));
  swf::Header h;
  common_header(h, log_header, largest,
                {fmt::format("generated by schedlab {} generate scramble: the jobs of the source with every field "
                             "but the submit time permuted over the submit times (locality of sampling destroyed)",
                             base::kVersion),
                 fmt::format("source {}, seed {}", source, seed)});
  return h;
}

}  // namespace schedlab::model
