// The models `fit` knows by name: Hugging Face configs checked into models/ with their
// sources, and the parameter count their authors publish (models/catalogue.json).
#pragma once

#include <vrambench/core/fit/model.hpp>

#include <optional>
#include <string>
#include <vector>

namespace vrb::fit {

struct CatalogueEntry {
    std::string name;   // "llama-65b"
    std::string source; // where the config comes from
    double published_parameters = 0;
    std::string published_as, published_source;
    std::optional<double> published_active_parameters; // a mixture of experts' count a token reads
    Model model;
};

// Every catalogued model, in the catalogue's order, parsed once from the compiled-in text.
const std::vector<CatalogueEntry> &model_catalogue();
// nullptr when `name` is not catalogued.
const CatalogueEntry *find_catalogued(const std::string &name);
// "llama-7b, llama-13b, ...", for messages.
std::string catalogue_names();

} // namespace vrb::fit
