#!/usr/bin/env bash
# Installs the Debian packages rdmasim needs to build and test. Idempotent: quiet and quick
# when everything is already installed; runs apt-get only for what is missing.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config
  libcli11-dev          # command-line parsing
  nlohmann-json3-dev    # JSON output
  libtomlplusplus-dev   # host profile files (TOML)
  libgtest-dev libgmock-dev  # unit tests
  libbenchmark-dev      # bench/
  tshark                # tests/cli_test.sh decodes the --pcap capture
  clang libclang-rt-14-dev  # libFuzzer targets in fuzz/ (make fuzz-smoke)
  libcpp-httplib-dev    # rdmasim serve: the dashboard's HTTP server
  chromium              # the browser test drives headless chromium (tests/browser)
  python3               # scripts/check_layers.py (ctest layering), scripts/doc_examples.py
  curl                  # docs/api.md's examples talk to rdmasim serve
  time                  # bench/summary.sh (make bench): wall time and peak RSS of each run
  openmpi-bin libopenmpi-dev  # mpirun -np N rdmasim sweep (optional in the build; tested when found)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# nodejs + npm for `npm ci` (ECharts, compiled into rdmasim serve; playwright-core for the browser
# test): Debian's packages unless a node and npm are already on the PATH (e.g. NodeSource's nodejs).
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)

# ECharts and playwright-core from npm, pinned in package-lock.json (only when missing or stale).
npm_ci() {
  cd "$(dirname "$0")/.."
  if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
    echo "install-deps: npm ci" >&2
    npm ci --no-audit --no-fund --loglevel=error >/dev/null
  fi
}
if ((${#missing[@]} == 0)); then
  npm_ci
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# wireshark-common asks whether non-root users may capture: answer no, without a prompt.
if [[ " ${missing[*]} " == *" tshark "* ]]; then
  echo "wireshark-common wireshark-common/install-setuid boolean false" | $sudo debconf-set-selections
fi
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
npm_ci
