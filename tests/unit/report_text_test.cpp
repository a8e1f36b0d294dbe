// What `vrambench run` prints as its table and `vrambench info` as a device, compared
// with the text kept in tests/data/golden: units a person reads, no JSON fragments.
#include <vrambench/core/results/readable.hpp>
#include <vrambench/core/results/report.hpp>
#include <vrambench/core/results/result.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace {

std::string golden(const std::string &name)
{
    std::ifstream in(std::string(VRAMBENCH_TEST_DATA) + "/golden/" + name);
    EXPECT_TRUE(in) << name;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

vrb::ProbeResult result(std::string probe, std::string metric, std::string unit, double value,
                        nlohmann::json parameters)
{
    vrb::ProbeResult r;
    r.probe = std::move(probe);
    r.backend = "cuda";
    r.device = "cuda:0";
    r.metric = std::move(metric);
    r.unit = std::move(unit);
    r.value = value;
    r.parameters = std::move(parameters);
    r.verification = {vrb::Verification::Status::passed, "checked"};
    return r;
}

} // namespace

TEST(ReadableFigures, AllocationLatencyReadsInMicroseconds)
{
    EXPECT_EQ(vrb::readable_figure(0.000116462, "s"), "116.46 µs");
    EXPECT_EQ(vrb::readable_figure(0.0123, "s"), "12.30 ms");
    EXPECT_EQ(vrb::readable_figure(2.5, "s"), "2.50 s");
    EXPECT_EQ(vrb::readable_figure(4.2e-8, "s"), "42.00 ns");
}

TEST(ReadableFigures, BytesReadInBinaryUnitsAndCountsAsIntegers)
{
    EXPECT_EQ(vrb::readable_figure(2147483648.0, "bytes"), "2.00 GiB");
    EXPECT_EQ(vrb::readable_figure(512, "bytes"), "512 B");
    EXPECT_EQ(vrb::readable_figure(1536, "bytes"), "1.50 KiB");
    EXPECT_EQ(vrb::readable_figure(0, "1"), "0");
    EXPECT_EQ(vrb::readable_figure(3, "1"), "3");
    EXPECT_EQ(vrb::readable_figure(54.1326, "GB/s"), "54.13 GB/s");
}

TEST(GoldenOutput, TheRunTableReadsInThePeoplesUnits)
{
    std::string text = vrb::table_header();
    auto stream = result("bandwidth.stream", "bandwidth", "GB/s", 4002.5,
                         {{"operation", "triad"}, {"element_bytes", 16}, {"array_bytes", 1073741824}});
    stream.statistics = vrb::Statistics{5, 3990, 4002.5, 4001, 4010, 8.0, 0.002};
    text += vrb::table_row(stream);
    auto total = result("capacity.report", "capacity", "bytes", 2147483648.0, {{"operation", "total"}});
    total.verification = {vrb::Verification::Status::unverified, "reported by the API"};
    text += vrb::table_row(total);
    text += vrb::table_row(
        result("capacity.alloc-latency", "time", "s", 0.000116462, {{"operation", "allocate"}, {"array_bytes", 4096}}));
    text += vrb::table_row(result("integrity.pattern", "count", "1", 0, {{"operation", "zeros"}}));
    auto chase = result("latency.chase", "latency", "ns", 601.0, {{"operation", "chase"}});
    chase.extra = {{"curve",
                    {{"x", "working_set_bytes"},
                     {"x_unit", "bytes"},
                     {"points",
                      {{{"working_set_bytes", 4096.0}, {"value", 20.2}, {"status", "ok"}},
                       {{"working_set_bytes", 8192.0}, {"value", 21.1}, {"status", "ok"}},
                       {{"working_set_bytes", 16777216.0}, {"value", 601.0}, {"status", "ok"}}}},
                     {"plateaus",
                      {{{"name", "L1"}, {"value", 20.6}, {"from", 4096.0}, {"to", 8192.0}, {"ends_at", 65536.0}},
                       {{"name", "memory"},
                        {"value", 601.0},
                        {"from", 16777216.0},
                        {"to", 16777216.0},
                        {"ends_at", 16777216.0}}}}}}};
    text += vrb::table_row(chase);
    EXPECT_EQ(text, golden("table.txt")) << text;
}

TEST(GoldenOutput, AFailedVerificationShowsWhatRanAndTheFirstWrongLane)
{
    std::string text = vrb::table_header();
    auto copy = result("bandwidth.stream", "bandwidth", "GB/s", 812.25,
                       {{"operation", "copy"},
                        {"element_bytes", 8},
                        {"elements", 4194304},
                        {"array_bytes", 33554432},
                        {"memory_kind", "device"}});
    copy.status = vrb::ProbeResult::Status::verification_failed;
    copy.verification = {vrb::Verification::Status::failed,
                         "1 of 8388608 lanes wrong; first at byte 0xc: 0x5a5a5a5b, expected 0x5a5a5a5a"};
    text += vrb::table_row(copy);
    auto pattern = result("integrity.pattern", "count", "1", 1, {{"operation", "random"}, {"array_bytes", 33554432}});
    pattern.status = vrb::ProbeResult::Status::verification_failed;
    pattern.verification = {vrb::Verification::Status::failed,
                            "1 of 8388608 lanes read back wrong; the first at byte 0x100000"};
    pattern.extra = {{"first_addresses",
                      {{{"byte", 1048576},
                        {"byte_hex", "0x100000"},
                        {"expected", "0x12345678"},
                        {"actual", "0x13345678"},
                        {"flipped_bits", "0x01000000"}}}}};
    text += vrb::table_row(pattern);
    EXPECT_EQ(text, golden("verification_failed.txt")) << text;
}

TEST(GoldenOutput, InfoDescribesADeviceInWordsNotJson)
{
    const auto device = nlohmann::json::parse(golden("device.json"));
    const std::string text = vrb::describe_device_text(device);
    EXPECT_EQ(text, golden("info.txt")) << text;
    EXPECT_EQ(text.find('['), std::string::npos) << "a JSON list in: " << text;
    EXPECT_EQ(text.find('{'), std::string::npos) << "a JSON object in: " << text;
}
