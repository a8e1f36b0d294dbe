#include <vrambench/core/card/link.hpp>
#include <vrambench/core/card/sysfs.hpp>
#include <vrambench/core/results/json_fields.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace vrb {

namespace {

// "16.0 GT/s PCIe", "8 GT/s", "2.5 GT/s": the leading figure, when a GT/s follows it.
std::optional<double> parse_speed(const std::string &text)
{
    char *end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || !(v > 0)) return std::nullopt;
    if (std::string_view(end).find("GT/s") == std::string_view::npos) return std::nullopt;
    return v;
}

std::optional<uint32_t> parse_width(const std::string &text)
{
    const std::string digits = !text.empty() && text.front() == 'x' ? text.substr(1) : text;
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 3)
        return std::nullopt;
    const auto v = static_cast<uint32_t>(std::stoul(digits));
    if (v == 0) return std::nullopt;
    return v;
}

void read_end(const std::string &folder, const char *prefix, const std::string &field, LinkSpeed &out,
              std::map<std::string, std::string> &unknown)
{
    const std::string speed_file = fmt::format("{}/{}_link_speed", folder, prefix);
    const std::string width_file = fmt::format("{}/{}_link_width", folder, prefix);
    const FileText speed = read_system_file(speed_file), width = read_system_file(width_file);
    if (speed.text) {
        out.gts = parse_speed(*speed.text);
        if (!out.gts)
            unknown[field + ".speed"] = fmt::format("{} holds '{}', not a speed in GT/s",
                                                    system_path(speed_file).string(), speed.text->substr(0, 40));
    } else {
        unknown[field + ".speed"] = speed.why;
    }
    if (width.text) {
        out.width = parse_width(*width.text);
        if (!out.width)
            unknown[field + ".width"] = fmt::format("{} holds '{}', not a lane count", system_path(width_file).string(),
                                                    width.text->substr(0, 40));
    } else {
        unknown[field + ".width"] = width.why;
    }
}

std::optional<double> rate_of(const LinkSpeed &s)
{
    return s.known() ? pcie_rate_gb_per_s(*s.gts, *s.width) : std::nullopt;
}

nlohmann::json speed_json(const LinkSpeed &s)
{
    if (!s.gts && !s.width) return nullptr;
    const int generation = s.gts ? pcie_generation(*s.gts) : 0;
    const auto rate = rate_of(s);
    return {{"speed_gts", s.gts ? nlohmann::json(*s.gts) : nlohmann::json()},
            {"generation", generation ? nlohmann::json(generation) : nlohmann::json()},
            {"width", s.width ? nlohmann::json(*s.width) : nlohmann::json()},
            {"rate_gb_per_s", rate ? nlohmann::json(*rate) : nlohmann::json()}};
}

LinkSpeed speed_from_json(const nlohmann::json &j)
{
    LinkSpeed s;
    if (j.is_object() && j.contains("speed_gts") && j["speed_gts"].is_number()) s.gts = j["speed_gts"].get<double>();
    if (const uint64_t width = count_or(j, "width", 0); width > 0 && width <= 64)
        s.width = static_cast<uint32_t>(width);
    return s;
}

std::string fraction_words(double f)
{
    if (std::abs(f - 0.5) < 0.01) return "half";
    if (std::abs(f - 0.25) < 0.01) return "a quarter";
    if (std::abs(f - 0.125) < 0.005) return "an eighth";
    return fmt::format("{:.0f}%", f * 100);
}

} // namespace

int pcie_generation(double gts)
{
    static const std::pair<double, int> table[] = {{2.5, 1}, {5, 2}, {8, 3}, {16, 4}, {32, 5}, {64, 6}, {128, 7}};
    for (const auto &[speed, generation] : table)
        if (std::abs(gts - speed) < 0.05) return generation;
    return 0;
}

std::optional<double> pcie_rate_gb_per_s(double gts, uint32_t width)
{
    const int generation = pcie_generation(gts);
    if (generation == 0 || width == 0) return std::nullopt;
    const double encoding = generation <= 2 ? 8.0 / 10.0 : generation <= 5 ? 128.0 / 130.0 : 242.0 / 256.0;
    return gts * encoding * width / 8;
}

std::string link_text(const LinkSpeed &s)
{
    const std::string width = s.width ? fmt::format("x{}", *s.width) : "x?";
    if (!s.gts) return width + " at an unknown speed";
    const int generation = pcie_generation(*s.gts);
    return generation ? fmt::format("{} Gen{}", width, generation) : fmt::format("{} at {:g} GT/s", width, *s.gts);
}

PcieLink read_pcie_link(const std::string &address)
{
    PcieLink link;
    link.address = address;
    const std::string folder = pci_device_folder(address);
    read_end(folder, "current", "current", link.current, link.unknown);
    read_end(folder, "max", "max", link.max, link.unknown);
    // The folder is a link into /sys/devices/...; the folder above it is the port the
    // card's slot hangs off, when that port has a link of its own.
    std::error_code ec;
    const std::filesystem::path real = std::filesystem::canonical(system_path(folder), ec);
    const std::filesystem::path parent = ec ? std::filesystem::path() : real.parent_path();
    if (!parent.empty() && std::filesystem::exists(parent / "max_link_speed", ec)) {
        link.port = parent.filename().string();
        const std::string port_folder =
            "/" + std::filesystem::relative(parent, std::filesystem::canonical(system_root(), ec)).string();
        read_end(port_folder, "max", "port.max", link.port_max, link.unknown);
    } else {
        link.unknown["port"] = fmt::format("no upstream port with a link above {}", system_path(folder).string());
    }
    return link;
}

std::optional<double> current_rate(const PcieLink &link)
{
    return rate_of(link.current);
}

std::optional<double> card_rate(const PcieLink &link)
{
    return rate_of(link.max);
}

std::optional<double> supported_rate(const PcieLink &link)
{
    const auto card = card_rate(link), slot = rate_of(link.port_max);
    if (card && slot) return std::min(*card, *slot);
    return card;
}

std::optional<bool> below_max(const PcieLink &link)
{
    // A Gen5 card in a Gen4 slot trains at Gen4 as it should: the slot is the ceiling.
    const auto current = current_rate(link), supported = supported_rate(link);
    if (!current || !supported) return std::nullopt;
    return *current < *supported * 0.999;
}

std::string link_finding(const PcieLink &link)
{
    if (below_max(link) != true) return {};
    const double fraction = *current_rate(link) / *supported_rate(link);
    std::string slot;
    if (const auto port = rate_of(link.port_max); port && *port < *card_rate(link) * 0.999)
        slot = fmt::format(" in a {} slot", link_text(link.port_max));
    return fmt::format("this {} card{} trained at {}: the transfers' ceiling is {} of what {} supports",
                       link_text(link.max), slot, link_text(link.current), fraction_words(fraction),
                       slot.empty() ? "the card" : "the slot");
}

nlohmann::json to_json(const PcieLink &link, const std::string &taken)
{
    nlohmann::json unknown = nlohmann::json::object();
    for (const auto &[field, why] : link.unknown)
        unknown[field] = why;
    const auto below = below_max(link);
    const std::string finding = link_finding(link);
    const auto supported = supported_rate(link);
    return {{"kind", "pcie"},
            {"address", link.address},
            {"current", speed_json(link.current)},
            {"max", speed_json(link.max)},
            {"port", link.port.empty() ? nlohmann::json()
                                       : nlohmann::json{{"address", link.port}, {"max", speed_json(link.port_max)}}},
            {"supported_rate_gb_per_s", supported ? nlohmann::json(*supported) : nlohmann::json()},
            {"below_max", below ? nlohmann::json(*below) : nlohmann::json()},
            {"finding", finding.empty() ? nlohmann::json() : nlohmann::json(finding)},
            {"taken", taken},
            {"unknown", unknown}};
}

PcieLink pcie_link_from_json(const nlohmann::json &j)
{
    PcieLink link;
    link.address = text_or(j, "address", "");
    link.current = speed_from_json(object_or_empty(j, "current"));
    link.max = speed_from_json(object_or_empty(j, "max"));
    const nlohmann::json &port = object_or_empty(j, "port");
    link.port = text_or(port, "address", "");
    link.port_max = speed_from_json(object_or_empty(port, "max"));
    return link;
}

} // namespace vrb

namespace vrb {

std::string link_summary_text(const nlohmann::json &device)
{
    if (!device.is_object() || !device.contains("link")) return {};
    const nlohmann::json &j = device["link"];
    if (!j.is_object()) return "none: " + text_or(object_or_empty(device, "unknown"), "link", "not read");
    const PcieLink link = pcie_link_from_json(j);
    auto rate = [](std::optional<double> r) { return r ? fmt::format("{:.1f}", *r) : std::string("?"); };
    std::string text = fmt::format("{} of {} ({} of {} GB/s per direction", link_text(link.current),
                                   link_text(link.max), rate(current_rate(link)), rate(card_rate(link)));
    if (!link.port.empty()) text += fmt::format("; slot {} at {}", link_text(link.port_max), link.port);
    text += fmt::format("; read {})", text_or(j, "taken", "at an unknown time"));
    const std::string finding = text_or(j, "finding", "");
    if (!finding.empty()) {
        text += "; BELOW ITS MAX: " + finding;
        if (text_or(j, "taken", "").find("idle") != std::string::npos)
            text += " (read while idle, and an idle GPU lowers its link's speed: the transfer results carry the "
                    "reading under load)";
    }
    for (const auto &[field, why] : object_or_empty(j, "unknown").items())
        if (why.is_string()) text += fmt::format("; {} not available: {}", field, why.get<std::string>());
    return text;
}

} // namespace vrb
