// A card model as references and ranks key it: the text `compare --match model` pairs
// devices by ("10de:2335, 140.4 GiB": PCI vendor and device id and memory size), and the
// device table's entry behind it, where there is one.
#pragma once

#include <vrambench/core/planning/device_table.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace vrb::health {

struct CardModel {
    std::string key;                // device_match_text(device, model)
    const CardSpec *spec = nullptr; // the device table's entry, when exactly one matches
    std::string spec_why;           // why there is none, else which one
    // Whether the key names PCI ids. A device without them (a CPU, a software renderer)
    // is keyed by name and memory, which many different machines share ("AMD EPYC,
    // 23.5 GiB"): it is no card model, so no reference is made of it or ranked by it.
    bool pci = false;
};

// The model of a device as a result set records it (null fields leave the spec unset).
CardModel card_model_of(const nlohmann::json &device);

// A key as a reference file writes it, "VVVV:DDDD, SIZE" (SIZE as 140.4 GiB, 80 GiB,
// 141 GB), resolved through the device table. Unset `spec` and `spec_why` saying why
// when the key is not of that form or names no single card of the table.
CardModel card_model_of_key(const std::string &key);

// Whether a device is of the model: the same device-table entry when both have one,
// else the same key text.
bool same_model(const CardModel &a, const CardModel &b);

} // namespace vrb::health
