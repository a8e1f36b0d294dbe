// How the CUDA/HIP module describes a device, its host code run against the recording
// stand-in of its runtime (standin/): an SM's L1, which no runtime reports, is listed
// per unit below the runtime's L2, so a sweep's plateau in the SMs' L1s is named L1.
#include "backend.hpp"

#include <vrambench/plugin.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace {

TEST(DescribedGpu, ListsEachSmsL1FromTheTableBelowTheL2TheRuntimeReports)
{
    vrb_device_info info{};
    vrb::gpu::describe_device(0, info);
    ASSERT_GE(info.cache_count, 2u);
    const vrb_cache_info &l1 = info.caches[0];
    EXPECT_EQ(l1.level, 1u);
    EXPECT_EQ(l1.bytes, 256u << 10); // the stand-in's SMs are compute capability 9.0's
    EXPECT_EQ(l1.shared_by, 1u);
    EXPECT_EQ(std::string(l1.kind), "data");
    EXPECT_EQ(info.caches[1].level, 2u);
    bool noted = false;
    for (uint32_t i = 0; i < info.property_count; ++i)
        noted = noted || (std::string(info.properties[i].key) == "l1_per_compute_unit" &&
                          std::string(info.properties[i].value).find("Hopper") != std::string::npos);
    EXPECT_TRUE(noted) << "the L1's source is not among the device's properties";
}

} // namespace

namespace {

// The stand-in reads the banner an NVIDIA driver would from a file of the test's own.
class KernelDriverBanner {
  public:
    explicit KernelDriverBanner(const std::string &banner)
        : file_(std::filesystem::temp_directory_path() /
                ("vrb-standin-driver-version-" + std::to_string(::getpid()) + "-" + std::to_string(count_++)))
    {
        std::ofstream(file_) << banner << "\nGCC version:  gcc version 13.3.0 (Ubuntu 13.3.0-6ubuntu2~24.04)\n";
        path_ = file_.string();
        vrb::gpu::vendor::kKernelDriverFile = path_.c_str();
        vrb::gpu::vendor::kKernelDriverMarker = "Kernel Module";
    }
    ~KernelDriverBanner()
    {
        vrb::gpu::vendor::kKernelDriverFile = "/nonexistent/standin-driver-version";
        vrb::gpu::vendor::kKernelDriverMarker = nullptr;
        std::filesystem::remove(file_);
    }

  private:
    static inline int count_ = 0;
    std::filesystem::path file_;
    std::string path_;
};

std::string driver_digest(const std::string &banner)
{
    const KernelDriverBanner file(banner);
    const vrb::gpu::CardIdentity identity = vrb::gpu::card_identity(0);
    return std::string(reinterpret_cast<const char *>(identity.driver) + 8, 8);
}

TEST(DescribedGpu, NamesTheOpenKernelModulesVersionAsItsDriverVersion)
{
    const KernelDriverBanner file("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build");
    vrb_device_info info{};
    vrb::gpu::describe_device(0, info);
    EXPECT_EQ(std::string(info.driver_version).rfind("580.159.04", 0), 0u) << info.driver_version;
    EXPECT_TRUE(info.known & VRB_KNOWN_DRIVER_VERSION);
}

// The interop driver identity digests the parsed version: two builds of one version
// agree, two versions differ (a digest of the word after the marker, "for", made every
// open module's version one).
TEST(DescribedGpu, DigestsTheKernelDriversParsedVersionIntoTheInteropDriverIdentity)
{
    const std::string built_here = driver_digest("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  "
                                                 "Release Build  (dvs-builder@U16-A24-9-2)");
    const std::string built_there = driver_digest("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04 "
                                                  " Release Build  (archlinux-builder@localhost)");
    const std::string older =
        driver_digest("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  565.57.01  Release Build  "
                      "(dvs-builder@U16-A24-9-2)  Thu Oct 10 12:15:00 UTC 2024");
    const std::string proprietary = driver_digest("NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04");
    EXPECT_EQ(built_here, built_there);
    EXPECT_NE(built_here, older);
    EXPECT_EQ(built_here, proprietary); // one version, whichever module flavour printed it
}

} // namespace
