// Which libraries the sanitized build keeps mapped: those the Vulkan loader itself would
// open, read from manifests laid out in a temporary folder.
#include "loader_libraries.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>

namespace fs = std::filesystem;
using vrb::vulkan::loader_libraries;

namespace {

class LoaderLibraries : public ::testing::Test {
  protected:
    void SetUp() override
    {
        root_ = fs::temp_directory_path() / ("vrambench-manifests-" + std::to_string(::getpid()));
        fs::remove_all(root_);
        fs::create_directories(root_);
        env_["HOME"] = root_.string();
        env_["XDG_CONFIG_DIRS"] = (root_ / "etc").string();
        env_["XDG_DATA_DIRS"] = (root_ / "share").string();
    }
    void TearDown() override { fs::remove_all(root_); }

    void write(const fs::path &file, const std::string &text)
    {
        fs::create_directories(file.parent_path());
        std::ofstream(file) << text;
    }
    std::vector<std::string> libraries(const std::vector<std::string> &layers = {})
    {
        return loader_libraries(layers, [this](const char *name) -> const char * {
            const auto it = env_.find(name);
            return it == env_.end() ? nullptr : it->second.c_str();
        });
    }

    fs::path root_;
    std::map<std::string, std::string> env_;
};

bool contains(const std::vector<std::string> &list, const std::string &item)
{
    return std::find(list.begin(), list.end(), item) != list.end();
}

} // namespace

TEST_F(LoaderLibraries, FindsEveryDriverAndImplicitLayerInTheLoadersFolders)
{
    write(root_ / "share/vulkan/icd.d/a.json", R"({"ICD": {"library_path": "/opt/a/libdriver_a.so"}})");
    write(root_ / ".local/share/vulkan/icd.d/b.json", R"({"ICD": {"library_path": "libdriver_b.so"}})");
    write(root_ / "etc/vulkan/implicit_layer.d/l.json",
          R"({"layer": {"name": "VK_LAYER_x", "library_path": "./libx.so"}})");
    const auto found = libraries();
    EXPECT_TRUE(contains(found, "/opt/a/libdriver_a.so"));
    EXPECT_TRUE(contains(found, "libdriver_b.so")) << "a bare name is left to dlopen's search";
    EXPECT_TRUE(contains(found, (root_ / "etc/vulkan/implicit_layer.d/libx.so").string()))
        << "a relative path is taken from the manifest's folder";
}

TEST_F(LoaderLibraries, TakesExplicitLayersOnlyWhenNamed)
{
    write(root_ / "share/vulkan/explicit_layer.d/v.json",
          R"({"layer": {"name": "VK_LAYER_KHRONOS_validation", "library_path": "libVkLayer_khronos_validation.so"}})");
    write(root_ / "share/vulkan/explicit_layer.d/o.json",
          R"({"layer": {"name": "VK_LAYER_other", "library_path": "libother.so"}})");
    EXPECT_TRUE(libraries().empty());
    const auto found = libraries({"VK_LAYER_KHRONOS_validation"});
    EXPECT_TRUE(contains(found, "libVkLayer_khronos_validation.so"));
    EXPECT_FALSE(contains(found, "libother.so"));
}

TEST_F(LoaderLibraries, ReadsOnlyTheDriverFilesNamedByVkDriverFiles)
{
    write(root_ / "share/vulkan/icd.d/a.json", R"({"ICD": {"library_path": "/opt/liba.so"}})");
    write(root_ / "elsewhere/c.json", R"({"ICD": {"library_path": "/opt/libc.so"}})");
    env_["VK_DRIVER_FILES"] = (root_ / "elsewhere/c.json").string();
    EXPECT_EQ(libraries(), std::vector<std::string>{"/opt/libc.so"});
    env_.erase("VK_DRIVER_FILES");
    env_["VK_ICD_FILENAMES"] = (root_ / "elsewhere").string();
    EXPECT_EQ(libraries(), std::vector<std::string>{"/opt/libc.so"}) << "the older name, and a folder";
}

TEST_F(LoaderLibraries, SkipsManifestsThatAreNotJsonOrNameNoLibrary)
{
    write(root_ / "share/vulkan/icd.d/broken.json", "{ not json");
    write(root_ / "share/vulkan/icd.d/empty.json", R"({"ICD": {}})");
    write(root_ / "share/vulkan/icd.d/ok.json", R"({"ICD": {"library_path": "/opt/ok.so"}})");
    EXPECT_EQ(libraries(), std::vector<std::string>{"/opt/ok.so"});
}
