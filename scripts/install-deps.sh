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
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
((${#missing[@]} == 0)) && exit 0

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
