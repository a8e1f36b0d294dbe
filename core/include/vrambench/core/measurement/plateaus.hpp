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
    // "L1", "L2", ..., "L2 past L1 TLB", "memory", "TLB reach 1", ..., "overhead", "dip";
    // set by name_plateaus()
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
// compute units the operation runs on (1 for a dependent chase).
std::vector<CacheReach> cache_reach(const vrb_device_info &info, uint32_t threads);

// What the curve's figure is. Outgrowing a cache makes bandwidth fall and latency rise,
// so a plateau that the next one improves on (by more than 15 %) is not a cache level:
// before the first level, a fixed cost per run (dispatch, launch) bounds it; after one,
// it is a dip (the device slowed for a while, or a cost between two levels).
enum class CurveFigure { unspecified, bandwidth, latency };

// Names plateaus in order of x: for one the next plateau improves on (when `figure` says
// which way is better), "overhead" before any plateau was named a level and "dip"
// after one, neither counted as a level; each other but the last after the cache level
// whose reach lies nearest its end, within a factor of 4 ("L1", "L2" ...), or "cache N"
// when none does or when a later plateau (neither the last, nor overhead or a dip, nor
// one on the way out to the next plateau: within 1.5 x of its level and nearer it) whose
// own nearest level that is ends nearer its reach. A plateau named for a level that also
// began inside an earlier level's reach no plateau took (starts_at at most half its reach)
// is named for both, "L1+L2": the two serve those sizes at one speed (a Zen 4 core writes
// to its L2 as fast as to its L1). A socket-wide cache is matched by no reach and counts
// for none of the sizes below.
//
// The curve reached memory when it went past one instance of every cache by
// `memory_factor`. Then, on a bandwidth curve the last plateau is "memory"; on a latency
// curve the first plateau within a factor of `memory_side` of the last one's level is
// "memory" (DRAM) and those after it "TLB reach 1", "TLB reach 2" ... (the page walks that working sets
// past the TLBs' reach add to DRAM's latency): a plateau at DRAM latency is never a
// cache. And where the deepest cache level took no plateau (it is socket-wide, or the
// TLB's reach ends it before its own), the last plateau named "cache N" before memory,
// past every named level, is that level, with the reported size beside it when that is
// socket-wide. When the curve did not reach memory, the last plateau is "past LN" when
// an earlier one was named for the last cache level N, or "cache N" otherwise.
//
// `settled`: the curve grew past its planned sizes until two points 2x apart agreed (no
// cache size said where memory starts; probes/growth.hpp). It reached memory by its own
// figure, and its last plateau, where the figure settled, is "memory"; with no cache size
// to tell a large cache's latency from DRAM's, no earlier plateau is taken for memory.
//
// `tlbs`: the data TLBs' reaches. On a latency curve short of memory, a plateau that
// follows a step where one ends (1/1.5 to 2.5 x the reach, not within 1.5 x of a cache's
// reach, less than twice the latency before it; each reach ends one step) is the level it
// stepped from past that TLB, "L2 past L1 TLB": it takes no level and counts as none, and
// the level it steps from ends, for matching a cache's reach, where the last such step ends.
void name_plateaus(std::vector<Plateau> &plateaus, std::span<const CacheReach> caches, double largest_x,
                   double memory_factor = 4, CurveFigure figure = CurveFigure::unspecified, double memory_side = 2.5,
                   bool settled = false, std::span<const TlbReach> tlbs = {});

} // namespace vrb
