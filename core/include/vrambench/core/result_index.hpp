// The index of published result sets: every result file under a folder, checked against
// the schema, summed up as one Markdown table a reader scans to compare cards and APIs.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace vrb {

struct RefusedResultFile {
    std::filesystem::path file; // relative to the indexed folder
    std::string reason;         // the reader's or the schema's one line
};

struct ResultIndex {
    std::string markdown;                   // the page, refused files listed at its end
    std::vector<RefusedResultFile> refused; // files that are not valid result sets
    std::size_t result_sets = 0;            // files that are
};

// Reads every *.json below `folder` except those under a folder named "schema"; a file
// that is not a valid result set is never left out silently: it is listed as refused.
// Rows are sorted by device, then backend, then file, so the page only changes where
// the result sets do. Throws UsageError when `folder` is not a readable folder.
ResultIndex index_result_sets(const std::filesystem::path &folder);

} // namespace vrb
