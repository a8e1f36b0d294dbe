// The loader against modules that break the ABI in every way it names.
#include <vrambench/core/modules/backend.hpp>
#include <vrambench/core/modules/external.hpp>
#include <vrambench/core/modules/external_semaphore.hpp>
#include <vrambench/core/modules/registry.hpp>
#include <vrambench/core/run/runner.hpp>

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

// The message a backend's device (or its memory kinds) is refused with, or "".
std::string device_error(const std::string &path)
{
    const BackendEntry entry = open_backend(path);
    if (entry.state != BackendEntry::State::available) return entry.reason;
    try {
        auto device = entry.backend->open(0);
        describe_device(*entry.backend, device.get(), 0);
    } catch (const BackendError &e) {
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
    const std::string ours =
        "vrambench speaks " + std::to_string(VRB_ABI_VERSION_MAJOR) + "." + std::to_string(VRB_ABI_VERSION_MINOR);
    EXPECT_NE(error.find(ours), std::string::npos) << error;
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

TEST(PluginLoader, RefusesATableTooShortToHoldTheCallsEveryModuleHas)
{
    const std::string error = load_error(MOCK_TOO_SHORT_TABLE_PATH);
    EXPECT_NE(error.find("function table too short"), std::string::npos) << error;
    EXPECT_NE(error.find("to hold the required calls"), std::string::npos) << error;
    EXPECT_NE(error.find(MOCK_TOO_SHORT_TABLE_PATH), std::string::npos) << error;
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

TEST(PluginLoader, SeesTheSemaphoreSlotsOnlyWhereTheTableHasThemAndNamesThoseMissing)
{
    const auto short_table = Module::load(MOCK_SHORT_TABLE_PATH); // ends before ABI 1.4's slots
    const auto gap = vrb::semaphore_import_gap(*short_table);
    ASSERT_TRUE(gap);
    EXPECT_NE(gap->find("the mock module has no semaphore_import, semaphore_signal, semaphore_device_wait, "
                        "semaphore_host_wait, semaphore_free (external semaphores, ABI 1.4"),
              std::string::npos)
        << *gap;
    EXPECT_TRUE(vrb::semaphore_export_gap(*Module::load(MOCK_OK_PATH)));
    const auto sharing = Module::load(MOCK_SEMA_PATH);
    EXPECT_FALSE(vrb::semaphore_export_gap(*sharing));
    EXPECT_FALSE(vrb::semaphore_import_gap(*sharing));
}

TEST(PluginLoader, PrefersAModuleGivenByHandAndListsALaterOneOfTheSameNameAsRefusedNamingBothFiles)
{
    DiscoveryOptions options;
    options.search_default_paths = false;
    options.extra_plugins = {MOCK_UNAVAILABLE_PATH, MOCK_OK_PATH};
    const auto entries = discover_backends(options);
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(entries[0].state, BackendEntry::State::unavailable);
    EXPECT_EQ(entries[1].state, BackendEntry::State::refused);
    EXPECT_EQ(entries[1].name, "mock");
    EXPECT_EQ(entries[1].backend, nullptr);
    EXPECT_NE(entries[1].reason.find("another module named 'mock'"), std::string::npos) << entries[1].reason;
    EXPECT_NE(entries[1].reason.find(MOCK_UNAVAILABLE_PATH), std::string::npos) << entries[1].reason;
    EXPECT_NE(entries[1].reason.find(MOCK_OK_PATH), std::string::npos) << entries[1].reason;
}

TEST(PluginLoader, RefusesABackendNameOutsideLowerCaseLettersDigitsUnderscoreAndDash)
{
    const std::string error = load_error(MOCK_BAD_NAME_PATH);
    EXPECT_NE(error.find("backend name '../../evil name' refused"), std::string::npos) << error;
    EXPECT_NE(error.find(MOCK_BAD_NAME_PATH), std::string::npos) << error;
    const BackendEntry entry = open_backend(MOCK_BAD_NAME_PATH);
    EXPECT_EQ(entry.state, BackendEntry::State::failed);
    EXPECT_EQ(entry.name, "mock-bad_name") << "named after its file, never after what it said";
}

TEST(PluginLoader, RefusesFourBillionDevicesNamingTheModuleAndTheCount)
{
    const BackendEntry entry = open_backend(MOCK_MANY_DEVICES_PATH);
    EXPECT_EQ(entry.state, BackendEntry::State::failed);
    EXPECT_EQ(entry.backend, nullptr);
    EXPECT_NE(entry.reason.find("mock device_count answered 4294967295 devices, more than the 1024"), std::string::npos)
        << entry.reason;
}

TEST(PluginLoader, RefusesMoreMemoryKindsCachesHeapsOrPropertiesThanItAccepts)
{
    EXPECT_NE(
        device_error(MOCK_MANY_KINDS_PATH).find("mock memory_kind_count answered 65 memory kinds, more than the 64"),
        std::string::npos)
        << device_error(MOCK_MANY_KINDS_PATH);
    EXPECT_NE(device_error(MOCK_MANY_CACHES_PATH).find("mock device_describe answered 9 caches, more than the 8"),
              std::string::npos)
        << device_error(MOCK_MANY_CACHES_PATH);
    EXPECT_NE(device_error(MOCK_MANY_HEAPS_PATH).find("mock device_describe answered 17 heaps, more than the 16"),
              std::string::npos)
        << device_error(MOCK_MANY_HEAPS_PATH);
    EXPECT_NE(
        device_error(MOCK_MANY_PROPERTIES_PATH).find("mock device_describe answered 33 properties, more than the 32"),
        std::string::npos)
        << device_error(MOCK_MANY_PROPERTIES_PATH);
}

TEST(PluginLoader, RefusesAnInitThatAnswersOkWithoutAContext)
{
    const BackendEntry entry = open_backend(MOCK_NULL_INIT_PATH);
    EXPECT_EQ(entry.state, BackendEntry::State::failed);
    EXPECT_NE(entry.reason.find("init answered ok but handed back no context: refused as a broken module"),
              std::string::npos)
        << entry.reason;
}

TEST(PluginLoader, RefusesADeviceOpenThatAnswersOkWithoutADevice)
{
    const BackendEntry entry = open_backend(MOCK_NULL_OPEN_PATH);
    ASSERT_EQ(entry.state, BackendEntry::State::available) << entry.reason;
    try {
        entry.backend->open(0);
        ADD_FAILURE() << "a NULL device was accepted";
    } catch (const BackendError &e) {
        EXPECT_NE(std::string(e.what()).find("mock device_open answered ok but handed back nothing"), std::string::npos)
            << e.what();
    }
}

TEST(PluginLoader, RefusesABufferAllocThatAnswersOkWithoutABuffer)
{
    const BackendEntry entry = open_backend(MOCK_NULL_ALLOC_PATH);
    ASSERT_EQ(entry.state, BackendEntry::State::available) << entry.reason;
    auto device = entry.backend->open(0);
    const int64_t live = Buffer::live_count();
    for (const bool pooled : {false, true}) {
        try {
            pooled ? device->acquire(0, 4096) : device->allocate(0, 4096);
            ADD_FAILURE() << "a NULL buffer was accepted";
        } catch (const BackendError &e) {
            EXPECT_NE(std::string(e.what()).find("mock buffer_alloc answered ok but handed back nothing: refused as a "
                                                 "broken module"),
                      std::string::npos)
                << e.what();
        }
    }
    EXPECT_EQ(Buffer::live_count(), live);
}

TEST(PluginLoader, RefusesAnOpSupportedAnswerThatIsNeitherYesNorNoAsABrokenModule)
{
    const BackendEntry entry = open_backend(MOCK_BAD_ANSWER_PATH);
    ASSERT_EQ(entry.state, BackendEntry::State::available) << entry.reason;
    auto device = entry.backend->open(0);
    try {
        device->supports(VRB_OP_READ, 4, 0);
        ADD_FAILURE() << "0xdeadbeef was taken for an answer";
    } catch (const BrokenModuleError &e) {
        EXPECT_NE(std::string(e.what()).find("mock op_supported answered 3735928559, neither 1 (supported) nor 0"),
                  std::string::npos)
            << e.what();
    }
}

TEST(ModuleText, EveryFieldFilledToItsLastByteIsReadWithinItsSize)
{
    const BackendEntry entry = open_backend(MOCK_LONG_TEXT_PATH);
    ASSERT_EQ(entry.state, BackendEntry::State::available) << entry.reason;
    auto device = entry.backend->open(0);
    const DeviceRecord record = describe_device(*entry.backend, device.get(), 0);
    const nlohmann::json j = to_json(record);
    EXPECT_EQ(j["name"], std::string(256, 'n'));
    EXPECT_EQ(j["vendor"], "mock vendor");
    EXPECT_EQ(j["api"], std::string(32, 'a'));
    EXPECT_EQ(j["api_version"], std::string(64, 'v'));
    EXPECT_EQ(j["driver_version"], std::string(128, 'd'));
    EXPECT_EQ(j["pci"]["address"], std::string(32, 'p'));
    EXPECT_EQ(j["key"], "pci:" + std::string(32, 'p'));
    ASSERT_EQ(j["caches"].size(), 1u);
    EXPECT_EQ(j["caches"][0]["kind"], std::string(16, 'k'));
    ASSERT_EQ(j["properties"].size(), 2u) << j["properties"].dump();
    EXPECT_EQ(j["properties"][std::string(48, 'K')], std::string(80, 'V'));
    EXPECT_EQ(j["properties"]["second"], "property");
    ASSERT_EQ(j["memory_kinds"].size(), 1u);
    EXPECT_EQ(j["memory_kinds"][0]["name"], std::string(64, 'm'));
    EXPECT_EQ(j["memory_kinds"][0]["heap"], nullptr) << "heap 7 is past the heaps it described";
    // Through the worker's JSON and back, as `run --plan` reads it: nothing lost, nothing added.
    EXPECT_EQ(to_json(device_record_from_json(j)), j);
}

TEST(PluginLoader, ReadsTheVersionNegotiationMacrosConsistently)
{
    EXPECT_EQ(VRB_VERSION_MAJOR(VRB_MAKE_VERSION(3, 7)), 3u);
    EXPECT_EQ(VRB_VERSION_MINOR(VRB_MAKE_VERSION(3, 7)), 7u);
    EXPECT_EQ(VRB_VERSION_MAJOR(VRB_ABI_VERSION), VRB_ABI_VERSION_MAJOR);
}
