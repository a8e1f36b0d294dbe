#!/usr/bin/env bash
# `vrambench report` and `index --html` on good and bad input: a page per call, exit 2
# and the file named for every bad one, nothing written where it was refused.
#   report_cli_test.sh VRAMBENCH_EXE SOURCE_DIR
set -u
exe=$1
source=$2
fixture=$source/tests/report/published/host-quick/quick.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
    echo "FAILED: $*"
    failures=$((failures + 1))
}
# expect_refusal DESCRIPTION TEXT-IN-STDERR ARGS...: exits 2, says TEXT, writes no page.
expect_refusal() {
    local what=$1 text=$2
    shift 2
    "$exe" report "$@" >"$work/stdout" 2>"$work/stderr"
    local status=$?
    [[ $status -eq 2 ]] || fail "$what: exit $status, not 2"
    grep -qF -- "$text" "$work/stderr" || fail "$what: stderr lacks '$text': $(cat "$work/stderr")"
    [[ ! -e $work/out.html ]] || fail "$what: a page was written"
}

expect_refusal "no result set" "files is required"
expect_refusal "a missing file" "$work/missing.json" "$work/missing.json" -o "$work/out.html"
echo '{"not": "a result set"}' >"$work/other.json"
expect_refusal "a file that is not a result set" "other.json: not a vrambench result set" "$work/other.json" \
    -o "$work/out.html"
echo '{"schema_version": 1, "devices": "none"}' >"$work/invalid.json"
expect_refusal "a result set that breaks the schema" "invalid.json: does not match schema v1" "$fixture" \
    "$work/invalid.json" -o "$work/out.html"
echo 'not json' >"$work/broken.json"
expect_refusal "a file that is not JSON" "broken.json" "$work/broken.json" -o "$work/out.html"
mkdir "$work/folder.html"
expect_refusal "an output that is a folder" "is a directory" "$fixture" -o "$work/folder.html"
cp "$fixture" "$work/set.json"
expect_refusal "an output that is the input" "is one of the result sets" "$work/set.json" -o "$work/set.json"
cmp -s "$fixture" "$work/set.json" || fail "the refused output overwrote the result set"
expect_refusal "an output in a missing folder" "does not exist" "$fixture" -o "$work/nowhere/out.html"

# Good input: to a file, and to stdout.
"$exe" report "$fixture" -o "$work/out.html" 2>"$work/stderr" || fail "report of the fixture: $(cat "$work/stderr")"
grep -q 'id="report-data"' "$work/out.html" || fail "the page lacks its data"
"$exe" report "$fixture" >"$work/stdout.html" 2>/dev/null || fail "report to stdout"
cmp -s "$work/out.html" "$work/stdout.html" || fail "the page differs between a file and stdout"

# index --html: the web page links each set's report, and the report is written beside it.
mkdir -p "$work/published/one"
cp "$fixture" "$work/published/one/set.json"
"$exe" index "$work/published" -o "$work/published/INDEX.md" --html "$work/published/index.html" \
    2>"$work/stderr" || fail "index --html: $(cat "$work/stderr")"
[[ -f $work/published/one/set.html ]] || fail "index --html wrote no report beside the set"
grep -qF 'href="one/set.html"' "$work/published/index.html" || fail "the index page does not link the report"
grep -qF 'href="one/set.json"' "$work/published/index.html" || fail "the index page does not link the set"

if [[ $failures -ne 0 ]]; then
    echo "$failures failures"
    exit 1
fi
echo "report refuses every bad input with exit 2 and writes pages for good ones"
