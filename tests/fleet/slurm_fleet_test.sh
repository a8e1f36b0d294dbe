#!/usr/bin/env bash
# `vrambench fleet` under a real Slurm: munged, slurmctld and slurmd started here on
# localhost (keys, sockets, state and logs in a temporary folder, ports nobody else
# uses), one node of this machine's CPUs, the host backend and the quick suite. Checks
# the result set the node wrote, the comparison over it, and the comparison naming a
# slow card planted among copies of it. Every daemon started here is stopped on any
# exit. None of it is skipped: a machine without Slurm or munge fails, saying what to
# install, as scripts/setup does it.
# Usage: slurm_fleet_test.sh VRAMBENCH
set -euo pipefail
vrambench=$(readlink -f "$1")

for tool in munged mungekey slurmctld slurmd srun python3; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool is missing (scripts/setup installs slurm-wlm and munge)"; exit 1; }
done
[ "$(id -u)" -eq 0 ] || { echo "FAIL: the Slurm daemons are started as root (SlurmUser=root); run the tests as root"; exit 1; }
# slurmd (22.05) starts its cgroup plugin whatever the task plugin is, and stops without
# a cgroup file system: a chroot that bound /sys without its submounts has none.
[ -n "$(find /sys/fs/cgroup -mindepth 1 -maxdepth 1 -print -quit 2>/dev/null)" ] ||
  { echo "FAIL: /sys/fs/cgroup is empty or missing, and slurmd cannot start without it (in a chroot, mount --rbind /sys)"; exit 1; }

tmp=$(mktemp -d /tmp/vrambench-slurm.XXXXXX)
chmod 700 "$tmp"
pids=()
stop() {
  local status=$?
  # The Slurm daemons first, munged last: they still talk to it on the way down.
  local i pid
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    pid=${pids[i]}
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [ "$status" -ne 0 ]; then
    for log in "$tmp"/*.log; do [ -f "$log" ] && { echo "== $log"; tail -n 30 "$log"; }; done
  fi
  rm -rf "$tmp"
}
trap stop EXIT

fail() { echo "FAIL: $*"; exit 1; }

# Two free TCP ports, as the kernel hands them out, for slurmctld and slurmd.
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')

mungekey --create --keyfile="$tmp/munge.key" --bits=1024
chmod 400 "$tmp/munge.key"
munged --foreground --force --socket="$tmp/munge.socket" --key-file="$tmp/munge.key" \
  --pid-file="$tmp/munged.pid" --log-file="$tmp/munged.log" --seed-file="$tmp/munged.seed" >"$tmp/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$tmp/munge.socket" ] && break; sleep 0.1; done
[ -S "$tmp/munge.socket" ] || fail "munged did not open its socket"

node=$(hostname -s)
cpus=$(nproc)
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/fleet"
cat >"$tmp/slurm.conf" <<CONF
ClusterName=vrambench-test
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge.socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/linear
MpiDefault=none
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=vrambench Nodes=$node Default=YES MaxTime=10 State=UP
CONF
export SLURM_CONF="$tmp/slurm.conf"

slurmctld -D -i -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N "$node" -f "$SLURM_CONF" >"$tmp/slurmd.out" 2>&1 &
pids+=($!)
idle=
for _ in $(seq 100); do
  state=$(sinfo -h -N -o %t 2>/dev/null || true)
  case "$state" in idle*) idle=yes; break ;; esac
  sleep 0.2
done
[ -n "$idle" ] || fail "the node did not come up idle (sinfo: ${state:-no answer})"

# The fleet over one node: the host backend, the quick suite, its probes cut to the two
# the comparison reads (stream copy and triad, the chase), so the test stays well inside
# its minute on a busy two-core machine (the whole quick suite alone takes about 40 s).
set +e
"$vrambench" fleet --dir "$tmp/fleet" --srun-option=--nodes=1 --srun-option=--time=2 \
  -- --backend host --suite quick --probe 'bandwidth.stream' --probe 'latency.chase' >"$tmp/fleet.out" 2>"$tmp/fleet.err"
code=$?
set -e
cat "$tmp/fleet.err"
# A CPU host has no datasheet floor and no reference: its card is counted as not judged
# (exit 6), never taken for healthy.
[ "$code" -eq 6 ] || { cat "$tmp/fleet.out"; fail "vrambench fleet exited $code, not 6 (not judged)"; }
grep -q "not judged" "$tmp/fleet.out" "$tmp/fleet.err" || { cat "$tmp/fleet.out"; fail "the host card was not counted as not judged"; }

set_file="$tmp/fleet/${node}_host-0.json"
[ -f "$set_file" ] || { ls -la "$tmp/fleet"; fail "no result set named by host and card key ($set_file)"; }
[ -z "$(find "$tmp/fleet" -name '.partial-*')" ] || fail "the node's partial result set was left behind"
"$vrambench" validate "$set_file" >/dev/null || fail "the node's result set is not valid"
python3 - "$set_file" "$node" <<'PY' || fail "the node's result set lacks what the fleet compares"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["run"]["suite"] == "quick", d["run"]["suite"]
assert [x["id"] for x in d["devices"]] == ["host:0"], d["devices"]
ops = {r["parameters"].get("operation") for r in d["results"] if r["status"] == "ok"}
assert {"copy", "triad", "chase"} <= ops, ops
PY
grep -q "not judged: 1 card of this model" "$tmp/fleet.out" || { cat "$tmp/fleet.out"; fail "the comparison of one card did not say it cannot judge"; }

# The same set as four more hosts of the same model, one of them 30% slower at copy:
# the comparison names that one and exits 5.
python3 - "$set_file" "$tmp/fleet" <<'PY'
import copy, json, sys, os
d = json.load(open(sys.argv[1]))
for i, factor in enumerate((1.01, 0.99, 1.0, 0.7)):
    c = copy.deepcopy(d)
    c["host"]["hostname"] = f"twin{i}"
    for r in c["results"]:
        if r["parameters"].get("operation") == "copy" and r["value"] is not None:
            r["value"] *= factor
    json.dump(c, open(os.path.join(sys.argv[2], f"twin{i}_host-0.json"), "w"))
PY
set +e
"$vrambench" compare --fleet "$tmp/fleet" >"$tmp/compare.out" 2>"$tmp/compare.err"
code=$?
set -e
[ "$code" -eq 5 ] || { cat "$tmp/compare.out" "$tmp/compare.err"; fail "compare --fleet exited $code, not 5"; }
grep -q "outlier: twin3 host:0: copy" "$tmp/compare.err" || { cat "$tmp/compare.err"; fail "the slow twin was not named"; }
if grep -q "outlier: \(twin[012]\|$node\) " "$tmp/compare.err"; then cat "$tmp/compare.err"; fail "a card at its peers' figure was named"; fi
echo "PASS: one node under Slurm wrote ${node}_host-0.json; the planted slow card was named"
