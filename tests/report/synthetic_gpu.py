"""A second, synthetic "GPU" result set made from a real host set, so a report has two
cards to overlay and a device record with a bus width and memory clock to work a peak
from. Its name says what it is; its figures are the host's, scaled."""

import copy
import json

BANDWIDTH_SCALE = 20.0
LATENCY_SCALE = 0.25


def _scale_result(result, factor):
    for field in ("value",):
        if isinstance(result.get(field), (int, float)):
            result[field] = result[field] * factor
    if isinstance(result.get("samples"), list):
        result["samples"] = [s * factor for s in result["samples"]]
    stats = result.get("statistics")
    if isinstance(stats, dict):
        for key in ("min", "max", "mean", "median", "stddev"):
            if isinstance(stats.get(key), (int, float)):
                stats[key] = stats[key] * factor
    curve = (result.get("extra") or {}).get("curve")
    if isinstance(curve, dict):
        for point in curve.get("points", []):
            _scale_result(point, factor)
        for plateau in curve.get("plateaus", []):
            plateau["value"] = plateau["value"] * factor


def synthetic_gpu_set(host_set):
    gpu = copy.deepcopy(host_set)
    device = gpu["devices"][0]
    old_id = device["id"]
    device.update({
        "id": "cuda:0", "backend": "cuda", "index": 0, "key": "pci:0000:65:00.0",
        "name": "Synthetic GPU (test data: host figures scaled)", "vendor": "NVIDIA", "type": "discrete-gpu",
        "api": "CUDA", "memory_bus_width_bits": 384, "memory_clock_khz": 10501000,
        "peak_bandwidth_gbps": 1008.096,
    })
    device["pci"] = {"vendor_id": 0x10DE, "device_id": 0xFFFF, "address": "0000:65:00.0"}
    device["peak"] = {
        "card": None, "convention": "runtime-reported clock: 10501 MHz; CUDA memory of unknown type: the clock "
        "read as half the per-pin data rate, so each pin moves 2 x 10501 Mbit/s; peak = 2 x clock x 384 bits / 8",
        "datasheet_gb_per_s": None, "disagreement": False, "gb_per_s": 1008.096, "note": "synthetic test device",
        "partitioned": False, "runtime_clock_gb_per_s": 1008.096, "source": "runtime-clock"}
    for field in ("memory_bus_width_bits", "memory_clock_khz", "pci", "peak_bandwidth_gbps"):
        device.get("unknown", {}).pop(field, None)
    for result in gpu["results"]:
        if result.get("device") != old_id:
            continue
        result["device"] = "cuda:0"
        result["backend"] = "cuda"
        if result.get("unit") == "GB/s":
            _scale_result(result, BANDWIDTH_SCALE)
            if isinstance(result.get("value"), (int, float)):
                result["efficiency"] = result["value"] / 1008.096
        elif result.get("unit") == "ns":
            _scale_result(result, LATENCY_SCALE)
    gpu["run"]["command_line"] = ["synthetic_gpu.py", "(made from a host result set)"]
    return gpu


if __name__ == "__main__":
    import sys
    with open(sys.argv[1]) as source:
        host = json.load(source)
    with open(sys.argv[2], "w") as target:
        json.dump(synthetic_gpu_set(host), target, indent=1)
