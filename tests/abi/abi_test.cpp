// The loader against modules that break the ABI in every way it names.
#include <vrambench/core/backend.hpp>
#include <vrambench/core/external.hpp>
#include <vrambench/core/registry.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

using namespace vrb;

namespace {

std::string load_error(const std::string &path)
{
    try {
        Module::load(path);
    } catch (const LoadError &e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST(PluginLoader, LoadsAWellFormedModuleAndSeesItsDevice)
{
    BackendEntry entry = open_backend(MOCK_OK_PATH);
    ASSERT_EQ(entry.state, BackendEntry::State::available) << entry.reason;
    EXPECT_EQ(entry.name, "mock");
    EXPECT_EQ(entry.backend->device_count(), 1u);
    EXPECT_STREQ(entry.backend->describe(0).name, "mock device");
}

TEST(PluginLoader, RefusesAModuleThatAnswersAnotherMajorVersionNamingBoth)
{
    const std::string error = load_error(MOCK_WRONG_MAJOR_PATH);
    EXPECT_NE(error.find("ABI version refused"), std::string::npos) << error;
    EXPECT_NE(error.find("module speaks 2.0"), std::string::npos) << error;
    EXPECT_NE(error.find("vrambench speaks 1.2"), std::string::npos) << error;
    EXPECT_NE(error.find(MOCK_WRONG_MAJOR_PATH), std::string::npos) << error;
}

TEST(PluginLoader, ReportsAModuleThatRefusesTheHostVersionWithItsOwnMessage)
{
    const std::string error = load_error(MOCK_REFUSES_VERSION_PATH);
    EXPECT_NE(error.find("module speaks 0.9"), std::string::npos) << error;
    EXPECT_NE(error.find("mock only speaks 0.9"), std::string::npos) << error;
}

TEST(PluginLoader, RefusesALibraryWithoutTheEntrySymbol)
{
    const std::string error = load_error(MOCK_NO_ENTRY_PATH);
    EXPECT_NE(error.find("entry symbol 'vrb_plugin_entry' missing"), std::string::npos) << error;
    EXPECT_NE(error.find(MOCK_NO_ENTRY_PATH), std::string::npos) << error;
}

TEST(PluginLoader, RefusesAnEntryThatReturnsNoTable)
{
    EXPECT_NE(load_error(MOCK_NO_TABLE_PATH).find("no function table"), std::string::npos);
}

TEST(PluginLoader, RefusesAFileThatIsNotALoadableLibrary)
{
    const std::string path = std::string(MOCK_DIR) + "/not-a-library.so";
    const std::string error = load_error(path);
    EXPECT_NE(error.find("not a loadable library"), std::string::npos) << error;
    EXPECT_NE(error.find(path), std::string::npos) << error;
}

TEST(PluginLoader, RefusesALibraryBuiltForAnotherArchitecture)
{
    // A real module with its ELF header's machine field set to AArch64 (183).
    const auto path = std::filesystem::temp_directory_path() / "vrambench-other-arch.so";
    std::filesystem::copy_file(MOCK_OK_PATH, path, std::filesystem::copy_options::overwrite_existing);
    {
        std::fstream elf(path, std::ios::in | std::ios::out | std::ios::binary);
        elf.seekp(18);
        const char aarch64[2] = {char(183), 0};
        elf.write(aarch64, 2);
    }
    const std::string error = load_error(path.string());
    EXPECT_NE(error.find("not a loadable library"), std::string::npos) << error;
    EXPECT_NE(error.find(path.string()), std::string::npos) << error;
}

TEST(PluginLoader, RefusesADirectory)
{
    EXPECT_NE(load_error(MOCK_DIR).find("is a directory"), std::string::npos);
}

TEST(PluginLoader, RefusesAMissingFile)
{
    EXPECT_NE(load_error(std::string(MOCK_DIR) + "/nothing-here.so").find("no such file"), std::string::npos);
}

TEST(PluginLoader, ReportsAnInitFailureAsFailedWithTheModulesMessage)
{
    const BackendEntry entry = open_backend(MOCK_INIT_FAILS_PATH);
    EXPECT_EQ(entry.state, BackendEntry::State::failed);
    EXPECT_NE(entry.reason.find("init failed"), std::string::npos) << entry.reason;
    EXPECT_NE(entry.reason.find("mock init failed on purpose"), std::string::npos) << entry.reason;
}

TEST(PluginLoader, ListsAnUnavailableBackendWithItsReason)
{
    const BackendEntry entry = open_backend(MOCK_UNAVAILABLE_PATH);
    EXPECT_EQ(entry.state, BackendEntry::State::unavailable);
    EXPECT_EQ(entry.name, "mock");
    EXPECT_EQ(entry.reason, "mock driver is not installed");
}

TEST(PluginLoader, TreatsSlotsPastAShortTableAsUnsupported)
{
    const auto module = Module::load(MOCK_SHORT_TABLE_PATH);
    EXPECT_NE(module->slot(&vrb_plugin_table::run), nullptr);
    EXPECT_EQ(module->slot(&vrb_plugin_table::buffer_export), nullptr);
    const auto full = Module::load(MOCK_OK_PATH);
    EXPECT_NE(full->slot(&vrb_plugin_table::buffer_export), nullptr);
}

TEST(PluginLoader, SeesTheExternalMemorySlotsOnlyWhereTheTableHasThemAndTheyAreSet)
{
    const auto short_table = Module::load(MOCK_SHORT_TABLE_PATH); // an ABI 1.0 table, through run
    EXPECT_FALSE(vrb::offers_export(*short_table));
    EXPECT_FALSE(vrb::offers_import(*short_table));
    EXPECT_FALSE(vrb::offers_exportable_alloc(*short_table));
    const auto full = Module::load(MOCK_OK_PATH);
    EXPECT_TRUE(vrb::offers_export(*full));
    EXPECT_FALSE(vrb::offers_import(*full));
    EXPECT_FALSE(vrb::offers_exportable_alloc(*full));
}

TEST(PluginLoader, PrefersAModuleGivenByHandAndSkipsLaterOnesOfTheSameName)
{
    DiscoveryOptions options;
    options.search_default_paths = false;
    options.extra_plugins = {MOCK_UNAVAILABLE_PATH, MOCK_OK_PATH};
    const auto entries = discover_backends(options);
    ASSERT_EQ(entries.size(), 1u);
    EXPECT_EQ(entries[0].state, BackendEntry::State::unavailable);
}

TEST(PluginLoader, ReadsTheVersionNegotiationMacrosConsistently)
{
    EXPECT_EQ(VRB_VERSION_MAJOR(VRB_MAKE_VERSION(3, 7)), 3u);
    EXPECT_EQ(VRB_VERSION_MINOR(VRB_MAKE_VERSION(3, 7)), 7u);
    EXPECT_EQ(VRB_VERSION_MAJOR(VRB_ABI_VERSION), VRB_ABI_VERSION_MAJOR);
}
