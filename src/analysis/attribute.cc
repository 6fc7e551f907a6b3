#include "schedlab/analysis/attribute.h"

#include <algorithm>
#include <numeric>

#include "schedlab/trace/conventions.h"

namespace schedlab::analysis {

std::string_view attribute_name(Attribute a) {
  switch (a) {
    case Attribute::kRuntime: return "runtime";
    case Attribute::kProcs: return "procs";
    case Attribute::kCpu: return "cpu";
    case Attribute::kEstimate: return "estimate";
    case Attribute::kInterarrival: return "interarrival";
  }
  return "?";
}

std::optional<Attribute> parse_attribute(std::string_view name) {
  for (int i = 0; i < kAttributeKinds; ++i)
    if (attribute_name(static_cast<Attribute>(i)) == name) return static_cast<Attribute>(i);
  return std::nullopt;
}

std::vector<std::string> attribute_names() {
  std::vector<std::string> names;
  for (int i = 0; i < kAttributeKinds; ++i) names.emplace_back(attribute_name(static_cast<Attribute>(i)));
  return names;
}

AttributeSeries attribute_series(const std::vector<swf::Record>& records, Attribute attribute) {
  AttributeSeries out;
  std::vector<size_t> order;
  order.reserve(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].submit_time < 0) ++out.unknown_submit;
    else order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return records[a].submit_time < records[b].submit_time; });
  out.times.reserve(order.size());
  out.values.reserve(order.size());
  int64_t previous_submit = -1;
  for (const size_t i : order) {
    const swf::Record& r = records[i];
    std::optional<double> v;
    switch (attribute) {
      case Attribute::kRuntime:
        if (r.run_time >= 0) v = r.run_time;
        break;
      case Attribute::kProcs:
        if (trace::job_size(r) > 0) v = trace::job_size(r);
        break;
      case Attribute::kCpu:
        if (r.run_time >= 0 && trace::job_size(r) > 0)
          v = static_cast<double>(r.run_time) * static_cast<double>(trace::job_size(r));
        break;
      case Attribute::kEstimate:
        if (trace::job_estimate(r) >= 0) {
          v = trace::job_estimate(r);
          if (!trace::has_estimate(r)) ++out.estimate_from_runtime;
        }
        break;
      case Attribute::kInterarrival:
        if (previous_submit >= 0) v = static_cast<double>(r.submit_time - previous_submit);
        break;
    }
    previous_submit = r.submit_time;
    if (!v) {
      ++out.unknown_value;
      continue;
    }
    out.times.push_back(r.submit_time);
    out.values.push_back(*v);
  }
  return out;
}

}  // namespace schedlab::analysis
