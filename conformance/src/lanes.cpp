#include "lanes.hpp"

#include <vrambench/core/measurement/traffic.hpp>
#include <vrambench/pattern.h>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

namespace vrb::conformance {

void Findings::fail(std::string what)
{
    constexpr std::size_t kept_at_most = 12;
    if (kept_.size() < kept_at_most) kept_.push_back(std::move(what));
    ++count_;
}

void Findings::decline(std::string what)
{
    if (std::find(declined_.begin(), declined_.end(), what) == declined_.end()) declined_.push_back(std::move(what));
}

bool mandatory(uint32_t op_kind)
{
    return op_kind == VRB_OP_FILL || op_kind == VRB_OP_CHECK;
}

bool declined(Device &device, uint32_t op_kind, uint32_t width, const Kind &kind, Findings &findings)
{
    const std::optional<bool> offered = device.supports(op_kind, width, kind.index);
    if (!offered || *offered) return false;
    const std::string what =
        fmt::format("{} at {} bytes on memory kind \"{}\" ({})", op_name(op_kind), width, kind.name, kind.index);
    if (mandatory(op_kind))
        findings.fail(fmt::format("{}: op_supported declines it, but fill and check are mandatory on every memory kind "
                                  "kernels use, at 4, 8 and 16 bytes: the core fills and verifies every buffer with "
                                  "them",
                                  what));
    else
        findings.decline(what + " (op_supported)");
    return true;
}

std::vector<uint32_t> random_lanes(uint64_t n, uint32_t seed)
{
    std::vector<uint32_t> v(n);
    for (uint64_t i = 0; i < n; ++i)
        v[i] = vrb_pattern_random(i, seed);
    return v;
}

void upload(Buffer &buffer, const std::vector<uint32_t> &lanes, uint64_t offset)
{
    buffer.upload(offset, std::as_bytes(std::span(lanes)));
}

std::vector<uint32_t> download(const Buffer &buffer, uint64_t lanes, uint64_t offset)
{
    std::vector<uint32_t> v(lanes);
    buffer.download(offset, std::as_writable_bytes(std::span(v)));
    return v;
}

vrb_operation make_op(uint32_t kind, uint32_t width, uint64_t count)
{
    vrb_operation op = make_operation(kind, width, count);
    op.scalar = 7;
    op.seed = 99;
    return op;
}

uint64_t walks_per_pass(Device &device, vrb_operation op)
{
    op.passes = 1;
    const vrb_op_output out = device.run(op, 1).output;
    return (out.flags & VRB_OUTPUT_WHOLE_SET_PER_UNIT) && out.passes > 0 ? out.passes : 1;
}

std::vector<Kind> all_kinds(const Device &device)
{
    std::vector<Kind> kinds;
    const auto infos = device.memory_kinds();
    for (uint32_t k = 0; k < infos.size(); ++k)
        kinds.push_back({k, std::string(infos[k].name, strnlen(infos[k].name, sizeof infos[k].name))});
    return kinds;
}

std::vector<Kind> kernel_kinds(const Device &device)
{
    std::vector<Kind> kinds;
    const auto infos = device.memory_kinds();
    for (uint32_t k = 0; k < infos.size(); ++k)
        if (infos[k].flags & VRB_MEMORY_DEVICE_ACCESS)
            kinds.push_back({k, std::string(infos[k].name, strnlen(infos[k].name, sizeof infos[k].name))});
    return kinds;
}

std::string where(uint32_t op_kind, uint32_t width, const Kind &kind, uint64_t count)
{
    return fmt::format("{}, {}-byte elements, memory kind \"{}\" ({}), count {}", op_name(op_kind), width, kind.name,
                       kind.index, count);
}

std::string lane_difference(std::span<const uint32_t> got, std::span<const uint32_t> want)
{
    if (got.size() != want.size())
        return fmt::format("{} lanes came back where {} were expected", got.size(), want.size());
    uint64_t wrong = 0, first = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (got[i] != want[i] && wrong++ == 0) first = i;
    if (wrong == 0) return {};
    return fmt::format("{} of {} lanes wrong, first wrong lane {}: expected {:#010x}, actual {:#010x}", wrong,
                       got.size(), first, want[first], got[first]);
}

std::string value_difference(uint64_t want, uint64_t got)
{
    return fmt::format("expected {}, actual {}", want, got);
}

std::map<int, std::string> open_fds()
{
    std::map<int, std::string> fds;
    std::error_code error;
    for (const auto &entry : std::filesystem::directory_iterator("/proc/self/fd", error)) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::error_code link_error;
        const auto target = std::filesystem::read_symlink(entry.path(), link_error);
        fds[std::stoi(name)] = link_error ? std::string("?") : target.string();
    }
    // The directory listing's own descriptor is gone by now; its target no longer resolves.
    std::erase_if(fds, [](const auto &fd) { return fd.second.find("/proc/") == 0 && fd.second.ends_with("/fd"); });
    return fds;
}

void attempt(Findings &findings, const std::string &context, const std::function<void()> &body)
{
    try {
        body();
    } catch (const std::exception &e) {
        findings.fail(fmt::format("{}: {}", context, e.what()));
    }
}

void for_each_kernel_kind(const Target &target, Findings &findings,
                          const std::function<void(Device &, const Kind &)> &body)
{
    attempt(findings, target.id, [&] {
        auto device = target.backend->open(target.index);
        const auto kinds = kernel_kinds(*device);
        if (kinds.empty())
            findings.fail(fmt::format("{}: no memory kind kernels can use (VRB_MEMORY_DEVICE_ACCESS)", target.id));
        for (const Kind &kind : kinds)
            attempt(findings, fmt::format("{} memory kind \"{}\" ({})", target.id, kind.name, kind.index),
                    [&] { body(*device, kind); });
    });
}

} // namespace vrb::conformance
