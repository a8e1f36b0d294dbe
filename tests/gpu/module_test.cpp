// The built CUDA and HIP modules, loaded as the host loads them: they negotiate the
// ABI, refuse a host of another major version, and either find devices or say clearly
// why they cannot. Passes on machines with and without a GPU, and can fail on both.
#include "loaded_module.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

namespace {

using vrb::test::BuiltModule;
using vrb::test::LoadedModule;

class GpuModule : public testing::TestWithParam<BuiltModule> {
  protected:
    void SetUp() override
    {
        module_ = std::make_unique<LoadedModule>(GetParam().path);
        ASSERT_TRUE(module_->loaded()) << module_->error();
    }
    std::unique_ptr<LoadedModule> module_;
};

TEST_P(GpuModule, NegotiatesAbiVersionOneAndNamesItself)
{
    vrb_negotiation n;
    ASSERT_EQ(module_->negotiate(VRB_ABI_VERSION, n), VRB_OK) << n.message;
    EXPECT_EQ(n.module_version, VRB_ABI_VERSION);
    ASSERT_NE(n.table, nullptr);
    EXPECT_EQ(VRB_VERSION_MAJOR(n.table->abi_version), VRB_ABI_VERSION_MAJOR);
    EXPECT_GE(n.table->struct_size, sizeof(vrb_plugin_table));
    EXPECT_EQ(std::string(n.table->name), GetParam().name);
    EXPECT_FALSE(std::string(n.table->description).empty());
    EXPECT_FALSE(std::string(n.table->module_version).empty());
}

TEST_P(GpuModule, AnswersANewerMinorVersionWithItsOwn)
{
    vrb_negotiation n;
    ASSERT_EQ(module_->negotiate(VRB_MAKE_VERSION(VRB_ABI_VERSION_MAJOR, VRB_ABI_VERSION_MINOR + 5), n), VRB_OK);
    EXPECT_EQ(n.module_version, VRB_ABI_VERSION);
    EXPECT_NE(n.table, nullptr);
}

TEST_P(GpuModule, RefusesAHostOfAnotherMajorVersionNamingBothVersions)
{
    for (uint32_t major : {VRB_ABI_VERSION_MAJOR + 1, 0u}) {
        vrb_negotiation n;
        EXPECT_EQ(module_->negotiate(VRB_MAKE_VERSION(major, 3), n), VRB_ERROR_VERSION);
        EXPECT_EQ(n.table, nullptr);
        EXPECT_EQ(n.module_version, VRB_ABI_VERSION);
        const std::string message = n.message;
        char module_version[16], host_version[16];
        std::snprintf(module_version, sizeof module_version, "%u.%u", VRB_ABI_VERSION_MAJOR, VRB_ABI_VERSION_MINOR);
        std::snprintf(host_version, sizeof host_version, "%u.3", major);
        EXPECT_NE(message.find(module_version), std::string::npos) << message;
        EXPECT_NE(message.find(host_version), std::string::npos) << message;
    }
}

TEST_P(GpuModule, RejectsANegotiationStructTooSmallOrMissing)
{
    vrb_negotiation n{};
    n.struct_size = sizeof n - 1;
    n.host_version = VRB_ABI_VERSION;
    EXPECT_EQ(module_->entry()(&n), VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(n.table, nullptr);
    EXPECT_EQ(module_->entry()(nullptr), VRB_ERROR_INVALID_ARGUMENT);
}

TEST_P(GpuModule, FillsEveryFunctionSlotTheHostNeeds)
{
    const vrb_plugin_table *t = module_->table();
    ASSERT_NE(t, nullptr);
    for (const void *slot :
         {(const void *)t->last_error, (const void *)t->init, (const void *)t->shutdown, (const void *)t->device_count,
          (const void *)t->device_describe, (const void *)t->device_open, (const void *)t->device_close,
          (const void *)t->memory_kind_count, (const void *)t->memory_kind_describe, (const void *)t->buffer_alloc,
          (const void *)t->buffer_free, (const void *)t->buffer_upload, (const void *)t->buffer_download,
          (const void *)t->run})
        EXPECT_NE(slot, nullptr);
    ASSERT_NE(t->last_error(), nullptr);
}

TEST_P(GpuModule, InitFindsDevicesOrSaysClearlyWhyItIsUnavailable)
{
    const vrb_plugin_table *t = module_->table();
    ASSERT_NE(t, nullptr);
    const vrb_host_table host = vrb::test::quiet_host();
    vrb_context *context = reinterpret_cast<vrb_context *>(&context); // must be overwritten
    const vrb_status status = t->init(&host, &context);
    if (status == VRB_OK) {
        ASSERT_NE(context, nullptr);
        uint32_t count = 0;
        EXPECT_EQ(t->device_count(context, &count), VRB_OK) << t->last_error();
        EXPECT_GT(count, 0u);
        for (uint32_t i = 0; i < count; ++i) {
            vrb_device_info info{};
            info.struct_size = sizeof info;
            ASSERT_EQ(t->device_describe(context, i, &info), VRB_OK) << t->last_error();
            EXPECT_FALSE(std::string(info.name).empty());
            EXPECT_EQ(std::string(info.api), GetParam().api);
            EXPECT_TRUE(info.known & VRB_KNOWN_TOTAL_MEMORY);
            EXPECT_GT(info.total_memory_bytes, 0u);
        }
        vrb_device_info info{};
        info.struct_size = sizeof info;
        EXPECT_EQ(t->device_describe(context, count, &info), VRB_ERROR_INVALID_ARGUMENT);
        t->shutdown(context);
        return;
    }
    EXPECT_EQ(status, VRB_ERROR_UNAVAILABLE) << t->last_error();
    EXPECT_EQ(context, nullptr);
    const std::string message = t->last_error();
    EXPECT_FALSE(vrb::test::gpu_required(GetParam().name)) << "VRAMBENCH_REQUIRE_GPU: this machine has a GPU for the "
                                                           << GetParam().name << " backend, which says: " << message;
    EXPECT_GT(message.size(), 20u) << message;
    EXPECT_NE(message, "no error");
    EXPECT_EQ(message.rfind(GetParam().api + " is unavailable: ", 0), 0u) << message;
    RecordProperty("unavailable_because", message);
}

TEST_P(GpuModule, InitAcceptsAHostTableFromAnOlderSmallerHost)
{
    const vrb_plugin_table *t = module_->table();
    ASSERT_NE(t, nullptr);
    vrb_host_table host = vrb::test::quiet_host();
    host.struct_size = offsetof(vrb_host_table, log); // no log, no cancellation
    vrb_context *context = nullptr;
    const vrb_status status = t->init(&host, &context);
    EXPECT_TRUE(status == VRB_OK || status == VRB_ERROR_UNAVAILABLE) << t->last_error();
    if (status == VRB_OK) t->shutdown(context);
}

std::vector<BuiltModule> modules = vrb::test::built_modules();
INSTANTIATE_TEST_SUITE_P(Built, GpuModule, testing::ValuesIn(modules),
                         [](const testing::TestParamInfo<BuiltModule> &info) { return info.param.name; });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GpuModule);

// Where scripts/gpu-check requires a backend to reach this machine's GPU, that backend's
// module was built and is tested here: with none, every test above would pass by not
// being instantiated at all.
TEST(RequiredGpu, NamesOnlyBuiltGpuBackends)
{
    for (const std::string &name : vrb::test::required_gpu_backends()) {
        EXPECT_TRUE(name == "cuda" || name == "hip")
            << "VRAMBENCH_REQUIRE_GPU names '" << name << "': expected cuda or hip, space- or comma-separated";
        bool built = false;
        for (const BuiltModule &m : modules)
            built = built || m.name == name;
        EXPECT_TRUE(built) << "VRAMBENCH_REQUIRE_GPU requires " << name
                           << ", but its module was not built into these tests";
    }
}

#ifdef VRB_TEST_HIP_MODULE
// The HIP backend proper needs libamdhip64; without it (or without the backend file
// beside the loader) the module still loads and says why it cannot serve.
TEST(HipModule, LoadsAndSaysUnavailableWhenItsRuntimeCannotBeLoaded)
{
    namespace fs = std::filesystem;
    char pattern[] = "/tmp/vrambench-hip-test-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    const fs::path folder = pattern;
    const fs::path lonely = folder / "vrambench-hip.so";
    fs::copy_file(vrb::test::module_path(VRB_TEST_HIP_MODULE), lonely);
    {
        LoadedModule module(lonely.string());
        ASSERT_TRUE(module.loaded()) << module.error();
        const vrb_plugin_table *t = module.table();
        ASSERT_NE(t, nullptr);
        EXPECT_EQ(std::string(t->name), "hip");
        const vrb_host_table host = vrb::test::quiet_host();
        vrb_context *context = nullptr;
        EXPECT_EQ(t->init(&host, &context), VRB_ERROR_UNAVAILABLE);
        EXPECT_EQ(context, nullptr);
        const std::string message = t->last_error();
        EXPECT_EQ(message.rfind("HIP is unavailable: ", 0), 0u) << message;
        EXPECT_NE(message.find("vrambench-hip-runtime.so"), std::string::npos) << message;
        vrb_negotiation n;
        EXPECT_EQ(module.negotiate(VRB_MAKE_VERSION(VRB_ABI_VERSION_MAJOR + 1, 0), n), VRB_ERROR_VERSION);
    }
    fs::remove_all(folder);
}
#endif

} // namespace
