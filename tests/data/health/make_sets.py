#!/usr/bin/env python3
"""Writes the hand-made H200 result sets of tests/data/health from the published
zen5 set's lavapipe results: the device becomes an H200 seen through CUDA and each
figure is scaled to the value named here, so the tests judge figures whose values
are chosen, not measured. Run from the repository root; the output is committed."""
import copy
import json
import os

SOURCE = "results/ci-vm-epyc-zen5-2vcpu/standard.json"
OUT = "tests/data/health"
MIB64 = 64 << 20

# A healthy H200's figures (GB/s): 86-90 % of its 4800 GB/s datasheet peak.
STREAM = {"read": 4300, "write": 4200, "copy": 4100, "scale": 4100, "add": 4150, "triad": 4150, "dot": 4250}
TRANSFER = {"device-to-device": 1800, "host-to-device pinned": 53}


def h200_device(address):
    return {
        "id": "cuda:0", "backend": "cuda", "index": 0, "key": "pci:" + address, "type": "discrete-gpu",
        "name": "NVIDIA H200", "vendor": "NVIDIA", "api": "CUDA", "api_version": "12.4",
        "driver_version": "550.54.15",
        "pci": {"vendor_id": 0x10de, "device_id": 0x2335, "address": address},
        "uuid": "6a1b2c3d-0000-4000-8000-" + address.replace(":", "").replace(".", "")[-12:].rjust(12, "0"),
        "total_memory_bytes": 150754820096, "free_memory_bytes": 150000000000,
        "memory_bus_width_bits": 6144, "memory_clock_khz": 3201000, "compute_units": 132,
        "core_clock_khz": 1980000, "peak_bandwidth_gbps": 4800.0,
        "peak": {"card": "NVIDIA H200 SXM 141GB", "convention": "datasheet", "datasheet_gb_per_s": 4800.0,
                 "disagreement": False, "gb_per_s": 4800.0, "note": "the device table's entry",
                 "partitioned": False, "runtime_clock_gb_per_s": 4917.0, "source": "datasheet"},
        "last_level_cache": {"bytes": 52428800, "detail": "the L2 the API reports", "source": "api"},
        "caches": [{"bytes": 52428800, "kind": "unified", "level": 2, "shared_by": None}],
        "heaps": [{"budget_bytes": None, "bytes": 150754820096, "flags": ["device-local"], "index": 0}],
        "memory_kinds": [{"flags": ["device-local", "device-access"], "heap": 0, "index": 0,
                          "max_allocation_bytes": None, "name": "device"}],
        "properties": {}, "unknown": {"uuid": "hand-made"},
    }


def scale_result(r, factor):
    r = copy.deepcopy(r)
    for key in ("value",):
        if isinstance(r.get(key), (int, float)):
            r[key] *= factor
    r["samples"] = [s * factor for s in r.get("samples", [])]
    st = r.get("statistics")
    if st:
        for k in ("min", "median", "mean", "max", "stddev"):
            st[k] *= factor
    curve = r.get("extra", {}).get("curve")
    if curve:
        for p in curve["points"]:
            p["value"] *= factor
            p["samples"] = [s * factor for s in p.get("samples", [])]
            for k in ("min", "median", "mean", "max", "stddev"):
                p["statistics"][k] *= factor
    return r


def make_set(run_id, host, address, stream_factor=1.0, transfer_factor=1.0, link=None, flip=False):
    src = json.load(open(SOURCE))
    doc = {k: copy.deepcopy(src[k]) for k in ("schema_version", "tool", "backends")}
    doc["host"] = dict(src["host"], hostname=host)
    doc["run"] = dict(src["run"], id=run_id, suite="quick",
                      command_line=["vrambench", "run", "--suite", "quick", "--device", "cuda:0"])
    device = h200_device(address)
    if link is not None:
        # The description's reading is taken idle; the one that counts is the transfer's.
        device["link"] = dict(link, taken="at description, idle")
    doc["devices"] = [device]
    results = []
    for r in src["results"]:
        if r["device"] != "vulkan:0":
            continue
        probe = r["probe"]
        if probe == "bandwidth.stream":
            target = STREAM[r["parameters"]["operation"]] * stream_factor
            out = scale_result(r, target / r["value"])
        elif probe == "bandwidth.transfer":
            point = next(p for p in r["extra"]["curve"]["points"] if p["transfer_bytes"] == MIB64)
            for direction, value in TRANSFER.items():
                out = scale_result(r, value * transfer_factor / point["value"])
                out["parameters"]["direction"] = direction
                out["backend"], out["device"] = "cuda", "cuda:0"
                if link is not None and direction.startswith("host-to-device"):
                    # As the runner records it: read by every sample inside the timed runs.
                    out["link"] = dict(link, taken="during the timed runs (10 readings)")
                results.append(out)
            continue
        elif probe in ("integrity.pattern", "pattern.gather"):
            out = copy.deepcopy(r)
        else:
            continue
        out["backend"], out["device"] = "cuda", "cuda:0"
        params = out["parameters"]
        for k in ("memory_kind", "source_kind", "destination_kind"):
            if k in params:
                params[k] = "device"
        results.append(out)
    if flip:
        for r in results:
            if r["probe"] == "integrity.pattern" and r["parameters"]["operation"] == "walking-ones":
                r["value"] = 1.0
                r["status"] = "verification-failed"
                r["verification"] = {"status": "failed",
                                      "detail": "1 lane of 528482304 read back wrong; first at byte 0x1f3a0c: "
                                                "0x00000004, expected 0x00000000"}
        doc["run"]["status"] = "verification-failed"
    doc["results"] = results
    return doc


def write(path, doc):
    with open(os.path.join(OUT, path), "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")


def pcie(address, gts, width):
    """A PCIe link as the run records it (core/src/card/link.cpp), at Gen5 x16 maximum."""
    def speed(g, w):
        gen = {2.5: 1, 5.0: 2, 8.0: 3, 16.0: 4, 32.0: 5}[g]
        per_lane = g * (0.8 if gen <= 2 else 128 / 130) / 8
        return {"speed_gts": g, "generation": gen, "width": w, "rate_gb_per_s": per_lane * w}
    current, most = speed(gts, width), speed(32.0, 16)
    below = gts < 32.0 or width < 16
    return {"kind": "pcie", "address": address, "current": current, "max": most, "port": None,
            "supported_rate_gb_per_s": most["rate_gb_per_s"], "below_max": below,
            "finding": ("this x16 Gen5 card trained at x%d Gen%d" % (width, current["generation"])) if below else None,
            "taken": None, "unknown": {}}


DOWNGRADED = pcie("0000:19:00.0", 16.0, 16)
FULL = pcie("0000:19:00.0", 32.0, 16)

# Four healthy cards of one model, as a published folder would hold them.
for i, factor in enumerate([0.98, 1.0, 1.01, 1.03]):
    write(f"published/h200-{'abcd'[i]}.json",
          make_set(f"pub{i}00000000000", f"pub-{i}", f"0000:1{i}:00.0", stream_factor=factor))
write("healthy.json", make_set("healthy0000000", "node-ok", "0000:19:00.0", link=FULL))
write("slow.json", make_set("slow0000000000", "node-slow", "0000:19:00.0", stream_factor=0.5))
write("flipped.json", make_set("flipped0000000", "node-flip", "0000:19:00.0", flip=True))
write("link.json", make_set("link0000000000", "node-link", "0000:19:00.0", link=DOWNGRADED))
# A fleet of four nodes: one card slow, with its link trained at half speed.
for i in range(4):
    slow = i == 2
    write(f"fleet/node-{i + 1}-pci-0000-19-00-0.json",
          make_set(f"fleet{i}000000000", f"node-{i + 1}", "0000:19:00.0",
                   stream_factor=0.55 if slow else [0.99, 1.0, 0, 1.01][i],
                   link=DOWNGRADED if slow else FULL))
