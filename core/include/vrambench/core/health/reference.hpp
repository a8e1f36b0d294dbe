// What a card's figures are judged against: for a card model and a figure, a measured
// reference (the floor is a fraction of it) or a floor itself, and where it came from.
// References come from result sets (the published sets under results/, or sets a user
// names: the median of every trusted figure of the model) or from a reference file
// (results/schema/reference-v1.schema.json), which says for each figure its source.
#pragma once

#include <vrambench/core/health/card_model.hpp>
#include <vrambench/core/health/figure.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vrb::health {

// Which set a figure came from, by its run and its content: a set is never its own
// reference, whatever path or name it is given (a copy beside the published ones, the
// same run written twice).
struct SetIdentity {
    std::string run;         // run.id; empty when the set records none
    std::size_t content = 0; // a hash of the whole document
    bool same(const SetIdentity &other) const { return (!run.empty() && run == other.run) || content == other.content; }
};
SetIdentity identity_of(const nlohmann::json &set);

struct Reference {
    CardModel card;
    FigureKey figure;
    std::string unit;
    std::optional<double> value; // a measured reference: the floor is --floor x value
    std::optional<double> floor; // a floor given as a figure, used as it is (a ceiling for latency)
    std::string source;          // where the figure came from, in the words of its file or sets
    std::size_t line = 0;        // its line in a reference file; 0 when made from result sets
    // Made from result sets: each set's figure; `value` is their median.
    struct Member {
        SetIdentity set;
        std::string name; // "standard.json (run 51b2...)"
        double value = 0;
    };
    std::vector<Member> members;
};

struct NamedSet {
    std::string name; // how messages name it: a file path
    nlohmann::json set;
};

struct References {
    std::vector<Reference> entries;
    std::vector<std::string> origins; // what was read: files and folders, for the output

    // The first entry for the device's model and the figure. One made from result sets
    // leaves out the figures of `judged` and is the median of the others (a card is not
    // judged against itself, not even in part); passed over when none is left.
    std::optional<Reference> find(const CardModel &card, const FigureKey &figure,
                                  const SetIdentity *judged = nullptr) const;
    void append(References more);
};

// Reads a reference file and checks every entry against the device table: the card key
// must name one card of the table, the unit must be the probe's, a bandwidth figure of
// device memory (value or floor) must lie between a tenth of the datasheet peak and the
// peak. Throws UsageError naming the file, the line and the field on the first problem.
References read_reference_file(const std::filesystem::path &file);
References parse_reference_text(const std::string &text, const std::string &source);

// References made from result sets: for each model and figure the median of every
// trusted figure the sets hold, with the sets named as its source. Devices without PCI
// ids are no card model (CardModel::pci) and give none.
References references_from_sets(const std::vector<NamedSet> &sets);

// Every valid result set in a folder and its subfolders (results/ keeps one folder per
// machine); a file that is not a result set is refused with UsageError naming it, the
// schema folder and hidden or journal files are passed over.
std::vector<NamedSet> read_result_folder(const std::filesystem::path &folder);
NamedSet read_valid_result_set(const std::filesystem::path &file);

// PATH given as --reference: a reference file, a result set, or a folder of sets.
References read_references(const std::filesystem::path &path);

// The project's published result sets: VRAMBENCH_RESULTS when set (empty: none), else
// share/vrambench/results beside an installed executable (PREFIX/bin/vrambench), else
// the results/ folder of the source tree the executable was built in (found by walking
// up from it to a folder holding results/schema/result-v1.schema.json), else none.
std::optional<std::filesystem::path> published_results_folder();
// Those sets, read once per process; none when there is no such folder.
const std::vector<NamedSet> &published_sets();
// references_from_sets(published_sets()), made once per process: fleet judges every
// card of every set against them, and a report or compare may ask many times.
const References &published_references();

} // namespace vrb::health
