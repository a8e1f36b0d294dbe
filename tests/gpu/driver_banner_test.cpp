// The NVIDIA kernel driver's version read from each banner its version file has shown,
// proprietary and open modules, with and without the architecture word, x86_64 and
// aarch64. Each line is a real banner as machines printed it.
#include "driver_banner.hpp"

#include <gtest/gtest.h>

namespace {

constexpr const char *marker = "Kernel Module";

TEST(DriverBanner, ReadsTheVersionFromTheProprietaryModulesBanner)
{
    EXPECT_EQ(vrb::gpu::version_after_marker(
                  "NVRM version: NVIDIA UNIX x86_64 Kernel Module  525.60.13  Wed Nov 30 06:39:21 UTC 2022", marker),
              "525.60.13");
    EXPECT_EQ(vrb::gpu::version_after_marker(
                  "NVRM version: NVIDIA UNIX x86_64 Kernel Module  590.48.01  Mon Dec  8 11:22:45 UTC 2025", marker),
              "590.48.01");
    // Two parts, as some releases are numbered.
    EXPECT_EQ(vrb::gpu::version_after_marker(
                  "NVRM version: NVIDIA UNIX x86_64 Kernel Module  510.54  Wed Apr  1 20:04:33 UTC 2020", marker),
              "510.54");
    EXPECT_EQ(vrb::gpu::version_after_marker(
                  "NVRM version: NVIDIA UNIX aarch64 Kernel Module  550.120  Fri Sep 13 11:01:10 UTC 2024", marker),
              "550.120");
}

TEST(DriverBanner, ReadsTheVersionFromTheOpenModulesBannerWhereTheArchitectureFollowsTheMarker)
{
    // The H200's driver, as far as its banner was recorded: the word after the marker
    // is "for", which a reader of the next word took for the version.
    EXPECT_EQ(vrb::gpu::version_after_marker(
                  "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build", marker),
              "580.159.04");
    EXPECT_EQ(vrb::gpu::version_after_marker("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  565.57.01  "
                                             "Release Build  (dvs-builder@U16-A24-9-2)  Thu Oct 10 12:15:00 UTC 2024",
                                             marker),
              "565.57.01");
    EXPECT_EQ(vrb::gpu::version_after_marker(
                  "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  525.60.11  Release Build  "
                  "(archlinux-builder@localhost)  ",
                  marker),
              "525.60.11");
    EXPECT_EQ(
        vrb::gpu::version_after_marker("NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  550.144.03  "
                                       "Release Build  (dvs-builder@U16-I2-C01-12-4)  Mon Dec 30 17:33:24 UTC 2024",
                                       marker),
        "550.144.03");
    // A Jetson's (L4T) module: no "Open", the architecture after "for".
    EXPECT_EQ(vrb::gpu::version_after_marker("NVRM version: NVIDIA UNIX Kernel Module for aarch64  34.1.1  Release "
                                             "Build  (buildbrain@mobile-u64-5414-d7000)  Mon May 16 21:12:24 PDT 2022",
                                             marker),
              "34.1.1");
}

TEST(DriverBanner, ReadsTheVersionWithNoArchitectureWordAndWithOneBlankBetweenWords)
{
    EXPECT_EQ(vrb::gpu::version_after_marker(
                  "NVRM version: NVIDIA UNIX Kernel Module  580.126.09  Wed Jan  7 22:51:36 UTC 2026", marker),
              "580.126.09");
    EXPECT_EQ(
        vrb::gpu::version_after_marker("NVRM version: NVIDIA UNIX Open Kernel Module for aarch64 550.90.07", marker),
        "550.90.07");
    EXPECT_EQ(vrb::gpu::version_after_marker("NVRM version: NVIDIA UNIX Open Kernel Module\t580.65.06\tRelease Build",
                                             marker),
              "580.65.06");
}

TEST(DriverBanner, SaysNothingWhereNoVersionFollowsTheMarkerOrTheMarkerIsMissing)
{
    EXPECT_EQ(vrb::gpu::version_after_marker("NVRM version: NVIDIA UNIX Kernel Module", marker), "");
    // Neither the build host, the time nor the year reads as a version.
    EXPECT_EQ(vrb::gpu::version_after_marker(
                  "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  Release Build  (dvs-builder@U16-A24-9-2)  "
                  "Thu Oct 10 12:15:00 UTC 2024",
                  marker),
              "");
    EXPECT_EQ(vrb::gpu::version_after_marker("GCC version:  gcc version 13.3.0 (Ubuntu 13.3.0-6ubuntu2~24.04)", marker),
              "");
    EXPECT_EQ(vrb::gpu::version_after_marker("", marker), "");
    // A version before the marker is not the module's.
    EXPECT_EQ(vrb::gpu::version_after_marker("NVRM 1.2.3 Kernel Module for x86_64 Release 1.", marker), "");
}

} // namespace
