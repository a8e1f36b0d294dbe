#include <vrambench/core/publishing/rank_test.hpp>

#include <gtest/gtest.h>

#include <vector>

using vrb::mann_whitney;
using vrb::RankTest;

TEST(RankTest, FiveSamplesEachWithoutOverlapDifferAtTheExactP)
{
    // Only 2 of the C(10,5) = 252 orderings are this extreme, one each way.
    const std::vector<double> a{1, 2, 3, 4, 5}, b{6, 7, 8, 9, 10};
    const RankTest t = mann_whitney(a, b);
    ASSERT_TRUE(t.p);
    EXPECT_TRUE(t.exact);
    EXPECT_NEAR(*t.p, 2.0 / 252, 1e-12);
    EXPECT_EQ(t.verdict, RankTest::Verdict::beyond_noise);
}

TEST(RankTest, InterleavedSamplesAreWithinNoise)
{
    // U = 10 of 25; 87 of the 252 orderings have U <= 10.
    const std::vector<double> a{1, 3, 5, 7, 9}, b{2, 4, 6, 8, 10};
    const RankTest t = mann_whitney(a, b);
    ASSERT_TRUE(t.p);
    EXPECT_NEAR(*t.p, 2.0 * 87 / 252, 1e-12);
    EXPECT_EQ(t.verdict, RankTest::Verdict::within_noise);
}

TEST(RankTest, ThreeSamplesASideCannotReachFivePercent)
{
    // Even with no overlap, 2 of C(6,3) = 20 orderings: p = 0.1.
    const std::vector<double> a{1, 2, 3}, b{4, 5, 6};
    const RankTest t = mann_whitney(a, b);
    ASSERT_TRUE(t.p);
    EXPECT_NEAR(*t.p, 0.1, 1e-12);
    EXPECT_EQ(t.verdict, RankTest::Verdict::within_noise);
}

TEST(RankTest, UnequalSidesUseTheExactDistribution)
{
    // U = 1: 4 of the C(7,3) = 35 orderings have U <= 1 or >= 11.
    const std::vector<double> a{1, 2, 4}, b{3, 5, 6, 7};
    const RankTest t = mann_whitney(a, b);
    ASSERT_TRUE(t.p);
    EXPECT_NEAR(*t.p, 4.0 / 35, 1e-12);
}

TEST(RankTest, TiesUseTheNormalApproximationWithTheTieCorrection)
{
    // U = 8 (a's 1s and 2s lose to every b; its 3s tie b's 3s, its 4s beat b's 3s and
    // tie b's 4s), mean 32; tied groups of 2, 2, 4, 4, 2, 2 values: variance
    // 64/12 x (17 - 144/240) = 87.4667.
    const std::vector<double> a{1, 1, 2, 2, 3, 3, 4, 4}, b{3, 3, 4, 4, 5, 5, 6, 6};
    const RankTest t = mann_whitney(a, b);
    ASSERT_TRUE(t.p);
    EXPECT_FALSE(t.exact);
    // z = (|8 - 32| - 0.5) / sqrt(87.4667) = 2.51273; p = erfc(z / sqrt 2).
    EXPECT_NEAR(*t.p, 0.0119800, 1e-6);
    EXPECT_EQ(t.verdict, RankTest::Verdict::beyond_noise);
}

TEST(RankTest, IdenticalSamplesAreWithinNoise)
{
    const std::vector<double> a{5, 5, 5}, b{5, 5, 5, 5};
    const RankTest t = mann_whitney(a, b);
    ASSERT_TRUE(t.p);
    EXPECT_EQ(*t.p, 1.0);
    EXPECT_EQ(t.verdict, RankTest::Verdict::within_noise);
}

TEST(RankTest, FewerThanThreeSamplesOnASideAreTooFew)
{
    const std::vector<double> two{1, 2}, many{3, 4, 5, 6, 7};
    EXPECT_EQ(mann_whitney(two, many).verdict, RankTest::Verdict::too_few_samples);
    EXPECT_FALSE(mann_whitney(many, two).p);
    EXPECT_EQ(vrb::to_string(RankTest::Verdict::too_few_samples), "too few samples");
}

TEST(RankTest, ThirtySamplesASideStillUseTheExactDistribution)
{
    std::vector<double> a, b;
    for (int i = 0; i < 30; ++i) {
        a.push_back(i);
        b.push_back(i + 100);
    }
    const RankTest t = mann_whitney(a, b);
    EXPECT_TRUE(t.exact);
    ASSERT_TRUE(t.p);
    EXPECT_GT(*t.p, 0);
    EXPECT_LT(*t.p, 1e-15); // 2 / C(60, 30)
}
