#include <vrambench/core/error.hpp>
#include <vrambench/core/measurement/sizes.hpp>

#include <gtest/gtest.h>

using vrb::parse_size;

TEST(ParseSize, ReadsPlainBytesAndBinaryUnits)
{
    EXPECT_EQ(parse_size("4096"), 4096u);
    EXPECT_EQ(parse_size("256M"), 256ull << 20);
    EXPECT_EQ(parse_size("4GiB"), 4ull << 30);
    EXPECT_EQ(parse_size("1.5G"), 3ull << 29);
    EXPECT_EQ(parse_size("64kb"), 64ull << 10);
    EXPECT_EQ(parse_size(" 2T "), 2ull << 40);
}

TEST(ParseSize, ReadsSizesPastTwoToTheThirtyTwo)
{
    EXPECT_EQ(parse_size("5GiB"), 5ull << 30);
    EXPECT_EQ(parse_size("17179869184"), 1ull << 34);
}

TEST(ParseSize, RefusesZeroNegativeHugeAndNonNumbersWithTheTextInTheMessage)
{
    for (const char *bad : {"0", "-1", "1e30", "abc", "", "12Q", "0.5", "99999999999T", "1.2.3M"}) {
        try {
            parse_size(bad);
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const vrb::UsageError &e) {
            EXPECT_NE(std::string(e.what()).find(std::string("'") + bad + "'"), std::string::npos) << e.what();
        }
    }
}

TEST(FormatSize, PrintsExactMultiplesWithoutDecimals)
{
    EXPECT_EQ(vrb::format_size(256ull << 20), "256 MiB");
    EXPECT_EQ(vrb::format_size(1536ull << 20), "1.5 GiB");
    EXPECT_EQ(vrb::format_size(17), "17 B");
}

TEST(ParseMemoryLimit, ReadsAbsoluteSizesAndPercentagesOfFreeMemory)
{
    EXPECT_EQ(vrb::parse_memory_limit("8G").resolve(100), 8ull << 30);
    EXPECT_EQ(vrb::parse_memory_limit("50%").resolve(1000), 500u);
    EXPECT_EQ(vrb::parse_memory_limit("100%").resolve(1000), 1000u);
}

TEST(ParseMemoryLimit, RefusesZeroOverAHundredPercentAndJunk)
{
    for (const char *bad : {"0%", "101%", "-5%", "x%", "0", "abc"})
        EXPECT_THROW(vrb::parse_memory_limit(bad), vrb::UsageError) << bad;
}
