// How many worker threads a parallel computation (sweeps, compare, bootstrap, generators) starts: one rule for
// every `threads` option, so 0, a negative number or more threads than work items mean the same everywhere.
#pragma once

#include <cstddef>

namespace schedlab::base {

// `requested` threads (0 = every core the machine reports, at least 1), never more than `work_items` and never
// fewer than 1. A negative `requested` is std::invalid_argument("threads must be >= 0 (0 = every core), not -1").
unsigned worker_threads(long long requested, size_t work_items);

// The same error for a negative `requested`, for options checked before any work (or file) is started.
void check_threads(long long requested);

}  // namespace schedlab::base
