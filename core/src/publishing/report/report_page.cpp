// The page: the template (report/report.html.in) with its style, Chart.js, the data and
// the drawing script inlined, so the file opens offline and asks no server for anything.
#include <vrambench/core/error.hpp>
#include <vrambench/core/publishing/html_report.hpp>

#include "vrambench_chartjs_text.hpp"
#include "vrambench_report_script_text.hpp"
#include "vrambench_report_style_text.hpp"
#include "vrambench_report_template_text.hpp"

#include <string>
#include <string_view>

namespace vrb {

namespace {

template <std::size_t N> std::string joined(const char *const (&chunks)[N])
{
    std::string text;
    for (const char *chunk : chunks)
        text += chunk;
    return text;
}

void replace_all(std::string &text, std::string_view from, std::string_view to)
{
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

// Inside <script> the HTML parser ends the element at the first "</script", whatever
// the script means by it, and "<!--" changes how it looks for that end. In JavaScript
// these appear only inside strings, where "<\/" and "<\!" read the same; in JSON "<\/"
// and "\u0021" do.
std::string script_safe(std::string text)
{
    replace_all(text, "</script", "<\\/script");
    replace_all(text, "<!--", "<\\!--");
    return text;
}

std::string json_safe(std::string text)
{
    replace_all(text, "</", "<\\/");
    replace_all(text, "<!--", "<\\u0021--");
    return text;
}

// Fills the slots in the order the template holds them, each searched for after the
// text the last one put in, so nothing inserted is ever read as a slot.
class Filler {
  public:
    explicit Filler(std::string page) : page_(std::move(page)) {}
    void fill(std::string_view slot, const std::string &content)
    {
        const std::size_t at = page_.find(slot, from_);
        if (at == std::string::npos)
            throw Error(ExitCode::run_failed, "the report template lacks its " + std::string(slot) + " slot");
        page_.replace(at, slot.size(), content);
        from_ = at + content.size();
    }
    std::string page() && { return std::move(page_); }

  private:
    std::string page_;
    std::size_t from_ = 0;
};

} // namespace

std::string report_page(const nlohmann::json &data)
{
    Filler page(joined(vrambench_report_template_text));
    page.fill("@REPORT_STYLE@", joined(vrambench_report_style_text));
    page.fill("@REPORT_DATA@", json_safe(data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
    page.fill("@CHARTJS@", script_safe(joined(vrambench_chartjs_text)));
    page.fill("@REPORT_SCRIPT@", script_safe(joined(vrambench_report_script_text)));
    return std::move(page).page();
}

} // namespace vrb
