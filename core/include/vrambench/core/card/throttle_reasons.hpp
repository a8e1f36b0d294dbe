// Why a card's clocks were held down: one table of the names a result records, for the
// sources that write them (nvml_source.cpp, the runner's clocked-down) and every reader
// (the runner's `throttled`, `health`), so no reader can know a name no source writes.
//
// The classes follow NVIDIA's DCGM diagnostic: `dcgmi diag` fails a test when one of
// HW_SLOWDOWN, SW_THERMAL, HW_THERMAL or HW_POWER_BRAKE held the card during it (the four
// its --clocksevent-mask, formerly --throttle-mask, can waive); the other reasons are the
// card doing what it was set or asked to do.
#pragma once

#include <string_view>

namespace vrb {

enum class ThrottleClass {
    slowdown, // heat or a hardware signal held the card: a figure measured under it is not the card's
    limit,    // the card held at its power limit (or, in this run, clocked down idle): its figures
              // say whether it mattered
    setting,  // idle, clocks an operator or a display set, a group's boost: nothing is wrong
};

struct ThrottleReason {
    std::string_view name;       // as a result records it
    unsigned long long nvml_bit; // nvmlClocksEventReasons (formerly ThrottleReasons); 0: not NVML's
    ThrottleClass kind;
    std::string_view meaning;
};

// The runner's own reason (telemetry.hpp, with_clocked_down): no driver reports it.
inline constexpr const char *kClockedDownReason = "clocked-down";

inline constexpr ThrottleReason kThrottleReasons[] = {
    {"idle", 0x1, ThrottleClass::setting, "nothing ran: the clocks dropped to idle"},
    {"applications-clocks", 0x2, ThrottleClass::setting, "clocks set by nvidia-smi -ac"},
    {"power-cap", 0x4, ThrottleClass::limit, "the clocks held under the board's power limit"},
    {"hw-slowdown", 0x8, ThrottleClass::slowdown, "a hardware slowdown signal (heat, power brake, supply)"},
    {"sync-boost", 0x10, ThrottleClass::setting, "boost held to the slowest card of a sync-boost group"},
    {"sw-thermal", 0x20, ThrottleClass::slowdown, "the driver slowed the card for its temperature"},
    {"hw-thermal", 0x40, ThrottleClass::slowdown, "the hardware slowed the card for its temperature"},
    {"hw-power-brake", 0x80, ThrottleClass::slowdown, "an external power brake signal"},
    {"display-clocks", 0x100, ThrottleClass::setting, "clocks held for a display"},
    {kClockedDownReason, 0, ThrottleClass::limit,
     "the core clock during the timed runs was under 0.75 of the run's peak (the runner's own finding)"},
};

// The entry of a recorded name; null for a name no source writes.
constexpr const ThrottleReason *throttle_reason(std::string_view name)
{
    for (const ThrottleReason &r : kThrottleReasons)
        if (r.name == name) return &r;
    return nullptr;
}

} // namespace vrb
