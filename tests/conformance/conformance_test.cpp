// Every built backend, every operation of the vocabulary, every element width and
// memory kind, checked lane by lane against arithmetic done here on the host.
// A backend whose runtime or device is missing is skipped with its reason.
//
// The modules checked: every vrambench-*.so where the CLI finds backends, the backend
// template (plugins/template, built beside the tests and never installed), and each
// file named in VRAMBENCH_CONFORMANCE_MODULES (':'-separated), so a vendor points this
// same binary at a module built anywhere (docs/plugin-guide.md).
#include <vrambench/core/backend.hpp>
#include <vrambench/core/registry.hpp>
#include <vrambench/operation.hpp>
#include <vrambench/pattern.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <random>
#include <set>
#include <span>
#include <string_view>
#include <vector>

using namespace vrb;

namespace {

struct Target {
    std::string name;
    std::shared_ptr<Backend> backend;
    uint32_t device;
};

// A module named explicitly (the template, or a vendor's through the environment).
// Failing to load is a test failure for every module; only a required one must also be
// available: a vendor's module on a machine without its GPU is skipped with the reason.
struct NamedModule {
    std::filesystem::path file;
    bool required;
};

std::vector<NamedModule> named_modules()
{
    std::vector<NamedModule> named;
#ifdef VRAMBENCH_TEMPLATE_MODULE
    named.push_back({VRAMBENCH_TEMPLATE_MODULE, true});
#endif
    if (const char *env = std::getenv("VRAMBENCH_CONFORMANCE_MODULES")) {
        std::string_view rest = env;
        while (!rest.empty()) {
            const auto colon = rest.find(':');
            const auto part = rest.substr(0, colon);
            if (!part.empty()) named.push_back({std::string(part), false});
            if (colon == std::string_view::npos) break;
            rest.remove_prefix(colon + 1);
        }
    }
    return named;
}

struct Discovery {
    std::vector<Target> targets;
    std::vector<std::string> problems; // modules that did not load, or required ones unavailable
};

// Every available backend's every device, found once; each module file opened once.
const Discovery &discovery()
{
    static const Discovery found = [] {
        Discovery d;
        std::set<std::filesystem::path> seen;
        auto add = [&](const std::filesystem::path &file, bool required) {
            std::error_code error;
            const auto canonical = std::filesystem::weakly_canonical(file, error);
            if (!seen.insert(error ? file : canonical).second) return;
            BackendEntry entry = open_backend(file);
            const bool failed = entry.state == BackendEntry::State::failed;
            if (entry.state != BackendEntry::State::available) {
                std::printf("[ skipped  ] backend %s: %s\n", entry.name.c_str(), entry.reason.c_str());
                // A module that does not load at all is broken wherever it was found; an
                // unavailable one is only wrong when it was required. A load failure's
                // reason names the file already; an unavailable one's does not.
                if (failed) d.problems.push_back(entry.reason);
                if (required && !failed) d.problems.push_back(file.string() + " is unavailable: " + entry.reason);
                return;
            }
            for (uint32_t i = 0; i < entry.backend->device_count(); ++i)
                d.targets.push_back({entry.name + ":" + std::to_string(i), entry.backend, i});
        };
        for (const auto &item : std::filesystem::directory_iterator(VRAMBENCH_MODULE_DIR)) {
            const std::string file = item.path().filename().string();
            if (file.rfind("vrambench-", 0) != 0 || item.path().extension() != ".so") continue;
            add(item.path(), false);
        }
        for (const NamedModule &m : named_modules())
            add(m.file, m.required);
        return d;
    }();
    return found;
}

const std::vector<Target> &targets()
{
    return discovery().targets;
}

std::vector<uint32_t> random_lanes(uint64_t n, uint32_t seed)
{
    std::vector<uint32_t> v(n);
    for (uint64_t i = 0; i < n; ++i)
        v[i] = vrb_pattern_random(i, seed);
    return v;
}

void upload(Buffer &b, const std::vector<uint32_t> &lanes, uint64_t offset = 0)
{
    b.upload(offset, std::as_bytes(std::span(lanes)));
}

std::vector<uint32_t> download(const Buffer &b, uint64_t lanes, uint64_t offset = 0)
{
    std::vector<uint32_t> v(lanes);
    b.download(offset, std::as_writable_bytes(std::span(v)));
    return v;
}

vrb_operation make_op(vrb_op_kind kind, uint32_t width, uint64_t count)
{
    vrb_operation op = make_operation(kind, width, count);
    op.scalar = 7;
    op.seed = 99;
    return op;
}

// Kinds kernels can use; the sizes stay small so software drivers finish quickly.
std::vector<uint32_t> device_kinds(Device &device)
{
    std::vector<uint32_t> kinds;
    const auto all = device.memory_kinds();
    for (uint32_t k = 0; k < all.size(); ++k)
        if (all[k].flags & VRB_MEMORY_DEVICE_ACCESS) kinds.push_back(k);
    return kinds;
}

const uint64_t element_counts[] = {1, 3, 17, 4099, (1u << 18) + 5};
const uint32_t widths[] = {4, 8, 16};

template <typename Body> void for_each_device_kind(Body body)
{
    if (targets().empty()) GTEST_SKIP() << "no backend with a device is available here";
    for (const Target &t : targets()) {
        auto device = t.backend->open(t.device);
        for (uint32_t kind : device_kinds(*device)) {
            SCOPED_TRACE(t.name + " memory kind " + std::to_string(kind));
            body(*device, kind);
        }
    }
}

} // namespace

TEST(Conformance, EveryElementwiseOperationMatchesTheHostLaneByLane)
{
    for_each_device_kind([](Device &device, uint32_t kind) {
        for (uint32_t width : widths)
            for (uint64_t count : element_counts) {
                const uint64_t lanes = count * width / 4;
                auto a = device.allocate(kind, lanes * 4), b = device.allocate(kind, lanes * 4),
                     c = device.allocate(kind, lanes * 4);
                const auto vb = random_lanes(lanes, 11), vc = random_lanes(lanes, 22);
                upload(*b, vb);
                upload(*c, vc);
                for (vrb_op_kind kind_op : {VRB_OP_WRITE, VRB_OP_COPY, VRB_OP_SCALE, VRB_OP_ADD, VRB_OP_TRIAD}) {
                    SCOPED_TRACE("op " + std::to_string(kind_op) + " width " + std::to_string(width) + " count " +
                                 std::to_string(count));
                    upload(*a, random_lanes(lanes, 33)); // stale data must not pass
                    vrb_operation op = make_op(kind_op, width, count);
                    op.dst = {a->handle(), 0};
                    op.src1 = {b->handle(), 0};
                    op.src2 = {c->handle(), 0};
                    const auto out = device.run(op, 2);
                    EXPECT_EQ(out.seconds.size(), 2u);
                    for (double s : out.seconds)
                        EXPECT_GT(s, 0);
                    const auto va = download(*a, lanes);
                    uint64_t wrong = 0, first = 0;
                    for (uint64_t i = 0; i < lanes; ++i) {
                        uint32_t want = 0;
                        switch (kind_op) {
                        case VRB_OP_WRITE: want = vrb_pattern_random(i, op.seed); break;
                        case VRB_OP_COPY: want = vb[i]; break;
                        case VRB_OP_SCALE: want = op.scalar * vb[i]; break;
                        case VRB_OP_ADD: want = vb[i] + vc[i]; break;
                        default: want = vb[i] + op.scalar * vc[i]; break;
                        }
                        if (va[i] != want && wrong++ == 0) first = i;
                    }
                    EXPECT_EQ(wrong, 0u) << "first wrong lane " << first;
                }
            }
    });
}

TEST(Conformance, ReadAndDotChecksumsMatchTheHostSums)
{
    for_each_device_kind([](Device &device, uint32_t kind) {
        for (uint32_t width : widths)
            for (uint64_t count : element_counts) {
                const uint64_t lanes = count * width / 4;
                auto b = device.allocate(kind, lanes * 4), c = device.allocate(kind, lanes * 4);
                const auto vb = random_lanes(lanes, 44), vc = random_lanes(lanes, 55);
                upload(*b, vb);
                upload(*c, vc);
                uint64_t sum = 0, dot = 0;
                for (uint64_t i = 0; i < lanes; ++i) {
                    sum += vb[i];
                    dot += static_cast<uint32_t>(vb[i] * vc[i]);
                }
                vrb_operation op = make_op(VRB_OP_READ, width, count);
                op.src1 = {b->handle(), 0};
                op.src2 = {c->handle(), 0};
                EXPECT_EQ(device.run(op, 1).output.checksum, sum) << "read width " << width << " count " << count;
                op.kind = VRB_OP_DOT;
                EXPECT_EQ(device.run(op, 1).output.checksum, dot) << "dot width " << width << " count " << count;
            }
    });
}

TEST(Conformance, StridedReadSumsOnlyTheElementsItVisits)
{
    for_each_device_kind([](Device &device, uint32_t kind) {
        for (uint32_t width : widths)
            for (uint64_t stride : {1, 2, 7, 64}) {
                const uint64_t count = 1000, elements = (count - 1) * stride + 1, lpe = width / 4;
                auto b = device.allocate(kind, elements * width);
                const auto vb = random_lanes(elements * lpe, 66);
                upload(*b, vb);
                uint64_t sum = 0;
                for (uint64_t e = 0; e < count; ++e)
                    for (uint64_t l = 0; l < lpe; ++l)
                        sum += vb[e * stride * lpe + l];
                vrb_operation op = make_op(VRB_OP_STRIDED_READ, width, count);
                op.stride = stride;
                op.src1 = {b->handle(), 0};
                EXPECT_EQ(device.run(op, 1).output.checksum, sum) << "width " << width << " stride " << stride;
            }
    });
}

TEST(Conformance, GatherSumsTheElementsTheIndicesName)
{
    for_each_device_kind([](Device &device, uint32_t kind) {
        for (uint32_t width : widths) {
            const uint64_t elements = 5000, count = 3001, lpe = width / 4;
            auto data = device.allocate(kind, elements * width), index = device.allocate(kind, count * 4);
            const auto vd = random_lanes(elements * lpe, 77);
            std::vector<uint32_t> vi(count);
            for (uint64_t i = 0; i < count; ++i)
                vi[i] = vrb_pattern_random(i, 88) % elements;
            upload(*data, vd);
            upload(*index, vi);
            uint64_t sum = 0;
            for (uint64_t i = 0; i < count; ++i)
                for (uint64_t l = 0; l < lpe; ++l)
                    sum += vd[vi[i] * lpe + l];
            vrb_operation op = make_op(VRB_OP_GATHER, width, count);
            op.src1 = {data->handle(), 0};
            op.src2 = {index->handle(), 0};
            EXPECT_EQ(device.run(op, 1).output.checksum, sum) << "width " << width;
        }
    });
}

TEST(Conformance, ChaseFollowsTheChainToTheSameLastIndex)
{
    for_each_device_kind([](Device &device, uint32_t kind) {
        const uint64_t n = 4096;
        // Sattolo's algorithm: one cycle through every entry.
        std::vector<uint32_t> next(n);
        std::iota(next.begin(), next.end(), 0u);
        std::mt19937_64 rng(5);
        for (uint64_t i = n - 1; i > 0; --i)
            std::swap(next[i], next[std::uniform_int_distribution<uint64_t>(0, i - 1)(rng)]);
        auto chain = device.allocate(kind, n * 4);
        upload(*chain, next);
        for (uint64_t steps : {uint64_t{1}, uint64_t{5}, 3 * n + 11}) {
            uint64_t j = 0;
            for (uint64_t s = 0; s < steps; ++s)
                j = next[j];
            vrb_operation op = make_op(VRB_OP_CHASE, 4, steps);
            op.src1 = {chain->handle(), 0};
            EXPECT_EQ(device.run(op, 1).output.checksum, j) << "steps " << steps;
        }
    });
}

TEST(Conformance, FillWritesEveryPatternAndCheckFindsTheOneFlippedBit)
{
    for_each_device_kind([](Device &device, uint32_t kind) {
        const uint64_t lanes = 70001;
        auto buffer = device.allocate(kind, lanes * 4);
        for (uint32_t pattern = 0; pattern < VRB_PATTERN_COUNT; ++pattern) {
            SCOPED_TRACE("pattern " + std::to_string(pattern));
            vrb_operation fill = make_op(VRB_OP_FILL, 4, lanes);
            fill.pattern = pattern;
            fill.dst = {buffer->handle(), 0};
            device.run(fill, 1);
            const auto got = download(*buffer, lanes);
            for (uint64_t i = 0; i < lanes; ++i)
                if (got[i] != vrb_pattern(pattern, i, fill.seed)) {
                    ADD_FAILURE() << "lane " << i << " holds " << got[i];
                    break;
                }
            vrb_operation check = make_op(VRB_OP_CHECK, 4, lanes);
            check.pattern = pattern;
            check.src1 = {buffer->handle(), 0};
            EXPECT_EQ(device.run(check, 1).output.mismatches, 0u);
            const uint64_t flipped = 12345;
            upload(*buffer, {got[flipped] ^ 0x10u}, flipped * 4);
            const auto out = device.run(check, 1).output;
            EXPECT_EQ(out.mismatches, 1u);
            EXPECT_EQ(out.first_mismatch, flipped);
        }
    });
}

TEST(Conformance, OperandOffsetsShiftWhereAnOperationReadsAndWrites)
{
    for_each_device_kind([](Device &device, uint32_t kind) {
        const uint64_t lanes = 10000, offset_lanes = 16;
        auto a = device.allocate(kind, (lanes + offset_lanes) * 4),
             b = device.allocate(kind, (lanes + offset_lanes) * 4);
        const auto vb = random_lanes(lanes + offset_lanes, 12);
        upload(*b, vb);
        upload(*a, std::vector<uint32_t>(lanes + offset_lanes, 0xdeadbeefu));
        vrb_operation op = make_op(VRB_OP_COPY, 16, lanes / 4);
        op.dst = {a->handle(), offset_lanes * 4};
        op.src1 = {b->handle(), 0};
        device.run(op, 1);
        const auto va = download(*a, lanes + offset_lanes);
        for (uint64_t i = 0; i < offset_lanes; ++i)
            EXPECT_EQ(va[i], 0xdeadbeefu) << "lane " << i << " before dst";
        for (uint64_t i = 0; i < lanes; ++i)
            if (va[offset_lanes + i] != vb[i]) {
                ADD_FAILURE() << "lane " << i;
                break;
            }
    });
}

TEST(Conformance, TransferCopiesBetweenEveryPairOfMemoryKindsAndBothWaysAtOnce)
{
    if (targets().empty()) GTEST_SKIP() << "no backend with a device is available here";
    for (const Target &t : targets()) {
        auto device = t.backend->open(t.device);
        const uint32_t kinds = static_cast<uint32_t>(device->memory_kinds().size());
        const uint64_t bytes = (1u << 20) + 12;
        const auto data = random_lanes(bytes / 4, 31), back = random_lanes(bytes / 4, 32);
        for (uint32_t from = 0; from < kinds; ++from)
            for (uint32_t to = 0; to < kinds; ++to) {
                SCOPED_TRACE(t.name + " transfer " + std::to_string(from) + " -> " + std::to_string(to));
                auto src = device->allocate(from, bytes), dst = device->allocate(to, bytes);
                auto src2 = device->allocate(to, bytes), dst2 = device->allocate(from, bytes);
                upload(*src, data);
                upload(*src2, back);
                vrb_operation op = make_op(VRB_OP_TRANSFER, 1, bytes);
                op.src1 = {src->handle(), 0};
                op.dst = {dst->handle(), 0};
                device->run(op, 1);
                EXPECT_EQ(download(*dst, bytes / 4), data);
                upload(*dst, back);
                op.src2 = {src2->handle(), 0};
                op.dst2 = {dst2->handle(), 0};
                device->run(op, 1);
                EXPECT_EQ(download(*dst, bytes / 4), data);
                EXPECT_EQ(download(*dst2, bytes / 4), back);
            }
    }
}

TEST(Conformance, OperationsPastTheEndOfABufferAreRefusedNotRun)
{
    for_each_device_kind([](Device &device, uint32_t kind) {
        auto a = device.allocate(kind, 4096), b = device.allocate(kind, 4096);
        vrb_operation op = make_op(VRB_OP_COPY, 4, 1025);
        op.dst = {a->handle(), 0};
        op.src1 = {b->handle(), 0};
        try {
            device.run(op, 1);
            ADD_FAILURE() << "a copy past the end ran";
        } catch (const BackendError &e) {
            EXPECT_EQ(e.status(), VRB_ERROR_INVALID_ARGUMENT) << e.what();
        }
        op.count = 16;
        op.element_bytes = 3;
        EXPECT_THROW(device.run(op, 1), BackendError);
        op.element_bytes = 4;
        op.kind = VRB_OP_STRIDED_READ;
        op.stride = 0;
        EXPECT_THROW(device.run(op, 1), BackendError);
    });
}

TEST(Conformance, EveryDeviceDescribesItselfAndItsMemoryKinds)
{
    if (targets().empty()) GTEST_SKIP() << "no backend with a device is available here";
    for (const Target &t : targets()) {
        const vrb_device_info info = t.backend->describe(t.device);
        EXPECT_GT(std::strlen(info.name), 0u) << t.name;
        EXPECT_GT(std::strlen(info.api), 0u) << t.name;
        auto device = t.backend->open(t.device);
        const auto kinds = device->memory_kinds();
        EXPECT_FALSE(kinds.empty()) << t.name;
        for (const auto &k : kinds)
            EXPECT_GT(std::strlen(k.name), 0u) << t.name;
    }
}

TEST(Conformance, EveryModuleNamedForTheKitLoadsAndTheTemplateRuns)
{
    for (const std::string &problem : discovery().problems)
        ADD_FAILURE() << problem;
#ifdef VRAMBENCH_TEMPLATE_MODULE
    const bool template_found =
        std::any_of(targets().begin(), targets().end(), [](const Target &t) { return t.name == "template:0"; });
    EXPECT_TRUE(template_found) << "the backend template at " << VRAMBENCH_TEMPLATE_MODULE << " has no device";
#endif
}

TEST(Conformance, PassesRepeatTheOperationButAnswerAsOnePass)
{
    for_each_device_kind([](Device &device, uint32_t kind) {
        const uint64_t lanes = 4099;
        const uint32_t passes = 3;
        auto a = device.allocate(kind, lanes * 4), b = device.allocate(kind, lanes * 4),
             c = device.allocate(kind, lanes * 4);
        const auto vb = random_lanes(lanes, 13), vc = random_lanes(lanes, 14);
        upload(*b, vb);
        upload(*c, vc);
        auto expect_passes = [&](const vrb_op_output &out) {
            EXPECT_TRUE(out.passes == 0 || out.passes == passes) << "the output says " << out.passes << " passes";
            EXPECT_GE(out.timer, uint32_t{VRB_TIMER_HOST_MONOTONIC});
            EXPECT_LE(out.timer, uint32_t{VRB_TIMER_CALIBRATED_TIMESTAMPS});
        };

        vrb_operation read = make_op(VRB_OP_READ, 4, lanes);
        read.src1 = {b->handle(), 0};
        read.passes = passes;
        const auto read_out = device.run(read, 2).output;
        EXPECT_EQ(read_out.checksum, std::accumulate(vb.begin(), vb.end(), uint64_t{0}));
        expect_passes(read_out);

        vrb_operation add = make_op(VRB_OP_ADD, 16, lanes / 4);
        add.dst = {a->handle(), 0};
        add.src1 = {b->handle(), 0};
        add.src2 = {c->handle(), 0};
        add.passes = passes;
        expect_passes(device.run(add, 1).output);
        const auto va = download(*a, lanes / 4 * 4);
        for (uint64_t i = 0; i < va.size(); ++i)
            if (va[i] != vb[i] + vc[i]) {
                ADD_FAILURE() << "add lane " << i;
                break;
            }

        // One flipped lane is one mismatch, however many passes found it.
        vrb_operation fill = make_op(VRB_OP_FILL, 4, lanes);
        fill.pattern = VRB_PATTERN_RANDOM;
        fill.dst = {a->handle(), 0};
        fill.passes = passes;
        device.run(fill, 1);
        upload(*a, {vrb_pattern_random(100, fill.seed) ^ 1u}, 100 * 4);
        vrb_operation check = make_op(VRB_OP_CHECK, 4, lanes);
        check.pattern = VRB_PATTERN_RANDOM;
        check.src1 = {a->handle(), 0};
        check.passes = passes;
        const auto check_out = device.run(check, 2).output;
        EXPECT_EQ(check_out.mismatches, 1u);
        EXPECT_EQ(check_out.first_mismatch, 100u);
        expect_passes(check_out);

        // Every pass of a chase starts again from index 0.
        std::vector<uint32_t> ring(64);
        for (uint32_t i = 0; i < ring.size(); ++i)
            ring[i] = (i + 1) % ring.size();
        upload(*a, ring);
        vrb_operation chase = make_op(VRB_OP_CHASE, 4, 10);
        chase.src1 = {a->handle(), 0};
        chase.passes = passes;
        EXPECT_EQ(device.run(chase, 1).output.checksum, 10u);
    });
}
