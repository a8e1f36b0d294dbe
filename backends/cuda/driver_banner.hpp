// The kernel driver's version as its banner file spells it. NVIDIA's
// /proc/driver/nvidia/version begins with one of several banners, by module flavour and
// architecture:
//   "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05  Tue Sep 23 ..."
//   "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build ..."
//   "NVRM version: NVIDIA UNIX Kernel Module for aarch64  34.1.1  Release Build ..."
// so the version is not a fixed word after the marker: it is the first word after it
// that reads as a version. Plain C++, so every form is tested without a driver.
#pragma once

#include <string>
#include <string_view>

namespace vrb::gpu {

// The first word after `marker` in `line` made of digits and dots with at least one dot
// and digits at both ends ("580.159.04", "550.120"); empty where the marker is missing or
// no such word follows it. An empty `marker` looks from the start of the line.
std::string version_after_marker(std::string_view line, std::string_view marker);

} // namespace vrb::gpu
