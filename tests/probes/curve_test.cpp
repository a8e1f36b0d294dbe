// One result per curve: its verification says passed only when every point passed, so a
// point that never verified (its run failed) keeps the curve from passing.
#include "curve.hpp"

#include <gtest/gtest.h>

namespace {

vrb::ProbeResult verified_point(double value)
{
    vrb::ProbeResult p;
    p.value = value;
    p.verification = {vrb::Verification::Status::passed, "all lanes match the host"};
    return p;
}

vrb::ProbeResult failed_point()
{
    vrb::ProbeResult p;
    p.status = vrb::ProbeResult::Status::failed;
    p.error = "the module refused the operation";
    p.verification = {vrb::Verification::Status::unverified, "the operation did not complete"};
    return p;
}

} // namespace

TEST(Curve, PassesVerificationWhenEveryPointPassed)
{
    vrb::Curve curve("working_set_bytes", "bytes");
    curve.add(4096, verified_point(10));
    curve.add(8192, verified_point(12));
    const vrb::ProbeResult r = curve.finish({}, nullptr);
    EXPECT_EQ(r.status, vrb::ProbeResult::Status::ok);
    EXPECT_EQ(r.verification.status, vrb::Verification::Status::passed);
    EXPECT_EQ(r.verification.detail, "all 2 points verified");
}

TEST(Curve, IsNotVerifiedWhenOnePointsRunFailed)
{
    vrb::Curve curve("working_set_bytes", "bytes");
    curve.add(4096, verified_point(10));
    curve.add(8192, failed_point());
    curve.add(16384, verified_point(12));
    const vrb::ProbeResult r = curve.finish({}, nullptr);
    EXPECT_EQ(r.status, vrb::ProbeResult::Status::failed);
    EXPECT_EQ(r.error.value_or(""), "at working_set_bytes 8192: the module refused the operation");
    EXPECT_EQ(r.verification.status, vrb::Verification::Status::unverified);
    EXPECT_EQ(r.verification.detail, "2 of 3 points verified");
}

TEST(Curve, IsNotVerifiedWithoutPoints)
{
    const vrb::ProbeResult r = vrb::Curve("working_set_bytes", "bytes").finish({}, nullptr);
    EXPECT_EQ(r.verification.status, vrb::Verification::Status::unverified);
}

TEST(Curve, NamesItsSlowestAndItsLastFigureWithTheirXAndIndex)
{
    vrb::Curve curve("offset_bytes", "bytes");
    EXPECT_EQ(curve.headline(vrb::analysis::HeadlineRule::slowest).point, nullptr);
    curve.add(0, verified_point(30));
    curve.add(4, verified_point(10));
    curve.add(8, failed_point()); // no figure: never the headline
    curve.add(256, verified_point(29));
    curve.add(260, failed_point());
    const vrb::Curve::Headline slowest = curve.headline(vrb::analysis::HeadlineRule::slowest);
    ASSERT_NE(slowest.point, nullptr);
    EXPECT_EQ(slowest.x, 4);
    EXPECT_EQ(slowest.index, 1u);
    EXPECT_EQ(*slowest.point->value, 10);
    const vrb::Curve::Headline last = curve.headline(vrb::analysis::HeadlineRule::last);
    ASSERT_NE(last.point, nullptr);
    EXPECT_EQ(last.x, 256);
    EXPECT_EQ(last.index, 3u);
}
