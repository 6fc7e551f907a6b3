// How many worker threads a parallel computation (sweeps, compare, bootstrap, generators) starts: one rule for
// every `threads` option, so 0, a negative number or more threads than work items mean the same everywhere.
#pragma once

#include <cstddef>
#include <functional>

namespace schedlab::base {

// `requested` threads (0 = every core the machine reports, at least 1), never more than `work_items` and never
// fewer than 1. A negative `requested` is std::invalid_argument("threads must be >= 0 (0 = every core), not -1").
unsigned worker_threads(long long requested, size_t work_items);

// The same error for a negative `requested`, for options checked before any work (or file) is started.
void check_threads(long long requested);

// Runs work(item, worker) for every item in [0, items) on `threads` threads (the calling thread is worker 0; the
// others 1..threads-1), each taking the next item when it is done, so uneven items keep every thread busy. A
// worker index lets the caller keep per-thread buffers. An exception thrown by an item stops the items not yet
// begun and is rethrown here once every thread has stopped (the first one thrown): it used to end the process
// (std::terminate) when it left a thread, e.g. a sweep's output that could not be written.
void parallel_for(unsigned threads, size_t items, const std::function<void(size_t item, unsigned worker)>& work);

}  // namespace schedlab::base
