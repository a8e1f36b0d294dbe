// Shared by the device checks: random inputs, moving lanes in and out of buffers, and
// describing what went wrong in the words a plugin author needs.
#pragma once

#include <vrambench/conformance/kit.hpp>
#include <vrambench/operation.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace vrb::conformance {

std::vector<uint32_t> random_lanes(uint64_t n, uint32_t seed);
void upload(Buffer &buffer, const std::vector<uint32_t> &lanes, uint64_t offset = 0);
std::vector<uint32_t> download(const Buffer &buffer, uint64_t lanes, uint64_t offset = 0);

// make_operation with the scalar and seed every check uses.
vrb_operation make_op(uint32_t kind, uint32_t width, uint64_t count);

// How many times one pass of `op` walks its working set: 1, or where the module walked a
// set too small to share out whole on every unit (VRB_OUTPUT_WHOLE_SET_PER_UNIT) the walks
// its output counts for one pass. Runs `op` once with one pass.
uint64_t walks_per_pass(Device &device, vrb_operation op);

struct Kind {
    uint32_t index;
    std::string name;
};
std::vector<Kind> all_kinds(const Device &device);
// The kinds kernels run on (VRB_MEMORY_DEVICE_ACCESS).
std::vector<Kind> kernel_kinds(const Device &device);

// FILL and CHECK: the core fills and verifies every buffer with them, so a module may not
// decline them on a kind kernels use. Every other operation may be declined.
bool mandatory(uint32_t op_kind);

// Whether op_supported declines the operation at `width` on `kind`: then the check skips
// it, and the findings name it as declined (or, for a mandatory operation, as a failure).
// False for a module without the query. Throws BackendError when the query fails.
bool declined(Device &device, uint32_t op_kind, uint32_t width, const Kind &kind, Findings &findings);

// "copy, 8-byte elements, memory kind \"device\" (0), count 17"
std::string where(uint32_t op_kind, uint32_t width, const Kind &kind, uint64_t count);

// Empty when `got` equals `want`; else "5 of 68 lanes wrong, first wrong lane 3:
// expected 0x0000002a, actual 0x00000000".
std::string lane_difference(std::span<const uint32_t> got, std::span<const uint32_t> want);

// "expected 0x..., actual 0x..." for a checksum.
std::string value_difference(uint64_t want, uint64_t got);

// Open descriptors of this process and what each is, from /proc/self/fd (less the
// listing's own): the leak and interop checks count them before and after.
std::map<int, std::string> open_fds();

// Runs `body` and turns any exception into a finding prefixed with `context`.
void attempt(Findings &findings, const std::string &context, const std::function<void()> &body);

// Opens the target's device and runs `body` once for each kind kernels can use; a
// device that cannot be opened, or that offers no such kind, is a finding.
void for_each_kernel_kind(const Target &target, Findings &findings,
                          const std::function<void(Device &, const Kind &)> &body);

} // namespace vrb::conformance
