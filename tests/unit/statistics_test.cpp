#include <vrambench/core/measurement/statistics.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

TEST(Statistics, SummarizesOddAndEvenSampleCounts)
{
    const std::vector<double> odd{5, 1, 3};
    const auto s = vrb::summarize(odd);
    EXPECT_EQ(s.count, 3u);
    EXPECT_DOUBLE_EQ(s.min, 1);
    EXPECT_DOUBLE_EQ(s.median, 3);
    EXPECT_DOUBLE_EQ(s.mean, 3);
    EXPECT_DOUBLE_EQ(s.max, 5);
    EXPECT_DOUBLE_EQ(s.stddev, 2);
    EXPECT_NEAR(s.cv, 2.0 / 3.0, 1e-12);
    const std::vector<double> even{4, 1, 2, 3};
    EXPECT_DOUBLE_EQ(vrb::summarize(even).median, 2.5);
}

TEST(Statistics, GivesZeroSpreadForOneSample)
{
    const std::vector<double> one{7};
    const auto s = vrb::summarize(one);
    EXPECT_DOUBLE_EQ(s.stddev, 0);
    EXPECT_DOUBLE_EQ(s.median, 7);
}

TEST(Statistics, RefusesNoSamplesAndNonFiniteSamples)
{
    EXPECT_THROW(vrb::summarize(std::vector<double>{}), std::invalid_argument);
    EXPECT_THROW(vrb::summarize(std::vector<double>{1, std::numeric_limits<double>::infinity()}),
                 std::invalid_argument);
    EXPECT_THROW(vrb::summarize(std::vector<double>{std::nan("")}), std::invalid_argument);
}

TEST(Statistics, PicksTheEstimatorAskedFor)
{
    const auto s = vrb::summarize(std::vector<double>{1, 2, 9});
    EXPECT_DOUBLE_EQ(vrb::pick(s, vrb::Estimator::median), 2);
    EXPECT_DOUBLE_EQ(vrb::pick(s, vrb::Estimator::max), 9);
    EXPECT_DOUBLE_EQ(vrb::pick(s, vrb::Estimator::min), 1);
    EXPECT_DOUBLE_EQ(vrb::pick(s, vrb::Estimator::mean), 4);
}
