#include <vrambench/core/error.hpp>
#include <vrambench/core/peak.hpp>

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
