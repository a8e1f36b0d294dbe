// Re-deriving a stored set's suspect marks: a bandwidth figure above its device's peak
// past twice the last-level cache (measure.hpp peak_suspicion), or a host-device figure
// past its host link (link_bound.hpp link_suspicion), marked as a live run marks it now,
// with the same sentence; one that no longer is goes back to ok. Each result and each
// point of a curve carries its own mark. Only ok and suspect are re-derived: a failed,
// waived, skipped or verification-failed figure is never touched, nor any measured value.
#pragma once

#include <vrambench/core/analysis/curve_analysis.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <vector>

namespace vrb::analysis {

struct SuspectMarks {
    std::vector<Change> changes; // "cuda:0 bandwidth.stream read 16B": "suspect: ..." and "ok"
    std::size_t rederived = 0;   // marks decided again, changed or not
    // Marks left as recorded: the figure's footprint, or whether its bytes crossed the
    // host link, is not in the stored result (a probe this version does not know, a point
    // without its footprint, an interop pair's exporter memory).
    std::size_t kept = 0;
};

// Re-derives every suspect mark of a stored set in place, from each figure's value, the
// footprint its result records and its device's description.
SuspectMarks rederive_suspect_marks(nlohmann::json &set);

} // namespace vrb::analysis
