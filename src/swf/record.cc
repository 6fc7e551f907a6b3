#include "schedlab/swf/record.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace schedlab::swf {

namespace {

// Rounding half away from zero, as the reader rounds ("3.5" -> 4, "-2.5" -> -3).
int32_t round_to_int(double v) { return static_cast<int32_t>(std::round(v)); }

}  // namespace

size_t Record::count(const Fraction* f) {
  size_t n = 0;
  while (f[n].number != 0) ++n;
  return n;
}

Record::Record(const Record& other) : RecordFields(other) {
  if (other.fractions_) {
    const size_t n = count(other.fractions_.get()) + 1;
    fractions_ = std::make_unique<Fraction[]>(n);
    std::copy_n(other.fractions_.get(), n, fractions_.get());
  }
}

Record& Record::operator=(const Record& other) {
  if (this != &other) *this = Record(other);
  return *this;
}

const Record::Fraction* Record::find(int number) const {
  if (!fractions_) return nullptr;
  for (const Fraction* f = fractions_.get(); f->number != 0; ++f) {
    // Current only while the integer member still holds the fraction's rounding.
    if (f->number == number) return field(number) == round_to_int(f->value) ? f : nullptr;
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
  for (const Fraction* f = fractions_.get(); f->number != 0; ++f)
    if (find(f->number) != nullptr) return true;
  return false;
}

void Record::set_value(int number, double v) {
  field(number) = round_to_int(v);
  const bool keep = v != std::trunc(v);
  const size_t n = fractions_ ? count(fractions_.get()) : 0;
  if (n == 0 && !keep) {
    fractions_.reset();
    return;
  }
  // Rebuild: the others, then this one when it has a fraction, then the terminator (at most 19 entries).
  auto next = std::make_unique<Fraction[]>(n + 2);
  size_t k = 0;
  for (size_t i = 0; i < n; ++i)
    if (fractions_[i].number != number) next[k++] = fractions_[i];
  if (keep) next[k++] = {number, v};
  next[k] = {0, 0.0};
  if (k == 0) {
    fractions_.reset();
  } else {
    fractions_ = std::move(next);
  }
}

void Record::adopt_fractions(const Fraction* f, size_t n) {
  if (n == 0) {
    fractions_.reset();
    return;
  }
  fractions_ = std::make_unique_for_overwrite<Fraction[]>(n + 1);
  std::copy_n(f, n, fractions_.get());
  fractions_[n] = {0, 0.0};
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
