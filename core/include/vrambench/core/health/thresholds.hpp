// Every threshold `health` judges by, in one place, each with where it comes from
// (docs/health.md tells the same with its sources).
#pragma once

#include <cstddef>
#include <cstdint>

namespace vrb::health {

// A figure fails when it is below this fraction of its reference (`--floor`). NVIDIA's
// DCGM diagnostic fails a card's memory bandwidth test below a per-model floor set at
// 0.75 of a bandwidth measured on healthy cards of the model.
inline constexpr double default_floor = 0.75;

// Where the model has no measured reference, a stream figure is held against the
// datasheet peak: it fails below this share of it. Public BabelStream results put healthy
// HBM cards at 83-95% of their peak (H100, H200) and 73-80% (MI300X), and the H200 set
// published here reads 83-95%: 0.65 passes the lowest of them with 8 points to spare, and
// fails a card at 0.6 of a healthy figure of any of them (57% of peak at most).
inline constexpr double datasheet_floor_share = 0.65;

// A verdict of "healthy" needs the stream read and at least this many figures in all
// held against a reference or a datasheet floor; less is "not judged" (exit 6), never
// healthy by default.
inline constexpr std::size_t least_judged_figures = 2;

// A memory figure, or a reference for one, set against the datasheet peak: above the
// peak it cannot be a measurement of the memory (nothing is faster than its pins), and
// below a tenth of it no healthy card of any memory type is measured, while a figure
// typed with one digit too many or too few lands there: the 10x slip a threshold file
// once shipped with.
inline constexpr double most_peak_share = 1.0;
inline constexpr double least_peak_share = 0.1;

// The transfer figure is the copy engine's rate at this size: the quick suite's largest
// (so a short run reaches it) and past where a copy engine's rate levels off (a few MiB
// on PCIe and NVLink).
inline constexpr uint64_t transfer_bytes = 64ull << 20;

// A rank needs this many sets of a model: with fewer the median is one of two cards.
inline constexpr std::size_t rank_min_sets = 3;

} // namespace vrb::health
