// A request whose working set cannot fit in the memory this process may use (a billion-round bootstrap, two
// billion generated jobs) is refused before anything is allocated: a clear error naming the option, instead of
// "std::bad_alloc" or, with the kernel's overcommit, the OOM killer ending the process without a word.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace schedlab::base {

// The machine's physical memory in bytes (0 when the system does not say).
uint64_t physical_memory_bytes();

// The memory limit of the process's control group (a Slurm job's --mem, a container's limit): cgroup v2
// `memory.max` or v1 `memory.limit_in_bytes` under `root` (normally /sys/fs/cgroup), for the groups named in
// `proc_self_cgroup` (the text of /proc/self/cgroup). nullopt when there is none ("max", or v1's huge value).
std::optional<uint64_t> cgroup_memory_limit(std::string_view proc_self_cgroup, const std::string& root);

// What this process may use: the physical memory, or its control group's limit when that is lower (0: unknown).
uint64_t usable_memory_bytes();

// Throws std::invalid_argument("{what}: about 32.0 GB of memory needed, and this process may use 23.4 GB") when
// `bytes` exceed usable_memory_bytes(). `what` names the request, e.g. "--jobs 2000000000 (160 bytes per job)".
void check_fits_in_memory(double bytes, std::string_view what);

}  // namespace schedlab::base
