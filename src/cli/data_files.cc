#include "cli/data_files.h"

#include <filesystem>
#include <stdexcept>
#include <vector>

#include <fmt/core.h>

namespace schedlab::cli {

std::string data_file(std::string_view name) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec)
    throw std::invalid_argument(fmt::format("cannot find {}: /proc/self/exe is unreadable ({})", name, ec.message()));
  // Installed (PREFIX/bin → PREFIX/share/schedlab) first, then the build tree (build → build/share/schedlab).
  const std::vector<fs::path> places = {exe.parent_path().parent_path() / "share" / "schedlab",
                                        exe.parent_path() / "share" / "schedlab"};
  for (const fs::path& dir : places)
    if (fs::is_regular_file(dir / name, ec)) return (dir / name).string();
  throw std::invalid_argument(fmt::format(
      "{} is missing: schedlab ships it in {} (installed) or {} (build tree); install again (cmake --install) or "
      "rebuild (make)",
      name, places[0].lexically_normal().string(), places[1].string()));
}

}  // namespace schedlab::cli
