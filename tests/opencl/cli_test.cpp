// vrambench with the OpenCL backend end to end: a quick run on the machine's driver is
// verified and valid, and a broken driver beside it (the mock ICD, through
// OCL_ICD_VENDORS) costs its own device's results only, with an error that says why.
#include "run_process.hpp"

#include <vrambench/core/results/schema.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

namespace {

const std::string pocl_cache = std::string("POCL_CACHE_DIR=") + POCL_CACHE;

ProcessResult vrambench_on_pocl(std::vector<std::string> args, std::vector<std::string> env = {})
{
    args.insert(args.begin(), VRAMBENCH_EXE);
    env.push_back(pocl_cache);
    return run_process(args, env);
}

std::filesystem::path temp_dir()
{
    auto dir = std::filesystem::temp_directory_path() / ("vrb-opencl-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    return dir;
}

bool has_opencl_device()
{
    const auto r = vrambench_on_pocl({"list"});
    return r.out.find("opencl:0") != std::string::npos;
}

} // namespace

TEST(OpenclCli, AQuickRunIsVerifiedAndValid)
{
    if (!has_opencl_device()) GTEST_SKIP() << "no OpenCL device here";
    const auto file = temp_dir() / "quick.json";
    const auto r = vrambench_on_pocl({"run", "--backend", "opencl", "--suite", "quick", "-o", file.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
    const auto doc = vrb::read_result_file(file);
    const auto violation = vrb::validate_result_json(doc);
    EXPECT_FALSE(violation) << violation->path << ": " << violation->message;
    ASSERT_GT(doc["results"].size(), 0u);
    // Figures of bytes moved are verified every one; a few others (a free's latency, a
    // reported size) cannot be, and say so, but none may fail.
    std::size_t figures = 0;
    for (const auto &result : doc["results"]) {
        EXPECT_NE(result["status"], "failed") << result.dump();
        EXPECT_NE(result["verification"]["status"], "failed") << result.dump();
        if (result["metric"] != "bandwidth" || result["status"] != "ok") continue;
        ++figures;
        EXPECT_EQ(result["verification"]["status"], "passed") << result.dump();
    }
    EXPECT_GT(figures, 20u);
}

TEST(OpenclCli, APlatformWithoutDevicesIsNamedWhenNothingElseIsThere)
{
    const std::string dir = temp_dir() / "vendors-empty";
    std::filesystem::create_directories(dir);
    std::filesystem::copy_file(std::string(VENDORS_NO_DEVICE) + "/mock-no_device.icd", dir + "/mock-no_device.icd",
                               std::filesystem::copy_options::overwrite_existing);
    const auto r = vrambench_on_pocl({"list"}, {"OCL_ICD_VENDORS=" + dir});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("Mock platform without devices: no device (CL_DEVICE_NOT_FOUND"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("host:0"), std::string::npos) << "the other backends stay\n" << r.out;
}

TEST(OpenclCli, APlatformWithoutDevicesBesideARealOneLeavesTheRealDevices)
{
    if (!has_opencl_device()) GTEST_SKIP() << "no OpenCL device here";
    const auto r = vrambench_on_pocl({"list"}, {std::string("OCL_ICD_VENDORS=") + VENDORS_NO_DEVICE});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("opencl:0"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("Mock"), std::string::npos) << r.out;
}

TEST(OpenclCli, ADriverThatRefusesTheKernelsFailsItsDeviceWithTheBuildLogAndTheOthersResultsStay)
{
    const auto file = temp_dir() / "bad-compiler.json";
    const auto r = vrambench_on_pocl({"run", "--backend", "host", "--backend", "opencl", "--suite", "quick", "--probe",
                                      "bandwidth.stream", "--size", "1M", "-o", file.string()},
                                     {std::string("OCL_ICD_VENDORS=") + VENDORS_BAD_COMPILER});
    EXPECT_NE(r.exit_code, 0) << "a failed device is a failed run\n" << r.out;
    const std::string all = r.out + r.err;
    EXPECT_NE(all.find("refused the kernels"), std::string::npos) << all;
    EXPECT_NE(all.find("this driver compiles nothing"), std::string::npos) << "the build log is in the error\n" << all;
    ASSERT_TRUE(std::filesystem::exists(file)) << all;
    const auto doc = vrb::read_result_file(file);
    const auto violation = vrb::validate_result_json(doc);
    EXPECT_FALSE(violation) << violation->path << ": " << violation->message;
    std::size_t host_passed = 0;
    for (const auto &result : doc["results"])
        if (result["device"] == "host:0" && result["verification"]["status"] == "passed") ++host_passed;
    EXPECT_GT(host_passed, 0u) << doc["results"].dump(1);
    // PoCL's device sits beside the mock in that vendors folder when this machine has it.
    if (!has_opencl_device()) return;
    std::size_t real_passed = 0;
    for (const auto &result : doc["results"])
        if (result["backend"] == "opencl" && result["verification"]["status"] == "passed") ++real_passed;
    EXPECT_GT(real_passed, 0u) << doc["results"].dump(1);
}

// NVIDIA's compiler logs each kernel's registers when asked (-cl-nv-verbose); they bound
// the groups a unit keeps resident, so several passes never spill into a second wave.
TEST(OpenclCli, NvidiasBuildLogGivesEachKernelTheGroupsItsRegistersLeaveRoomFor)
{
    const auto r = vrambench({"run", "--backend", "opencl", "--suite", "quick", "--probe", "bandwidth.stream", "--size",
                              "1M", "--format", "json"},
                             {std::string("OCL_ICD_VENDORS=") + MOCK_ONLY_NV_VERBOSE, "VRAMBENCH_LOG=debug"});
    EXPECT_NE(r.err.find("registers a work-item, from the driver's build log"), std::string::npos)
        << "the mock builds only with -cl-nv-verbose\n"
        << r.err;
    EXPECT_NE(r.err.find("read_w4 48 (5 groups a unit)"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("copy_w1 30 (8 groups a unit)"), std::string::npos) << r.err;
    EXPECT_EQ(r.exit_code, 3) << "the mock allocates nothing: a failed device, not a crash\n" << r.err;
    EXPECT_EQ(r.err.find("crashed"), std::string::npos) << r.err;
}
