// A module's own word on its memory clock (plugin.h, VRB_PROPERTY_TRANSFERS_PER_CLOCK):
// the peak from the clock follows it instead of the guess from the API's name.
#include <vrambench/core/planning/peak.hpp>
#include <vrambench/plugin.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace {

// A card of a new API the device table does not know: 2000 MHz, 256 bits.
vrb_device_info new_api_card(const char *transfers_per_clock)
{
    vrb_device_info info{};
    info.struct_size = sizeof info;
    std::snprintf(info.api, sizeof info.api, "Acme");
    std::snprintf(info.name, sizeof info.name, "Acme A1");
    info.known = VRB_KNOWN_BUS_WIDTH | VRB_KNOWN_MEMORY_CLOCK;
    info.memory_bus_width_bits = 256;
    info.memory_clock_khz = 2'000'000;
    if (transfers_per_clock) {
        info.property_count = 1;
        std::snprintf(info.properties[0].key, sizeof info.properties[0].key, "%s", VRB_PROPERTY_TRANSFERS_PER_CLOCK);
        std::snprintf(info.properties[0].value, sizeof info.properties[0].value, "%s", transfers_per_clock);
    }
    return info;
}

} // namespace

TEST(StatedClockConvention, WithoutItTheClockIsReadAsHalfTheDataRate)
{
    const auto peak = vrb::runtime_clock_peak(new_api_card(nullptr));
    ASSERT_TRUE(peak);
    EXPECT_DOUBLE_EQ(peak->gb_per_s, 2 * 2000e6 * 256 / 8 / 1e9);
}

TEST(StatedClockConvention, AModuleThatStatesEightTransfersPerClockGetsItsPeak)
{
    const auto peak = vrb::runtime_clock_peak(new_api_card("8"));
    ASSERT_TRUE(peak);
    EXPECT_DOUBLE_EQ(peak->gb_per_s, 8 * 2000e6 * 256 / 8 / 1e9);
    EXPECT_NE(peak->convention.find("the Acme module states 8 transfers per pin per clock"), std::string::npos)
        << peak->convention;
    const vrb::PeakChoice choice = vrb::choose_peak(new_api_card("1"));
    EXPECT_EQ(choice.source, "runtime-clock");
    EXPECT_DOUBLE_EQ(*choice.gb_per_s, 2000e6 * 256 / 8 / 1e9);
}

TEST(StatedClockConvention, AValueThatIsNoCountFrom1To16IsIgnored)
{
    for (const char *bad : {"0", "17", "two", "4x", ""}) {
        SCOPED_TRACE(bad);
        const auto peak = vrb::runtime_clock_peak(new_api_card(bad));
        ASSERT_TRUE(peak);
        EXPECT_DOUBLE_EQ(peak->transfers_per_clock, 2);
    }
}
