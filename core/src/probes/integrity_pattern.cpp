// integrity.pattern: every byte of the largest allocation the device gives, written and
// read back on the device with zeros, ones, walking ones, each lane's own address and
// pseudo-random data. Any wrong lane fails the run, with its address.
#include "capacity_budget.hpp"
#include "capacity_largest.hpp"
#include "capacity_probes.hpp"
#include "capacity_result.hpp"

#include <vrambench/core/measurement/sizes.hpp>

#include <fmt/format.h>

#include <array>

namespace vrb {

namespace capacity {
namespace {

constexpr uint32_t integrity_seed = 0x1e571000;
constexpr std::size_t addresses_kept = 8;
constexpr uint64_t locate_scan_bytes = 256ull << 20;

struct Pattern {
    uint32_t kind;
    const char *name;
};
constexpr std::array<Pattern, 5> patterns{{{VRB_PATTERN_ZEROS, "zeros"},
                                           {VRB_PATTERN_ONES, "ones"},
                                           {VRB_PATTERN_WALKING_ONES, "walking-ones"},
                                           {VRB_PATTERN_ADDRESS, "address"},
                                           {VRB_PATTERN_RANDOM, "random"}}};

class IntegrityPatternProbe final : public Probe {
  public:
    std::string_view id() const override { return "integrity.pattern"; }
    std::string_view summary() const override
    {
        return "zeros, ones, walking ones, address and random data over the largest allocation, checked on the device";
    }

    ProbePlan plan(const DeviceRecord &device, const ProbeOptions &options) const override
    {
        return plan_capacity(device, options, 10, 1, "the largest allocation written and checked with 5 patterns");
    }

    void run(ProbeContext &ctx) const override
    {
        const CapacityBudget budget = plan_capacity_budget(ctx.record, ctx.options);
        if (!budget_suffices(ctx, id(), budget, 2 * capacity_granule)) return;
        std::string source = "the largest allocation capacity.max-alloc found earlier in this run";
        std::unique_ptr<Buffer> buffer;
        if (const auto known = recall_largest(ctx, budget.bytes)) {
            try {
                buffer = ctx.device.allocate(budget.kind, *known);
            } catch (const BackendError &) {
                // Someone took memory since: search again below.
            }
        }
        if (!buffer) {
            source = "the largest allocation found by the capacity.max-alloc search, run here";
            const LargestAllocation found = find_largest_allocation(ctx, budget);
            if (found.search.largest == 0)
                throw RunError(fmt::format("not even {} could be allocated to check", format_size(capacity_granule)));
            remember_largest(ctx, budget.bytes, found.search.largest);
            buffer = ctx.device.allocate(budget.kind, found.search.largest);
        }
        const uint64_t bytes = buffer->bytes();

        for (std::size_t i = 0; i < patterns.size(); ++i) {
            const Pattern &p = patterns[i];
            ctx.progress(fmt::format("{} over {}", p.name, format_size(bytes)),
                         static_cast<double>(i) / static_cast<double>(patterns.size()));
            const uint32_t seed = integrity_seed + static_cast<uint32_t>(i);
            const Touch t = touch_buffer(ctx.device, *buffer, p.kind, seed);

            ProbeResult r = make_capacity_result(ctx, id(), budget);
            r.metric = "count";
            r.unit = std::string("1"); // not from a literal: GCC 12 warns wrongly (bug 105329)
            r.parameters["operation"] = p.name;
            r.parameters["array_bytes"] = bytes;
            r.byte_counting = "lanes (32-bit words) that read back different from what was written";
            r.value = static_cast<double>(t.mismatches);
            r.samples = {static_cast<double>(t.mismatches)};
            r.extra["size_source"] = source;
            r.extra["write_gb_per_s"] = t.write_gb_per_s();
            r.extra["read_gb_per_s"] = static_cast<double>(bytes) / t.read_seconds / 1e9;
            if (t.verified()) {
                pass(r, fmt::format("all {} lanes read back as written", bytes / 4));
            } else {
                std::vector<BadLane> bad;
                if (t.missed) bad.push_back(*t.missed);
                if (t.first_mismatch_byte)
                    bad = locate_mismatches(*buffer, p.kind, seed, *t.first_mismatch_byte, addresses_kept,
                                            locate_scan_bytes);
                nlohmann::json list = nlohmann::json::array();
                for (const BadLane &lane : bad)
                    list.push_back(to_json(lane));
                // CHECK's count; when only the host saw a wrong lane, the ones it saw.
                const uint64_t wrong = t.mismatches ? t.mismatches : bad.size();
                r.value = static_cast<double>(wrong);
                r.samples = {static_cast<double>(wrong)};
                r.extra["mismatches"] = wrong;
                r.extra["first_mismatch_byte"] =
                    t.first_mismatch_byte ? nlohmann::json(*t.first_mismatch_byte) : nlohmann::json(bad.front().byte);
                r.extra["first_addresses"] = std::move(list);
                r.extra["addresses_are"] = "byte offsets from the start of the allocation";
                fail_verification(r, t.describe_failure());
            }
            ctx.emit(std::move(r));
        }
    }
};

} // namespace
} // namespace capacity

std::unique_ptr<Probe> make_integrity_pattern_probe()
{
    return std::make_unique<capacity::IntegrityPatternProbe>();
}

} // namespace vrb
