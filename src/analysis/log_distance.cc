#include "schedlab/analysis/log_distance.h"

#include <cmath>
#include <stdexcept>
#include <utility>

#include <fmt/core.h>

#include "schedlab/analysis/distribution.h"
#include "schedlab/analysis/summary.h"

namespace schedlab::analysis {

LogDistance log_distance(const swf::Log& a, const swf::Log& b) {
  for (const swf::Log* l : {&a, &b})
    if (l->records.empty()) throw std::invalid_argument(fmt::format("{}: the log has no job", l->path));
  const Summary sa = summarize(a), sb = summarize(b);
  LogDistance d;
  d.procs_a = sa.machine.procs;
  d.procs_b = sb.machine.procs;
  d.records_a = static_cast<int64_t>(a.records.size());
  d.records_b = static_cast<int64_t>(b.records.size());
  for (const auto& [l, procs] : {std::pair{&a, d.procs_a}, std::pair{&b, d.procs_b}})
    if (procs <= 0)
      throw std::invalid_argument(fmt::format(
          "{}: the log's machine size is unknown (no MaxProcs or MaxNodes in the header, no job size)", l->path));
  d.jobs_per_day_a = sa.jobs_per_day;
  d.jobs_per_day_b = sb.jobs_per_day;
  d.load_a = sa.offered_load;
  d.load_b = sb.offered_load;
  for (int k = 0; k < kAttributeKinds; ++k) {
    const auto attr = static_cast<Attribute>(k);
    const bool per_machine = attr == Attribute::kProcs || attr == Attribute::kCpu;
    AttributeSeries sa_attr = attribute_series(a.records, attr), sb_attr = attribute_series(b.records, attr);
    std::vector<double> va = std::move(sa_attr.values), vb = std::move(sb_attr.values);
    if (per_machine) {
      for (double& v : va) v /= static_cast<double>(d.procs_a);
      for (double& v : vb) v /= static_cast<double>(d.procs_b);
    }
    AttributeDistance& ad = d.attributes[static_cast<size_t>(k)];
    ad.attribute = attr;
    ad.count_a = static_cast<int64_t>(va.size());
    ad.count_b = static_cast<int64_t>(vb.size());
    d.unknown_submit_a = sa_attr.unknown_submit;  // (the same for every attribute)
    d.unknown_submit_b = sb_attr.unknown_submit;
    ad.estimate_from_runtime_a = sa_attr.estimate_from_runtime;
    ad.estimate_from_runtime_b = sb_attr.estimate_from_runtime;
    // No distance between a sample and nothing (ks_statistic's 0 would read as "the same distribution").
    ad.ks = va.empty() || vb.empty() ? std::nan("") : ks_statistic(va, vb);
    ad.median_a = describe(std::move(va)).median;
    ad.median_b = describe(std::move(vb)).median;
  }
  return d;
}

}  // namespace schedlab::analysis
