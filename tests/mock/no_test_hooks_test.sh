#!/bin/sh
# The shipped host module names no VRAMBENCH_TEST_ variable; the test-only host-faults
# module does, which shows the search would find them were they there.
# Usage: no_test_hooks_test.sh SHIPPED_HOST_MODULE HOST_FAULTS_MODULE
set -eu
host=$1
faults=$2
for file in "$host" "$faults"; do
  [ -f "$file" ] || { echo "no module at $file" >&2; exit 1; }
done
if strings "$host" | grep VRAMBENCH_TEST; then
  echo "$host carries the test-only hooks above" >&2
  exit 1
fi
if ! strings "$faults" | grep -q VRAMBENCH_TEST_FAIL_ALLOC_AFTER; then
  echo "$faults does not name VRAMBENCH_TEST_FAIL_ALLOC_AFTER: the search finds nothing even where it should" >&2
  exit 1
fi
echo "$host names no VRAMBENCH_TEST_ variable"
