// One result set per card: a fleet's shared folder holds a file per host and card, so a
// missing or slow card is seen by its file name before anything is opened.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace vrb {

struct CardResultSet {
    std::string key;         // the devices' shared key (one card seen through several APIs)
    nlohmann::json document; // a valid result set holding only that card's devices and results
};

// Splits a valid result set by device key, in order of key. Everything that is not a
// device or a result (tool, host, run, backends) is kept in each part, so each is a
// valid result set of its own. A set without devices gives none.
std::vector<CardResultSet> split_by_card(const nlohmann::json &document);

// "node7_pci-0000-19-00.0.json": the host name and the card key, with every character
// but letters, digits, '.', '_' and '-' turned into '-' so the name is safe in any
// shell and on any shared file system. Throws UsageError for an empty host or key.
std::string fleet_file_name(const std::string &host, const std::string &key);

} // namespace vrb
