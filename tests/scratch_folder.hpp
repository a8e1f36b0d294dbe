// A folder of its own under the system's temporary folder, removed with everything in it
// when the test ends: for tests that write result sets, fleets and reports.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

namespace vrb::test {

class ScratchFolder {
  public:
    explicit ScratchFolder(std::string_view prefix = "vrambench-test")
    {
        std::string name = (std::filesystem::temp_directory_path() / (std::string(prefix) + "-XXXXXX")).string();
        if (!mkdtemp(name.data())) throw std::system_error(errno, std::generic_category(), "mkdtemp " + name);
        path_ = name;
    }
    ~ScratchFolder()
    {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    ScratchFolder(const ScratchFolder &) = delete;
    ScratchFolder &operator=(const ScratchFolder &) = delete;
    const std::filesystem::path &path() const { return path_; }

  private:
    std::filesystem::path path_;
};

} // namespace vrb::test
