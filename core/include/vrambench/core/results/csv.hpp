// Comma-separated values as spreadsheets read them (RFC 4180): one line per record,
// a field quoted when it holds a comma, a quote or a line break.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace vrb {

std::string csv_field(std::string_view text);
// The fields, each through csv_field, joined by commas and ended by a line break.
std::string csv_line(const std::vector<std::string> &fields);

} // namespace vrb
