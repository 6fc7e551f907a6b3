#include "schedlab/analysis/log_distance.h"

#include <stdexcept>

#include "schedlab/analysis/distribution.h"
#include "schedlab/analysis/summary.h"

namespace schedlab::analysis {

LogDistance log_distance(const swf::Log& a, const swf::Log& b) {
  const Summary sa = summarize(a), sb = summarize(b);
  LogDistance d;
  d.procs_a = sa.machine.procs;
  d.procs_b = sb.machine.procs;
  if (d.procs_a <= 0 || d.procs_b <= 0) throw std::invalid_argument("a log's machine size is unknown");
  d.jobs_per_day_a = sa.jobs_per_day;
  d.jobs_per_day_b = sb.jobs_per_day;
  d.load_a = sa.offered_load;
  d.load_b = sb.offered_load;
  for (int k = 0; k < kAttributeKinds; ++k) {
    const auto attr = static_cast<Attribute>(k);
    const bool per_machine = attr == Attribute::kProcs || attr == Attribute::kCpu;
    std::vector<double> va = attribute_series(a.records, attr).values;
    std::vector<double> vb = attribute_series(b.records, attr).values;
    if (per_machine) {
      for (double& v : va) v /= static_cast<double>(d.procs_a);
      for (double& v : vb) v /= static_cast<double>(d.procs_b);
    }
    AttributeDistance& ad = d.attributes[static_cast<size_t>(k)];
    ad.attribute = attr;
    ad.count_a = static_cast<int64_t>(va.size());
    ad.count_b = static_cast<int64_t>(vb.size());
    ad.ks = ks_statistic(va, vb);
    ad.median_a = describe(std::move(va)).median;
    ad.median_b = describe(std::move(vb)).median;
  }
  return d;
}

}  // namespace schedlab::analysis
