// Structs grow at their end, both ways: a module must fill no byte past the struct_size
// an older host gave, leave alone what a newer host's bigger struct holds past the
// module's own, and read no field of an operation past the size the host gave.
#include "checks.hpp"
#include "lanes.hpp"

#include <fmt/format.h>

#include <cstddef>
#include <cstring>
#include <vector>

namespace vrb::conformance {

namespace {

constexpr unsigned char canary = 0xa5;
constexpr std::size_t newer_host_extra = 64;

// A struct of `full` bytes in storage with room past it, every byte the canary but the
// leading struct_size.
std::vector<unsigned char> canary_storage(uint32_t struct_size, std::size_t full)
{
    std::vector<unsigned char> storage(full + newer_host_extra, canary);
    std::memcpy(storage.data(), &struct_size, sizeof struct_size);
    return storage;
}

// The first byte at or past `from` that is no longer the canary, or -1.
std::ptrdiff_t first_written(const std::vector<unsigned char> &storage, std::size_t from)
{
    for (std::size_t i = from; i < storage.size(); ++i)
        if (storage[i] != canary) return static_cast<std::ptrdiff_t>(i);
    return -1;
}

template <typename Call>
void describe_both_ways(Findings &findings, const std::string &call, std::size_t full, uint32_t old_size, Call fill)
{
    {
        auto storage = canary_storage(old_size, full);
        const vrb_status status = fill(storage.data());
        if (status != VRB_OK)
            findings.fail(fmt::format("{} with struct_size {} (an older host's struct): failed ({})", call, old_size,
                                      to_string(status)));
        else if (const auto at = first_written(storage, old_size); at >= 0)
            findings.fail(fmt::format("{} with struct_size {} (an older host's struct): wrote byte {}, past the end",
                                      call, old_size, at));
    }
    {
        const auto newer = static_cast<uint32_t>(full + newer_host_extra);
        auto storage = canary_storage(newer, full);
        const vrb_status status = fill(storage.data());
        if (status != VRB_OK)
            findings.fail(fmt::format("{} with struct_size {} (a newer host's struct): failed ({})", call, newer,
                                      to_string(status)));
        else if (const auto at = first_written(storage, full); at >= 0)
            findings.fail(fmt::format("{} with struct_size {} (a newer host's struct): wrote byte {}, past the {} "
                                      "bytes this ABI defines",
                                      call, newer, at, full));
    }
}

} // namespace

void check_struct_sizes(const Target &target, Findings &findings)
{
    attempt(findings, target.id, [&] {
        const vrb_plugin_table &table = target.backend->module().table();
        vrb_context *context = target.backend->context();
        describe_both_ways(findings, target.id + ": device_describe", sizeof(vrb_device_info),
                           offsetof(vrb_device_info, name), [&](unsigned char *p) {
                               return table.device_describe(context, target.index,
                                                            reinterpret_cast<vrb_device_info *>(p));
                           });
        auto device = target.backend->open(target.index);
        for (const Kind &kind : all_kinds(*device))
            describe_both_ways(findings, fmt::format("{}: memory_kind_describe of kind {}", target.id, kind.index),
                               sizeof(vrb_memory_kind_info), offsetof(vrb_memory_kind_info, name),
                               [&](unsigned char *p) {
                                   return table.memory_kind_describe(device->handle(), kind.index,
                                                                     reinterpret_cast<vrb_memory_kind_info *>(p));
                               });
    });

    for_each_kernel_kind(target, findings, [&](Device &device, const Kind &kind) {
        const vrb_plugin_table &table = device.module().table();
        const uint64_t lanes = 1024;
        auto b = device.allocate(kind.index, lanes * 4);
        const auto vb = random_lanes(lanes, 7);
        upload(*b, vb);
        uint64_t sum = 0;
        for (uint32_t v : vb)
            sum += v;
        const std::string at = where(VRB_OP_READ, 4, kind, lanes);

        // An older host's operation ends before `passes`; whatever lies past it is not a
        // field: it runs as one pass does (which, on a set walked whole by every unit,
        // counts every unit's walk).
        {
            std::vector<unsigned char> storage(sizeof(vrb_operation), 0);
            vrb_operation op = make_op(VRB_OP_READ, 4, lanes);
            op.src1 = {b->handle(), 0};
            const uint64_t one_pass = walks_per_pass(device, op);
            op.passes = 1000;
            op.struct_size = offsetof(vrb_operation, passes);
            std::memcpy(storage.data(), &op, sizeof op);
            vrb_op_output out{};
            out.struct_size = sizeof out;
            double seconds = 0;
            const vrb_status status =
                table.run(device.handle(), reinterpret_cast<const vrb_operation *>(storage.data()), 1, &seconds, &out);
            if (status != VRB_OK)
                findings.fail(fmt::format("{}: with an older host's vrb_operation (struct_size {}): failed ({})", at,
                                          op.struct_size, to_string(status)));
            else if (out.checksum != sum || (out.passes != 0 && out.passes != one_pass))
                findings.fail(fmt::format("{}: with an older host's vrb_operation (struct_size {}, passes 1000 past "
                                          "it): checksum {}, {} passes where one pass says {}; the passes field does "
                                          "not exist there",
                                          at, op.struct_size, value_difference(sum, out.checksum), out.passes,
                                          one_pass));
        }
        // A newer host's operation and output are longer than this ABI's.
        {
            std::vector<unsigned char> storage(sizeof(vrb_operation) + newer_host_extra, 0x5c);
            vrb_operation op = make_op(VRB_OP_READ, 4, lanes);
            op.src1 = {b->handle(), 0};
            op.struct_size = static_cast<uint32_t>(storage.size());
            std::memcpy(storage.data(), &op, sizeof op);
            auto out_storage =
                canary_storage(static_cast<uint32_t>(sizeof(vrb_op_output) + newer_host_extra), sizeof(vrb_op_output));
            double seconds = 0;
            const vrb_status status =
                table.run(device.handle(), reinterpret_cast<const vrb_operation *>(storage.data()), 1, &seconds,
                          reinterpret_cast<vrb_op_output *>(out_storage.data()));
            vrb_op_output out{};
            std::memcpy(&out, out_storage.data(), sizeof out);
            if (status != VRB_OK)
                findings.fail(fmt::format("{}: with a newer host's vrb_operation and vrb_op_output (struct_size {} "
                                          "and {}): failed ({})",
                                          at, op.struct_size, sizeof(vrb_op_output) + newer_host_extra,
                                          to_string(status)));
            else if (out.checksum != sum)
                findings.fail(fmt::format("{}: with a newer host's structs: checksum {}", at,
                                          value_difference(sum, out.checksum)));
            else if (const auto written = first_written(out_storage, sizeof(vrb_op_output)); written >= 0)
                findings.fail(fmt::format("{}: with a newer host's vrb_op_output: wrote byte {}, past the {} bytes "
                                          "this ABI defines",
                                          at, written, sizeof(vrb_op_output)));
        }
        // An older host's output ends before `passes`.
        {
            vrb_operation op = make_op(VRB_OP_READ, 4, lanes);
            op.src1 = {b->handle(), 0};
            const auto old_size = static_cast<uint32_t>(offsetof(vrb_op_output, passes));
            auto out_storage = canary_storage(old_size, sizeof(vrb_op_output));
            double seconds = 0;
            const vrb_status status =
                table.run(device.handle(), &op, 1, &seconds, reinterpret_cast<vrb_op_output *>(out_storage.data()));
            if (status != VRB_OK)
                findings.fail(fmt::format("{}: with an older host's vrb_op_output (struct_size {}): failed ({})", at,
                                          old_size, to_string(status)));
            else if (const auto written = first_written(out_storage, old_size); written >= 0)
                findings.fail(fmt::format("{}: with an older host's vrb_op_output (struct_size {}): wrote byte {}, "
                                          "past the end",
                                          at, old_size, written));
        }
    });
}

} // namespace vrb::conformance
