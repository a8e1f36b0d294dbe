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

// One device of one valid result set, as the index shows it.
struct ResultIndexRow {
    std::filesystem::path file;     // relative to the indexed folder
    std::vector<std::string> cells; // one per column of result_index_columns()
};

// The index's columns, the file excluded.
const std::vector<std::string> &result_index_columns();

struct ResultIndex {
    std::string markdown;                    // the page, refused files listed at its end
    std::vector<ResultIndexRow> rows;        // sorted as the page shows them
    std::vector<std::filesystem::path> sets; // the valid result sets, relative to the folder
    std::vector<RefusedResultFile> refused;  // files that are not valid result sets
    std::size_t result_sets = 0;             // files that are
};

// Reads every *.json below `folder` except those under a folder named "schema"; a file
// that is not a valid result set is never left out silently: it is listed as refused.
// Rows are sorted by device, then backend, then file, so the page only changes where
// the result sets do. Throws UsageError when `folder` is not a readable folder.
ResultIndex index_result_sets(const std::filesystem::path &folder);

// The index as a web page at `page`, each row linking its set's report (the set's path
// with .html for .json, as `vrambench index --html` writes it) and the set itself,
// relative to the page. No script: it opens anywhere.
std::string result_index_html(const ResultIndex &index, const std::filesystem::path &folder,
                              const std::filesystem::path &page);

} // namespace vrb
