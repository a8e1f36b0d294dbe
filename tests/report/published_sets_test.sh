#!/usr/bin/env bash
# Every result set published under a folder (results/ by default) is what results/README.md
# asks for: a valid result set, in a folder of its own with a provenance.txt that names the
# command, the date, the machine and the commit; and each gets a report. The fixture folder
# is checked the same way, so the test has something to check before anything is published.
#   published_sets_test.sh VRAMBENCH_EXE FOLDER...
set -u
exe=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
    echo "FAILED: $*"
    failures=$((failures + 1))
}
sets=0
for folder in "$@"; do
    copy=$work/$(basename "$folder")-$sets
    cp -r "$folder" "$copy"
    "$exe" index "$copy" -o "$copy/INDEX.md" --html "$copy/index.html" >/dev/null 2>"$work/stderr" ||
        fail "$folder: a file is not a valid result set: $(cat "$work/stderr")"
    while IFS= read -r -d '' set; do
        sets=$((sets + 1))
        relative=${set#"$copy"/}
        here=$(dirname "$set")
        [[ $here != "$copy" ]] || fail "$folder/$relative: not in a folder of its own"
        provenance=$here/provenance.txt
        if [[ ! -f $provenance ]]; then
            fail "$folder/$relative: no provenance.txt beside it"
            continue
        fi
        grep -q 'vrambench' "$provenance" || fail "$folder/$relative: provenance.txt names no vrambench command"
        grep -qE '[0-9]{4}-[0-9]{2}-[0-9]{2}' "$provenance" || fail "$folder/$relative: provenance.txt has no date"
        grep -qiE '^(machine|host):' "$provenance" || fail "$folder/$relative: provenance.txt names no machine"
        grep -qi 'commit' "$provenance" || fail "$folder/$relative: provenance.txt names no commit"
        [[ -s ${set%.json}.html ]] || fail "$folder/$relative: no report was written for it"
    done < <(find "$copy" -name '*.json' -not -path '*/schema/*' -print0)
done
[[ $sets -gt 0 ]] || fail "no result set found under $*"
if [[ $failures -ne 0 ]]; then
    echo "$failures failures"
    exit 1
fi
echo "$sets published result sets are valid, carry their provenance and have a report"
