#include <vrambench/core/error.hpp>
#include <vrambench/core/planning/peak.hpp>

#include <gtest/gtest.h>

// Known cards: the clock a runtime reports is half the per-pin data rate.
TEST(PeakBandwidth, MatchesAnRtx4090FromItsReportedClock)
{
    EXPECT_NEAR(vrb::peak_from_reported_clock(10501, 384).gb_per_s, 1008.1, 0.1);
}

TEST(PeakBandwidth, MatchesAnRtx4090FromItsDatasheetRateWithoutDoublingAgain)
{
    EXPECT_NEAR(vrb::peak_from_data_rate(21, 384).gb_per_s, 1008.0, 1e-9);
}

TEST(PeakBandwidth, MatchesAnA100Of40Gigabytes)
{
    // HBM2 at 1215 MHz on 5120 bits: 1555 GB/s.
    EXPECT_NEAR(vrb::peak_from_reported_clock(1215, 5120).gb_per_s, 1555.2, 0.1);
}

TEST(PeakBandwidth, MatchesAnH100Sxm)
{
    // HBM3 at 2619 MHz on 5120 bits: 3352 GB/s (3.35 TB/s by the datasheet).
    EXPECT_NEAR(vrb::peak_from_reported_clock(2619, 5120).gb_per_s, 3352.3, 0.1);
}

TEST(PeakBandwidth, SaysWhichConventionItApplied)
{
    EXPECT_NE(vrb::peak_from_reported_clock(10501, 384).convention.find("half the per-pin"), std::string::npos);
    EXPECT_NE(vrb::peak_from_data_rate(21, 384).convention.find("not doubled"), std::string::npos);
}

TEST(PeakBandwidth, RefusesZeroAndNegativeInputs)
{
    EXPECT_THROW(vrb::peak_from_reported_clock(0, 384), vrb::UsageError);
    EXPECT_THROW(vrb::peak_from_data_rate(21, -1), vrb::UsageError);
}

#include "described_device.hpp"

using vrb::test::describe;

TEST(PeakBandwidth, ReadsHipsHbm3ClockAsAQuarterOfThePerPinRate)
{
    const auto convention = vrb::clock_convention("HIP", vrb::MemoryType::hbm3);
    EXPECT_EQ(convention.transfers_per_clock, 4);
    EXPECT_NEAR(vrb::peak_from_clock(1300, 8192, convention).gb_per_s, 5324.8, 0.1);
    // The same memory through CUDA, and HBM2e through HIP, report half the rate.
    EXPECT_EQ(vrb::clock_convention("CUDA", vrb::MemoryType::hbm3).transfers_per_clock, 2);
    EXPECT_EQ(vrb::clock_convention("HIP", vrb::MemoryType::hbm2e).transfers_per_clock, 2);
    EXPECT_NEAR(vrb::peak_from_clock(1600, 4096, vrb::clock_convention("HIP", vrb::MemoryType::hbm2e)).gb_per_s, 1638.4,
                0.1);
}

TEST(PeakChoice, TakesAnH200sDatasheetAndFindsItsRuntimeClockInAgreement)
{
    const vrb::PeakChoice p = describe(vrb::test::h200()).peak();
    EXPECT_EQ(p.source, "datasheet");
    EXPECT_DOUBLE_EQ(*p.gb_per_s, 4800);
    EXPECT_NEAR(*p.runtime_gb_per_s, 4916.7, 0.1); // 2 x 3201 MHz x 6144 / 8
    EXPECT_FALSE(p.disagreement);
    EXPECT_NE(p.convention.find("NVIDIA H200 Tensor Core GPU datasheet"), std::string::npos) << p.convention;
}

TEST(PeakChoice, TakesAnMi300xsDatasheetAndReadsItsHipClockByItsMemoryType)
{
    const vrb::PeakChoice p = describe(vrb::test::mi300x()).peak();
    EXPECT_EQ(p.source, "datasheet");
    EXPECT_DOUBLE_EQ(*p.gb_per_s, 5300);
    EXPECT_NEAR(*p.runtime_gb_per_s, 5324.8, 0.1);
    EXPECT_FALSE(p.disagreement) << p.note;
}

TEST(PeakChoice, FlagsARuntimeClockMoreThanTenPercentOffTheDatasheet)
{
    auto d = vrb::test::mi300x();
    d.api = "Vulkan"; // a runtime read with the doubling rule: 2.66 TB/s
    const vrb::PeakChoice p = describe(d).peak();
    EXPECT_EQ(p.source, "datasheet");
    EXPECT_TRUE(p.disagreement);
    EXPECT_NE(p.note.find("50 % off"), std::string::npos) << p.note;
}

TEST(PeakChoice, FallsBackToTheRuntimeClockForAnAmbiguousMatchAndSaysSo)
{
    vrb::test::Description a770;
    a770.api = "Vulkan";
    a770.vendor = 0x8086;
    a770.device = 0x56a0;
    a770.bus_bits = 256;
    a770.memory_clock_mhz = 8750;
    const vrb::PeakChoice p = describe(a770).peak();
    EXPECT_EQ(p.source, "runtime-clock");
    EXPECT_NEAR(*p.gb_per_s, 560, 0.1);
    EXPECT_FALSE(p.datasheet_gb_per_s);
    EXPECT_NE(p.note.find("any of"), std::string::npos) << p.note;
}

TEST(PeakChoice, GivesAPartitionNoDatasheetPeak)
{
    auto mig = vrb::test::h200();
    mig.memory_gib = 17.5;
    mig.compute_units = 16;
    const vrb::PeakChoice p = describe(mig).peak();
    EXPECT_TRUE(p.partitioned);
    EXPECT_FALSE(p.datasheet_gb_per_s);
    EXPECT_EQ(p.source, "runtime-clock");
}

TEST(PeakChoice, SaysNoneWhenNeitherTheTableNorTheRuntimeKnows)
{
    vrb::test::Description unknown;
    unknown.api = "host";
    const vrb::PeakChoice p = describe(unknown).peak();
    EXPECT_EQ(p.source, "none");
    EXPECT_FALSE(p.gb_per_s);
}

TEST(PeakChoice, RefusesARuntimeBusWiderThanAnyCardAsImplausibleAndJudgesNothingAgainstIt)
{
    vrb::test::Description unknown;
    unknown.api = "acme";
    vrb::DeviceRecord r = describe(unknown);
    r.info.memory_bus_width_bits = UINT32_MAX;
    r.info.memory_clock_khz = UINT32_MAX;
    r.info.known |= VRB_KNOWN_BUS_WIDTH | VRB_KNOWN_MEMORY_CLOCK;
    const vrb::PeakChoice p = r.peak();
    EXPECT_EQ(p.source, "none");
    EXPECT_FALSE(p.gb_per_s);
    EXPECT_FALSE(p.runtime_gb_per_s);
    EXPECT_NE(p.note.find("refused as implausible: a 4294967295-bit bus is wider than any card's (16384 bits)"),
              std::string::npos)
        << p.note;
}

TEST(PeakChoice, RefusesARuntimeClockWhosePeakPassesAHundredTerabytesAsImplausible)
{
    vrb::test::Description unknown;
    unknown.api = "acme";
    vrb::DeviceRecord r = describe(unknown);
    r.info.memory_bus_width_bits = 8192;
    r.info.memory_clock_khz = 4000000000u; // 4 THz
    r.info.known |= VRB_KNOWN_BUS_WIDTH | VRB_KNOWN_MEMORY_CLOCK;
    const vrb::PeakChoice p = r.peak();
    EXPECT_FALSE(p.gb_per_s);
    EXPECT_NE(p.note.find("past the 100000 GB/s of any card"), std::string::npos) << p.note;
    // The same bus at an HBM3 card's clock is believed.
    r.info.memory_clock_khz = 2600000;
    EXPECT_NEAR(*r.peak().gb_per_s, 5324.8, 0.1);
}

TEST(PeakChoice, KeepsAKnownCardsDatasheetAndSaysItsImplausibleRuntimeClockWasRefused)
{
    vrb::DeviceRecord r = describe(vrb::test::h200());
    r.info.memory_bus_width_bits = UINT32_MAX;
    const vrb::PeakChoice p = r.peak();
    EXPECT_EQ(p.source, "datasheet");
    EXPECT_FALSE(p.runtime_gb_per_s);
    EXPECT_FALSE(p.disagreement);
    EXPECT_NE(p.note.find("refused as implausible"), std::string::npos) << p.note;
}

TEST(PeakBandwidth, ReadsAGddr7ClockByTheHalvingRuleAndSaysThatIsUnconfirmed)
{
    const auto convention = vrb::clock_convention("CUDA", vrb::MemoryType::gddr7);
    EXPECT_EQ(convention.transfers_per_clock, 2);
    EXPECT_NE(convention.text.find("GDDR7"), std::string::npos) << convention.text;
    EXPECT_NE(convention.text.find("unconfirmed"), std::string::npos) << convention.text;
}

TEST(PeakChoice, KeepsAnRtx5090sDatasheetWhateverItsGddr7ClockReads)
{
    vrb::test::Description d;
    d.vendor = 0x10de;
    d.device = 0x2b85;
    d.memory_gib = 31.84;
    d.bus_bits = 512;
    d.memory_clock_mhz = 14001; // 2 x 14001 MHz x 512 / 8 = 1792 GB/s
    d.name = "NVIDIA GeForce RTX 5090";
    vrb::PeakChoice p = describe(d).peak();
    EXPECT_EQ(p.source, "datasheet");
    EXPECT_DOUBLE_EQ(*p.gb_per_s, 1792);
    EXPECT_FALSE(p.disagreement) << p.note;
    // A clock read by another convention moves only the runtime's figure, and is flagged.
    d.memory_clock_mhz = 7000;
    p = describe(d).peak();
    EXPECT_DOUBLE_EQ(*p.gb_per_s, 1792);
    EXPECT_TRUE(p.disagreement) << p.note;
    EXPECT_NE(p.note.find("unconfirmed"), std::string::npos) << p.note;
}
