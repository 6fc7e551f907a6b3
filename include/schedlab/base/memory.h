// A request whose working set cannot fit in the machine's memory (a million-fold bootstrap, two billion
// generated jobs) is refused before anything is allocated: a clear error naming the option, instead of
// "std::bad_alloc" or, with the kernel's overcommit, the OOM killer ending the process without a word.
#pragma once

#include <cstdint>
#include <string_view>

namespace schedlab::base {

// The machine's physical memory in bytes (0 when the system does not say).
uint64_t physical_memory_bytes();

// Throws std::invalid_argument("{what}: about 32.0 GB of memory needed, and this machine has 23.4 GB") when `bytes`
// exceed the physical memory. `what` names the request, e.g. "--bootstrap 2000000000 (16 bytes per round)".
void check_fits_in_memory(double bytes, std::string_view what);

}  // namespace schedlab::base
