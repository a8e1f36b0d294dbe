// `run` says on stderr which probe took far longer than its plan estimated: a mock device
// whose every run takes 40 ms, far slower than any plan assumes of a GPU.
#include "run_process.hpp"

#include <gtest/gtest.h>

TEST(EstimateWarning, ARunNamesAProbeThatTookOverThreeTimesItsEstimate)
{
    const ProcessResult run = vrambench({"run", "--plugin", MOCK_MULTI_PATH, "--device", "multi:0", "--probe",
                                         "bandwidth.stream", "--size", "64K", "--reps", "1", "--format", "json"},
                                        {"VRAMBENCH_MOCK_DEVICES=1", "VRAMBENCH_MOCK_RUN_MS=40"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_TRUE(contains(run.err, "vrambench: warning: bandwidth.stream on multi:0 took")) << run.err;
    EXPECT_TRUE(contains(run.err, "x its plan's")) << run.err;
}
