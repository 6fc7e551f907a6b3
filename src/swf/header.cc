// Parsing of SWF header lines into the typed fields of Header. See header.h for the rules.
#include "schedlab/swf/header.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <string_view>

namespace schedlab::swf {
namespace {

constexpr bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

enum class Key {
  kVersion, kComputer, kInstallation, kAcknowledge, kInformation, kConversion, kMaxJobs, kMaxRecords,
  kPreemption, kUnixStartTime, kTimeZone, kTimeZoneString, kStartTime, kEndTime, kMaxNodes, kMaxProcs,
  kMaxRuntime, kMaxMemory, kAllowOveruse, kMaxQueues, kQueue, kMaxPartitions, kPartition, kNote, kNone
};

struct KeyName {
  std::string_view name;
  Key key;
};
constexpr std::array<KeyName, 24> kKeys = {{
    {"Version", Key::kVersion},         {"Computer", Key::kComputer},
    {"Installation", Key::kInstallation}, {"Acknowledge", Key::kAcknowledge},
    {"Information", Key::kInformation}, {"Conversion", Key::kConversion},
    {"MaxJobs", Key::kMaxJobs},         {"MaxRecords", Key::kMaxRecords},
    {"Preemption", Key::kPreemption},   {"UnixStartTime", Key::kUnixStartTime},
    {"TimeZone", Key::kTimeZone},       {"TimeZoneString", Key::kTimeZoneString},
    {"StartTime", Key::kStartTime},     {"EndTime", Key::kEndTime},
    {"MaxNodes", Key::kMaxNodes},       {"MaxProcs", Key::kMaxProcs},
    {"MaxRuntime", Key::kMaxRuntime},   {"MaxMemory", Key::kMaxMemory},
    {"AllowOveruse", Key::kAllowOveruse}, {"MaxQueues", Key::kMaxQueues},
    {"Queue", Key::kQueue},             {"MaxPartitions", Key::kMaxPartitions},
    {"Partition", Key::kPartition},     {"Note", Key::kNote},
}};

Key find_key(std::string_view name) {
  for (const auto& k : kKeys)
    if (iequals(k.name, name)) return k.key;
  return Key::kNone;
}

std::string_view key_name(Key key) {
  for (const auto& k : kKeys)
    if (k.key == key) return k.name;
  return {};
}

// "N/A", "unknown", "none", "-" and "" mean "not given" (no value, no problem).
bool means_unknown(std::string_view v) {
  return v.empty() || v == "-" || iequals(v, "N/A") || iequals(v, "NA") || iequals(v, "unknown") ||
         iequals(v, "none");
}

enum class IntResult { kValue, kUnknown, kBad };

// Leading signed integer, optionally followed by whitespace and free text; "N/A"-like words mean absent.
// Used as is for UnixStartTime, which may be negative.
IntResult parse_signed(std::string_view v, int64_t& out) {
  if (means_unknown(v)) return IntResult::kUnknown;
  const char* first = v.data();
  const char* last = v.data() + v.size();
  if (first != last && *first == '+') ++first;
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || (ptr != last && !is_blank(*ptr))) return IntResult::kBad;
  out = value;
  return IntResult::kValue;
}

// Leading integer, optionally followed by whitespace and free text ("338 (batch partition; 512 total)").
// -1 is SWF's "unknown" and gives no value; other negative counts are malformed.
IntResult parse_int(std::string_view v, int64_t& out) {
  int64_t value = 0;
  const IntResult r = parse_signed(v, value);
  if (r != IntResult::kValue) return r;
  if (value == -1) return IntResult::kUnknown;
  if (value < 0) return IntResult::kBad;
  out = value;
  return IntResult::kValue;
}

IntResult parse_bool(std::string_view v, bool& out) {
  if (means_unknown(v)) return IntResult::kUnknown;
  if (iequals(v, "yes") || iequals(v, "true") || iequals(v, "y") || v == "1") {
    out = true;
    return IntResult::kValue;
  }
  if (iequals(v, "no") || iequals(v, "false") || iequals(v, "n") || v == "0") {
    out = false;
    return IntResult::kValue;
  }
  return IntResult::kBad;
}

bool is_key_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_text_key(Key key) {
  switch (key) {
    case Key::kVersion: case Key::kComputer: case Key::kInstallation: case Key::kAcknowledge:
    case Key::kInformation: case Key::kConversion: case Key::kQueue: case Key::kPartition: case Key::kNote:
      return true;
    default:
      return false;
  }
}

// The value a continuation line extends: the last value of a text key.
std::string* text_value(Header& h, Key key) {
  auto last = [](std::vector<std::string>& v) { return v.empty() ? nullptr : &v.back(); };
  auto opt = [](std::optional<std::string>& o) { return o ? &*o : nullptr; };
  switch (key) {
    case Key::kVersion: return opt(h.version);
    case Key::kComputer: return opt(h.computer);
    case Key::kInstallation: return opt(h.installation);
    case Key::kAcknowledge: return last(h.acknowledge);
    case Key::kInformation: return last(h.information);
    case Key::kConversion: return last(h.conversion);
    case Key::kQueue: return last(h.queues);
    case Key::kPartition: return last(h.partitions);
    case Key::kNote: return last(h.notes);
    default: return nullptr;
  }
}

}  // namespace

void Header::add_line(std::string line, int64_t line_number) {
  std::string_view body = line;
  // Position after the ';' (a line may have leading blanks before it).
  {
    std::string_view t = body;
    while (!t.empty() && is_blank(t.front())) t.remove_prefix(1);
    if (!t.empty() && t.front() == ';') t.remove_prefix(1);
    body = t;
  }
  const std::string_view content = trim(body);

  // Try "Key: value" with a standard key.
  Key key = Key::kNone;
  std::string_view value;
  {
    size_t i = 0;
    while (i < content.size() && is_key_char(content[i])) ++i;
    const std::string_view name = content.substr(0, i);
    size_t j = i;
    while (j < content.size() && is_blank(content[j])) ++j;
    if (!name.empty() && j < content.size() && content[j] == ':') {
      key = find_key(name);
      value = trim(content.substr(j + 1));
    }
  }

  auto problem = [&](std::string_view what) {
    std::string p = "line " + std::to_string(line_number) + ": " + std::string(key_name(key)) + ": cannot parse '" +
                    std::string(value) + "' as " + std::string(what);
    problems.push_back(std::move(p));
  };
  auto set_int = [&](std::optional<int64_t>& field, bool allow_negative = false) {
    int64_t v = 0;
    const IntResult r = allow_negative ? parse_signed(value, v) : parse_int(value, v);
    if (r == IntResult::kValue) field = v;
    else if (r == IntResult::kBad) problem(allow_negative ? "an integer" : "a non-negative integer");
  };
  auto set_text = [&](std::optional<std::string>& field) { field = std::string(value); };

  switch (key) {
    case Key::kVersion: set_text(version); break;
    case Key::kComputer: set_text(computer); break;
    case Key::kInstallation: set_text(installation); break;
    case Key::kAcknowledge: acknowledge.emplace_back(value); break;
    case Key::kInformation: information.emplace_back(value); break;
    case Key::kConversion: conversion.emplace_back(value); break;
    case Key::kMaxJobs: set_int(max_jobs); break;
    case Key::kMaxRecords: set_int(max_records); break;
    case Key::kPreemption: set_text(preemption); break;
    case Key::kUnixStartTime: set_int(unix_start_time, true); break;
    case Key::kTimeZone: set_text(time_zone); break;
    case Key::kTimeZoneString: set_text(time_zone_string); break;
    case Key::kStartTime: set_text(start_time); break;
    case Key::kEndTime: set_text(end_time); break;
    case Key::kMaxNodes: set_int(max_nodes); break;
    case Key::kMaxProcs: set_int(max_procs); break;
    case Key::kMaxRuntime: set_int(max_runtime); break;
    case Key::kMaxMemory: set_int(max_memory); break;
    case Key::kAllowOveruse: {
      bool b = false;
      const IntResult r = parse_bool(value, b);
      if (r == IntResult::kValue) allow_overuse = b;
      else if (r == IntResult::kBad) problem("Yes/No");
      break;
    }
    case Key::kMaxQueues: set_int(max_queues); break;
    case Key::kQueue: queues.emplace_back(value); break;
    case Key::kMaxPartitions: set_int(max_partitions); break;
    case Key::kPartition: partitions.emplace_back(value); break;
    case Key::kNote: notes.emplace_back(value); break;
    case Key::kNone: break;
  }

  if (key != Key::kNone) {
    continuation_key = is_text_key(key) ? static_cast<int>(key) : -1;
  } else {
    // A continuation line: indented by a tab or at least two spaces after ';', not a "Key:" line, and
    // directly after a line of a text key (or another continuation): appended to that value with '\n'.
    const bool indented =
        body.size() >= 2 && (body[0] == '\t' || (body[0] == ' ' && (body[1] == ' ' || body[1] == '\t')));
    std::string* target = nullptr;
    if (indented && !content.empty() && continuation_key >= 0) target = text_value(*this, static_cast<Key>(continuation_key));
    if (target != nullptr) {
      target->append("\n");
      target->append(content);
    } else {
      continuation_key = -1;
    }
  }
  lines.push_back(std::move(line));
}

void Header::add_note(const std::string& text) { add_line("; Note: " + text, static_cast<int64_t>(lines.size()) + 1); }

}  // namespace schedlab::swf
