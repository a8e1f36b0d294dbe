#include <vrambench/core/error.hpp>
#include <vrambench/core/results/card_split.hpp>

#include <map>
#include <set>

namespace vrb {

std::vector<CardResultSet> split_by_card(const nlohmann::json &document)
{
    std::map<std::string, std::set<std::string>> ids_by_key;
    for (const auto &d : document.at("devices")) {
        const std::string id = d.at("id").get<std::string>();
        ids_by_key[d.contains("key") && d["key"].is_string() ? d["key"].get<std::string>() : id].insert(id);
    }
    std::vector<CardResultSet> parts;
    for (const auto &[key, ids] : ids_by_key) {
        nlohmann::json part = document;
        part["devices"] = nlohmann::json::array();
        for (const auto &d : document["devices"])
            if (ids.contains(d["id"].get<std::string>())) part["devices"].push_back(d);
        part["results"] = nlohmann::json::array();
        for (const auto &r : document.at("results"))
            if (r.contains("device") && r["device"].is_string() && ids.contains(r["device"].get<std::string>()))
                part["results"].push_back(r);
        parts.push_back({key, std::move(part)});
    }
    return parts;
}

std::string fleet_file_name(const std::string &host, const std::string &key)
{
    if (host.empty()) throw UsageError("a fleet result set needs the host's name");
    if (key.empty()) throw UsageError("a fleet result set needs the card's key");
    auto safe = [](std::string text) {
        for (char &c : text)
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ||
                  c == '_'))
                c = '-';
        // A leading dot would hide the file, and the fleet comparison passes over hidden files.
        if (text.front() == '.') text.front() = '-';
        return text;
    };
    return safe(host) + "_" + safe(key) + ".json";
}

} // namespace vrb
