#!/usr/bin/env bash
# scripts/run, the README's main command, hands its arguments to `vrambench run`: the
# standard suite unless they name one, one --suite either way (vrambench refuses two).
# Run in a copy of the script beside stand-ins for setup, build and vrambench, which
# records what it was given.
#   run_script_test.sh SOURCE_DIR
set -euo pipefail
root=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/scripts" "$work/build/bin"
cp "$root/scripts/run" "$work/scripts/run"
printf '#!/bin/sh\n' >"$work/scripts/setup"
printf '#!/bin/sh\n' >"$work/scripts/build"
cat >"$work/build/bin/vrambench" <<'STUB'
#!/usr/bin/env bash
# Records a run's arguments, and writes the files run and report are asked for.
[ "$1" = run ] && printf '%s\n' "$@" >"$(dirname "$0")/run-args"
out=
while [ $# -gt 0 ]; do
  [ "$1" = -o ] && out=$2
  shift
done
[ -n "$out" ] && echo '{}' >"$out"
exit 0
STUB
chmod +x "$work/scripts/"* "$work/build/bin/vrambench"

failures=0
suites() { # arguments for scripts/run -> the --suite values vrambench run was given
  rm -f "$work/build/bin/run-args"
  "$work/scripts/run" "$@" >/dev/null
  python3 - "$work/build/bin/run-args" <<'PY'
import sys
args = open(sys.argv[1]).read().split("\n")[:-1]
found = [args[i + 1] for i, a in enumerate(args) if a == "--suite"] + [a.split("=", 1)[1] for a in args if a.startswith("--suite=")]
print(" ".join(found))
PY
}
expect() { # description, wanted, got
  if [ "$2" != "$3" ]; then
    echo "FAILED: $1: wanted '$2', got '$3'"
    failures=$((failures + 1))
  fi
}
expect "no arguments run the standard suite" "standard" "$(suites)"
expect "other arguments keep the standard suite" "standard" "$(suites --backend host)"
expect "--suite quick replaces it" "quick" "$(suites --suite quick --backend host)"
expect "--suite=full replaces it" "full" "$(suites --suite=full)"
ls "$work/out/"*.json >/dev/null || { echo "FAILED: no result set named in out/"; failures=$((failures + 1)); }
((failures == 0)) && echo ok || exit 1
