#!/usr/bin/env bash
# scripts/peer-ratios on the published H200 set and a BabelStream table in the form its
# --csv --gigabytes prints (the figures in the table are made up for the test): each
# pair's ratio is vrambench's figure over BabelStream's, units are read from the
# header, and bad or incomplete input is refused with its own status.
#   peer_ratios_test.sh SOURCE_DIR
set -u
root=$1
command -v python3 >/dev/null 2>&1 || { echo "no python3 here"; exit 77; }
source "$(dirname "${BASH_SOURCE[0]}")/expect.sh"
set_file=$root/results/nvidia-h200-cuda/standard.json
cat >"$work/gb.csv" <<'CSV'
function,num_times,n_elements,sizeof,max_GB_per_sec,min_runtime,max_runtime,avg_runtime
Copy,100,33554432,8,4000.0,0.000134,0.000140,0.000136
Mul,100,33554432,8,3990.0,0.000135,0.000141,0.000137
Add,100,33554432,8,4100.0,0.000196,0.000201,0.000198
Triad,100,33554432,8,4150.0,0.000194,0.000200,0.000196
Dot,100,33554432,8,4480.0,0.000120,0.000130,0.000125
CSV
python3 "$root/scripts/peer-ratios" --set "$set_file" --babelstream "$work/gb.csv" -o "$work/r.json" >"$work/out" 2>"$work/err"
status=$?
cat "$work/out" "$work/err"
expect "forms every pair (exit 0)" test "$status" -eq 0
expect "prints the copy pair" grep -q "^bandwidth.stream copy .*BabelStream Copy" "$work/out"
check_ratios() { # file, bytes per BabelStream unit / 1e9
    python3 - "$set_file" "$1" "$2" <<'PY'
import json, sys
doc, ratios, scale = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), float(sys.argv[3])
mine = {r["parameters"]["operation"]: r["value"] for r in doc["results"] if r["probe"] == "bandwidth.stream"}
peer = {"Copy": 4000.0, "Triad": 4150.0, "Dot": 4480.0}
pairs = {p["peer"]: p for p in ratios["pairs"]}
assert [p["vrambench"] for p in ratios["pairs"]] == ["bandwidth.stream copy", "bandwidth.stream triad", "bandwidth.stream read"], ratios
for op, name in (("copy", "Copy"), ("triad", "Triad"), ("read", "Dot")):
    p = pairs["BabelStream " + name]
    assert abs(p["peer_gb_per_s"] - peer[name] * scale) < 1e-9, p
    assert abs(p["ratio"] - mine[op] / (peer[name] * scale)) < 1e-12, p
    assert p["peer_array_bytes"] == 33554432 * 8 == p["vrambench_array_bytes"], p
# The mean beside the best: bytes moved over the mean run.
assert abs(pairs["BabelStream Copy"]["peer_mean_gb_per_s"] - 2 * 8 * 33554432 / 0.000136 / 1e9) < 1e-6
assert ratios["device"] == "cuda:0" and ratios["device_name"] == "NVIDIA H200"
PY
}
expect "each ratio is vrambench's figure over BabelStream's" check_ratios "$work/r.json" 1

# BabelStream's default unit, MB: read as such.
sed 's/max_GB_per_sec/max_MB_per_sec/; s/,4000.0,/,4000000.0,/; s/,4150.0,/,4150000.0,/; s/,4480.0,/,4480000.0,/' \
    "$work/gb.csv" >"$work/mb.csv"
python3 "$root/scripts/peer-ratios" --set "$set_file" --babelstream "$work/mb.csv" -o "$work/mb.json" >/dev/null
expect "reads MB/s as BabelStream's default unit" check_ratios "$work/mb.json" 1

grep -v '^Dot,' "$work/gb.csv" >"$work/nodot.csv"
python3 "$root/scripts/peer-ratios" --set "$set_file" --babelstream "$work/nodot.csv" >/dev/null 2>"$work/err"
expect "a missing Dot row is exit 3" test $? -eq 3
expect "naming it" grep -q "no figure for BabelStream's Dot" "$work/err"

echo "BabelStream" >"$work/text.csv"
python3 "$root/scripts/peer-ratios" --set "$set_file" --babelstream "$work/text.csv" >/dev/null 2>"$work/err"
expect "output without the CSV table is exit 2" test $? -eq 2
expect "saying to run it with --csv" grep -q "run it with --csv" "$work/err"

echo '{"devices": [' >"$work/cut.json"
python3 "$root/scripts/peer-ratios" --set "$work/cut.json" --babelstream "$work/gb.csv" >/dev/null 2>"$work/err"
expect "a broken set is exit 2" test $? -eq 2
python3 "$root/scripts/peer-ratios" --babelstream "$work/gb.csv" >/dev/null 2>&1
expect "no set named is exit 2" test $? -eq 2

((failures == 0)) && echo "ok" || exit 1
