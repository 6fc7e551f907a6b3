// The two kinds of error schedlab reports. Bad input — a malformed file, an unknown name, a parameter out
// of range — is std::invalid_argument or std::runtime_error (or a subclass: swf::ReadError, ...), with a
// message for the user naming the file, line and field or the parameter. A broken invariant — a scheduler
// over-committing the machine under --check, a plug-in reading a parameter it did not declare — is a bug in
// schedlab: InternalError, or any other std::logic_error that is not one of the standard "bad argument"
// kinds. The CLI exits 1 for the first and 70 (EX_SOFTWARE) with "internal error" for the second.
#pragma once

#include <exception>
#include <stdexcept>

namespace schedlab::base {

class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// True when `e` reports a bug in schedlab rather than bad input.
inline bool is_internal_error(const std::exception& e) {
  if (dynamic_cast<const InternalError*>(&e) != nullptr) return true;
  if (dynamic_cast<const std::logic_error*>(&e) == nullptr) return false;
  return dynamic_cast<const std::invalid_argument*>(&e) == nullptr &&
         dynamic_cast<const std::out_of_range*>(&e) == nullptr &&
         dynamic_cast<const std::domain_error*>(&e) == nullptr && dynamic_cast<const std::length_error*>(&e) == nullptr;
}

}  // namespace schedlab::base
