// Finding the plateaus of a curve: the flat stretches of bandwidth or latency against
// working-set size that each cache level and device memory make, and where each ends.
#pragma once

#include <vrambench/core/measurement/tlb_reach.hpp>
#include <vrambench/plugin.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace vrb {

struct CurvePoint {
    double x = 0; // working-set bytes, stride, offset ...
    double y = 0; // the figure at x; must be positive
};

struct Plateau {
    std::size_t first = 0, last = 0; // indices of the points it spans, inclusive
    double level = 0;                // geometric mean of its points' figures
    double starts_at = 0;            // its first point's x; 0 where not known
    // Where it ends: the x at which the curve crosses halfway (geometrically) to the
    // next plateau's level; for the last plateau, its last point's x.
    double ends_at = 0;
    // "L1", "L2", ..., "L2 past the TLB", "between L2 and L3", "memory", "memory past the
    // TLB", "overhead"; set by name_plateaus()
    std::string name;
    // The size the device reports for the level named, where the curve cannot see all of
    // it (a socket's L3 reported to a VM that runs on a few of its cores); 0 otherwise.
    uint64_t reported_bytes = 0;
};

// Splits a curve (points in increasing x) into plateaus: a least-squares fit of levels
// in log space whose number is penalised by the curve's own point-to-point noise, so
// noise does not make steps and a step bigger than the noise is not smoothed away.
// Single points between two levels are the transitions, not plateaus; neighbours that
// differ by less than `min_step` (0.15: 15 %) are one plateau. Fewer than three points
// give no plateau.
std::vector<Plateau> find_plateaus(std::span<const CurvePoint> curve, double min_step = 0.15);

// A cache level as the device reports it, and how much of it a measurement can reach:
// one instance, or several when the measured threads run on units with their own.
struct CacheReach {
    uint32_t level = 0;
    uint64_t bytes = 0; // one instance
    // Instances the measured threads fill together; a range when the device does not
    // say which units share an instance.
    uint64_t fewest = 1, most = 1;
    // The reported size is the socket's, far beyond what the measured threads' share of
    // it is: more than `most_visible_share` a unit that shares it. No curve can end
    // near its reach, so it takes no plateau by reach (see name_plateaus).
    bool socket_wide = false;
};

// The most last-level cache one core has to itself on any CPU made (a 3D-stacked L3 of
// 96 MiB over 8 cores is 12 MiB each); a cache reported larger than this a sharing unit
// is a socket's, as a VM on a few of its cores sees it reported.
inline constexpr uint64_t most_visible_share = 32ull << 20;

// The reach of every data or unified cache of a device, by level. `threads` is how many
// compute units the operation runs on (1 for a dependent chase). A GPU's last level whose
// module does not say who shares it (shared_by 0) is one instance for the whole device.
std::vector<CacheReach> cache_reach(const vrb_device_info &info, uint32_t threads);

// What the curve's figure is: outgrowing a cache makes bandwidth fall and latency rise.
enum class CurveFigure { unspecified, bandwidth, latency };

// The rule's parameters (docs/results.md, "How plateaus are named").
// A curve reached memory once it went this far past every cache it can see.
inline constexpr double memory_factor = 4;
// A plateau lies in a cache level when it ends within this factor of the level's reach:
// a random chase misses a cache before its full size (an NVIDIA L2's far partition, a
// VM's share of an L3) and a stream spills a little past it.
inline constexpr double level_reach = 2;
// A step that less than doubles a chase's latency is a translation, not a further level:
// a page walk's loads mostly hit the caches and cost less than the load they translate,
// while a miss to the next level (a last-level cache's to DRAM, too) costs twice or more.
inline constexpr double translation_step = 2;

// Names a curve's plateaus, in order of x, by one rule:
//
// Memory is the level the curve holds out to its largest footprints: the last plateau,
// once the curve went past memory_factor x every cache it can see (or grew until its
// figure settled). On a latency curve it reaches back over every step of less than
// translation_step before it, up to a plateau that ends inside a cache's reach (a
// socket-wide cache's: most_visible_share for each unit the threads use): past the
// last cache only translation raises a chase's latency. Memory is named at its first
// plateau; each later one is "memory past the TLB" ("memory past the L2 TLB (12 MiB)"
// where `tlbs` records a reach the working set outgrew there). Every plateau before
// memory lies in the first cache level whose reach (one instance times the instances the
// threads spread over) its end is within level_reach of; a socket-wide cache (its
// reported size no reach a curve can see) takes all past the others. A level's first
// plateau is that level, named with the earlier levels no plateau took whose reach it
// began inside ("L1+L2": no step told them apart); a later one in the same level is
// "L2 past the TLB" on a latency curve when it raises the latency, by less than double;
// else it is
// named by where it lies: "between L2 and L3", "between L3 and memory", "past L3" when
// the curve did not reach memory ("before memory", "short of memory" on a device that
// reports no cache). On a bandwidth curve the plateaus before the first
// level that the next one improves on are "overhead": a fixed cost per run bounds the
// smallest sets. A name that recurs is numbered: "L2 past the TLB (2)". No plateau is
// ever named "cache N": a plateau that matches nothing is named by where it lies.
void name_plateaus(std::vector<Plateau> &plateaus, std::span<const CacheReach> caches, double largest_x,
                   CurveFigure figure = CurveFigure::unspecified, bool settled = false,
                   std::span<const TlbReach> tlbs = {});

} // namespace vrb
