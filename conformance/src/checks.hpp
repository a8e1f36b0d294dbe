// Every check of the kit; kit.cpp lists them in the order they run.
#pragma once

#include <vrambench/conformance/kit.hpp>

namespace vrb::conformance {

// Module checks (abi_checks.cpp, leak_checks.cpp).
void check_entry(const std::filesystem::path &module, Findings &findings);
void check_negotiation(const std::filesystem::path &module, Findings &findings);
void check_table(const std::filesystem::path &module, Findings &findings);
void check_open_close_cycles(const std::filesystem::path &module, Findings &findings);

// Device checks.
void check_description(const Target &target, Findings &findings);  // device_checks.cpp
void check_struct_sizes(const Target &target, Findings &findings); // struct_checks.cpp
void check_elementwise(const Target &target, Findings &findings);  // stream_checks.cpp
void check_reductions(const Target &target, Findings &findings);
void check_large_counts(const Target &target, Findings &findings);
void check_strided(const Target &target, Findings &findings);
void check_gather(const Target &target, Findings &findings);
void check_chase(const Target &target, Findings &findings);
void check_fill_and_check(const Target &target, Findings &findings);
void check_offsets(const Target &target, Findings &findings);
void check_passes(const Target &target, Findings &findings);
void check_incompressible_write(const Target &target, Findings &findings);
void check_transfers(const Target &target, Findings &findings);     // device_checks.cpp
void check_bad_arguments(const Target &target, Findings &findings); // device_checks.cpp
void check_capabilities(const Target &target, Findings &findings);  // capability_checks.cpp
void check_semaphores(const Target &target, Findings &findings);    // semaphore_checks.cpp
void check_export_import(const Target &target, Findings &findings); // interop_checks.cpp
void check_peers(const Target &target, Findings &findings);         // interop_checks.cpp

} // namespace vrb::conformance
