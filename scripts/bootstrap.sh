#!/usr/bin/env bash
# Installs the Debian packages schedlab needs, only those missing. Idempotent; works as root or via sudo.
set -euo pipefail
packages=(cmake ninja-build g++ clang libclang-rt-14-dev pkg-config
          libcli11-dev libfmt-dev nlohmann-json3-dev zlib1g-dev libdeflate-dev libeigen3-dev libboost-math-dev
          libgtest-dev libgmock-dev libbenchmark-dev libsqlite3-dev libtomlplusplus-dev python3
          tzdata  # the time zone database: a log's TimeZoneString and sacct's local times are read by it
          pybind11-dev python3-dev python3-numpy python3-pandas python3-pytest python3-matplotlib
          chromium chromium-driver python3-selenium  # the report's browser test
          slurm-wlm slurmdbd munge mariadb-server)  # the last four: a real Slurm for the tests (scripts/local-slurm.sh)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm (the report's JavaScript, from the registry at build time): Debian's package unless an npm is there already
# (a NodeSource nodejs brings its own, and Debian's npm would conflict with it).
command -v npm >/dev/null || missing+=(npm)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "bootstrap: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "bootstrap: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
