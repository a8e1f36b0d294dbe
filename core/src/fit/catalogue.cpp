// The catalogue compiled in from models/ (cmake/embed_model_catalogue.cmake): one JSON
// document holding catalogue.json and every config it names.
#include <vrambench/core/fit/catalogue.hpp>

#include <vrambench_model_catalogue_text.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace vrb::fit {

namespace {

std::vector<CatalogueEntry> parse_catalogue()
{
    std::string text;
    for (const char *chunk : vrambench_model_catalogue_text)
        text += chunk;
    const nlohmann::json document = nlohmann::json::parse(text);
    std::vector<CatalogueEntry> entries;
    for (const auto &m : document.at("catalogue").at("models")) {
        CatalogueEntry e;
        e.name = m.at("name").get<std::string>();
        e.source = m.at("source").get<std::string>();
        e.published_parameters = m.at("published_parameters").get<double>();
        e.published_as = m.at("published_as").get<std::string>();
        e.published_source = m.at("published_source").get<std::string>();
        if (m.contains("published_active_parameters"))
            e.published_active_parameters = m["published_active_parameters"].get<double>();
        const std::string file = m.at("config").get<std::string>();
        e.model = model_from_config(document.at("configs").at(file), "models/" + file);
        e.model.name = e.name;
        e.model.source = e.source;
        entries.push_back(std::move(e));
    }
    return entries;
}

} // namespace

const std::vector<CatalogueEntry> &model_catalogue()
{
    static const std::vector<CatalogueEntry> entries = parse_catalogue();
    return entries;
}

const CatalogueEntry *find_catalogued(const std::string &name)
{
    for (const auto &e : model_catalogue())
        if (e.name == name) return &e;
    return nullptr;
}

std::string catalogue_names()
{
    std::vector<std::string> names;
    for (const auto &e : model_catalogue())
        names.push_back(e.name);
    return fmt::format("{}", fmt::join(names, ", "));
}

} // namespace vrb::fit
