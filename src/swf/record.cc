#include "schedlab/swf/record.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace schedlab::swf {

namespace {

// Rounding half away from zero, as the reader rounds ("3.5" -> 4, "-2.5" -> -3).
int32_t round_to_int(double v) { return static_cast<int32_t>(std::round(v)); }

}  // namespace

Record::Record(const Record& other) {
  *this = other;
}

Record& Record::operator=(const Record& other) {
  if (this == &other) return *this;
  for (int n = 1; n <= kFieldCount; ++n) field(n) = other.field(n);
  if (other.fractions_ && !other.fractions_->empty()) {
    if (fractions_) {
      *fractions_ = *other.fractions_;
    } else {
      fractions_ = std::make_unique<std::vector<Fraction>>(*other.fractions_);
    }
  } else if (fractions_) {
    fractions_->clear();  // keep the allocation: a Record reused by a reader stays allocation-free
  }
  return *this;
}

const Record::Fraction* Record::find(int number) const {
  if (!fractions_) return nullptr;
  for (const Fraction& f : *fractions_) {
    // Current only while the integer member still holds the fraction's rounding.
    if (f.number == number) return field(number) == round_to_int(f.value) ? &f : nullptr;
  }
  return nullptr;
}

double Record::value(int number) const {
  const Fraction* f = find(number);
  return f ? f->value : static_cast<double>(field(number));
}

bool Record::fractional(int number) const { return find(number) != nullptr; }

bool Record::has_fractions() const {
  if (!fractions_) return false;
  return std::any_of(fractions_->begin(), fractions_->end(),
                     [this](const Fraction& f) { return find(f.number) != nullptr; });
}

void Record::set_value(int number, double v) {
  field(number) = round_to_int(v);
  if (fractions_) {
    std::erase_if(*fractions_, [number](const Fraction& f) { return f.number == number; });
  }
  if (v == std::trunc(v)) return;
  if (!fractions_) fractions_ = std::make_unique<std::vector<Fraction>>();
  fractions_->push_back({number, v});
}

void Record::append_text(std::string& out, int number) const {
  // Fixed notation of a value below 2^31 in magnitude: at most 10 integer digits, and a fraction of at most
  // ~330 digits for the tiniest double; 512 bytes hold any of them.
  char buf[512];
  const Fraction* f = find(number);
  const auto [ptr, ec] = f ? std::to_chars(buf, buf + sizeof buf, f->value, std::chars_format::fixed)
                           : std::to_chars(buf, buf + sizeof buf, field(number));
  (void)ec;
  out.append(buf, ptr);
}

bool operator==(const Record& a, const Record& b) {
  for (int n = 1; n <= kFieldCount; ++n) {
    if (a.field(n) != b.field(n) || a.value(n) != b.value(n)) return false;
  }
  return true;
}

}  // namespace schedlab::swf
