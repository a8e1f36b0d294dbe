#include "capacity_touch.hpp"
#include "curve.hpp"

#include <vrambench/core/measurement/measure.hpp>
#include <vrambench/operation.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace vrb::capacity {

namespace {

constexpr uint64_t lane_bytes = 4;
constexpr uint64_t spot_bytes = 4096;
constexpr int spot_count = 8;

vrb_operation pattern_op(vrb_op_kind kind, Buffer &buffer, uint32_t pattern, uint32_t seed)
{
    const uint32_t width = pattern_element_bytes(buffer.bytes());
    vrb_operation op = make_operation(kind, width, buffer.bytes() / width);
    op.pattern = pattern;
    op.seed = seed;
    if (kind == VRB_OP_FILL)
        op.dst = {buffer.handle(), 0};
    else
        op.src1 = {buffer.handle(), 0};
    return op;
}

// Compares lanes read by the host with the pattern; the first wrong one, if any.
std::optional<BadLane> compare_lanes(const std::vector<uint32_t> &lanes, uint64_t first_lane, uint32_t pattern,
                                     uint32_t seed)
{
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        const uint32_t want = vrb_pattern(pattern, first_lane + i, seed);
        if (lanes[i] != want) return BadLane{(first_lane + i) * lane_bytes, want, lanes[i]};
    }
    return std::nullopt;
}

std::optional<BadLane> spot_check(const Buffer &buffer, uint32_t pattern, uint32_t seed)
{
    const uint64_t lanes_total = buffer.bytes() / lane_bytes;
    const uint64_t window = std::min(spot_bytes / lane_bytes, lanes_total);
    if (window == 0) return std::nullopt;
    std::vector<uint32_t> lanes(window);
    for (int i = 0; i < spot_count; ++i) {
        // Evenly spread, the first window at the start and the last at the very end.
        const uint64_t first = (lanes_total - window) * i / (spot_count - 1);
        buffer.download(first * lane_bytes, std::as_writable_bytes(std::span(lanes)));
        if (auto bad = compare_lanes(lanes, first, pattern, seed)) return bad;
    }
    return std::nullopt;
}

} // namespace

double Touch::write_gb_per_s() const
{
    return static_cast<double>(bytes) / write_seconds / 1e9;
}

double Touch::seconds_per_gib_written() const
{
    return write_seconds / (static_cast<double>(bytes) / static_cast<double>(1ull << 30));
}

std::string Touch::describe_failure() const
{
    if (mismatches)
        return fmt::format("{} of {} lanes read back wrong; the first at byte {:#x}", mismatches, bytes / lane_bytes,
                           first_mismatch_byte.value_or(0));
    if (missed)
        return fmt::format("the host read {:#010x} at byte {:#x} where {:#010x} was written, and the device's CHECK "
                           "did not report it",
                           missed->actual, missed->byte, missed->expected);
    return "every lane read back as written";
}

Touch touch_buffer(Device &device, Buffer &buffer, uint32_t pattern, uint32_t seed)
{
    Touch t;
    t.bytes = buffer.bytes();
    const Timing fill = time_operation(device, pattern_op(VRB_OP_FILL, buffer, pattern, seed), 0, 1);
    t.write_seconds = fill.seconds.at(0);
    t.timer = fill.output.timer;
    const Timing check = time_operation(device, pattern_op(VRB_OP_CHECK, buffer, pattern, seed), 0, 1);
    t.read_seconds = check.seconds.at(0);
    t.mismatches = check.output.mismatches;
    if (t.mismatches) t.first_mismatch_byte = check.output.first_mismatch * lane_bytes;
    t.missed = spot_check(buffer, pattern, seed);
    if (t.missed && t.mismatches) t.missed.reset(); // CHECK saw trouble too: it is not missing any
    return t;
}

double rewrite_seconds(Device &device, Buffer &buffer, uint32_t pattern, uint32_t seed)
{
    return time_operation(device, pattern_op(VRB_OP_FILL, buffer, pattern, seed), 0, 1).seconds.at(0);
}

uint64_t touch_window(Device &device, Buffer &buffer, uint64_t offset, uint64_t bytes, uint32_t seed)
{
    fill_random(device, buffer, bytes, seed, offset);
    return check_random(device, buffer, bytes, seed, offset).mismatches;
}

uint64_t recheck_buffer(Device &device, Buffer &buffer, uint32_t pattern, uint32_t seed)
{
    return time_operation(device, pattern_op(VRB_OP_CHECK, buffer, pattern, seed), 0, 1).output.mismatches;
}

std::vector<BadLane> locate_mismatches(const Buffer &buffer, uint32_t pattern, uint32_t seed, uint64_t from_byte,
                                       std::size_t limit, uint64_t scan_bytes)
{
    constexpr uint64_t chunk_lanes = 256ull << 10;
    std::vector<BadLane> found;
    const uint64_t end_lane = buffer.bytes() / lane_bytes;
    uint64_t lane = from_byte / lane_bytes;
    const uint64_t stop_lane = std::min(end_lane, lane + scan_bytes / lane_bytes);
    std::vector<uint32_t> lanes;
    while (lane < stop_lane && found.size() < limit) {
        lanes.resize(std::min(chunk_lanes, stop_lane - lane));
        buffer.download(lane * lane_bytes, std::as_writable_bytes(std::span(lanes)));
        for (std::size_t i = 0; i < lanes.size() && found.size() < limit; ++i) {
            const uint32_t want = vrb_pattern(pattern, lane + i, seed);
            if (lanes[i] != want) found.push_back({(lane + i) * lane_bytes, want, lanes[i]});
        }
        lane += lanes.size();
    }
    return found;
}

nlohmann::json to_json(const BadLane &lane)
{
    return {{"byte", lane.byte},
            {"byte_hex", fmt::format("{:#x}", lane.byte)},
            {"expected", fmt::format("{:#010x}", lane.expected)},
            {"actual", fmt::format("{:#010x}", lane.actual)},
            {"flipped_bits", fmt::format("{:#010x}", lane.expected ^ lane.actual)}};
}

} // namespace vrb::capacity
