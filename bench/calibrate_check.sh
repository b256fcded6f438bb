#!/usr/bin/env bash
# Runs every calibration probe once in default mode (pinned, warmed up, ~15 s in all) and prints
# the measured host costs. Usage: bench/calibrate_check.sh <test binary containing
# tests/calibrate_test.cpp>, e.g. build/tests/unit_tests.
set -euo pipefail
bin=${1:?usage: $0 <test binary built with tests/calibrate_test.cpp>}
exec "$bin" --gtest_also_run_disabled_tests --gtest_filter='CalibrateReport.*' --gtest_brief=0
