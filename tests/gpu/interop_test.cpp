// External memory of the built CUDA and HIP modules on a real device, through the ABI
// alone: memory one device exports is checked lane by lane through an import on a
// second device of the same card (and through the Vulkan module where it is built),
// host memory imported by pointer is read and written by kernels, and bad handles are
// refused with a clear message. Skipped, with the module's reason, without a device.
#include "loaded_module.hpp"

#include <vrambench/operation.hpp>
#include <vrambench/pattern.h>
#include <vrambench/plugin_support.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

namespace {

using vrb::test::BuiltModule;
using vrb::test::LoadedModule;

constexpr uint64_t kBytes = 16ull << 20;

int open_fds()
{
    int n = 0;
    for ([[maybe_unused]] const auto &entry : std::filesystem::directory_iterator("/proc/self/fd"))
        ++n;
    return n;
}

vrb_external_handle empty_handle()
{
    vrb_external_handle h{};
    h.struct_size = sizeof h;
    return h;
}

// One initialised module with its first device opened; `ok` false (and `why` set) where
// the module has no device here.
struct Side {
    std::unique_ptr<LoadedModule> module;
    const vrb_plugin_table *t = nullptr;
    vrb_context *context = nullptr;
    vrb_device *device = nullptr;
    std::string why;

    Side(const std::string &path, uint32_t index)
    {
        module = std::make_unique<LoadedModule>(path);
        if (!module->loaded()) {
            why = module->error();
            return;
        }
        t = module->table();
        const vrb_host_table host = vrb::test::quiet_host();
        if (!t || t->init(&host, &context) != VRB_OK) {
            why = t ? t->last_error() : "no table";
            context = nullptr;
            return;
        }
        if (t->device_open(context, index, &device) != VRB_OK) {
            why = t->last_error();
            device = nullptr;
        }
    }
    ~Side()
    {
        if (device) t->device_close(device);
        if (context) t->shutdown(context);
    }
    bool ok() const { return device != nullptr; }

    vrb_device_info describe(uint32_t index) const
    {
        vrb_device_info info{};
        info.struct_size = sizeof info;
        t->device_describe(context, index, &info);
        return info;
    }
    // The first kind with all of `flags`.
    uint32_t kind_with(uint32_t flags) const
    {
        uint32_t count = 0;
        t->memory_kind_count(device, &count);
        for (uint32_t k = 0; k < count; ++k) {
            vrb_memory_kind_info info{};
            info.struct_size = sizeof info;
            if (t->memory_kind_describe(device, k, &info) == VRB_OK && (info.flags & flags) == flags) return k;
        }
        return UINT32_MAX;
    }
    // FILL with `seed`, or CHECK against it: the mismatching lanes.
    uint64_t pattern(uint32_t kind, vrb_buffer *buffer, uint64_t bytes, uint32_t seed) const
    {
        vrb_operation op = vrb::make_operation(kind, 16, bytes / 16);
        op.pattern = VRB_PATTERN_RANDOM;
        op.seed = seed;
        (kind == VRB_OP_FILL ? op.dst : op.src1).buffer = buffer;
        double seconds = 0;
        vrb_op_output out{};
        out.struct_size = sizeof out;
        EXPECT_EQ(t->run(device, &op, 1, &seconds, &out), VRB_OK) << t->last_error();
        return out.mismatches;
    }
};

class GpuInterop : public testing::TestWithParam<BuiltModule> {
  protected:
    void SetUp() override
    {
        fds_before_ = open_fds();
        a_ = std::make_unique<Side>(GetParam().path, 0);
        if (!a_->ok()) VRB_SKIP_UNLESS_GPU_REQUIRED(GetParam().name, a_->why);
        b_ = std::make_unique<Side>(GetParam().path, 0);
        ASSERT_TRUE(b_->ok()) << b_->why;
    }
    void TearDown() override
    {
        b_.reset();
        a_.reset();
        if (!IsSkipped()) {
            EXPECT_EQ(open_fds(), fds_before_) << "an fd leaked";
        }
    }

    // Exports `bytes` of `from`'s kernels' memory and imports them into `into`.
    static bool share(const Side &from, const Side &into, uint64_t bytes, vrb_buffer *&exported, vrb_buffer *&imported)
    {
        const uint32_t kind = from.kind_with(VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_DEVICE_ACCESS);
        EXPECT_NE(kind, UINT32_MAX);
        EXPECT_EQ(from.t->buffer_alloc_exportable(from.device, kind, bytes, VRB_EXTERNAL_OPAQUE_FD, &exported), VRB_OK)
            << from.t->last_error();
        if (!exported) return false;
        vrb_external_handle h = empty_handle();
        EXPECT_EQ(from.t->buffer_export(exported, &h), VRB_OK) << from.t->last_error();
        if (h.handle <= 0) return false;
        const vrb_status status = into.t->buffer_import(into.device, &h, 0, &imported);
        EXPECT_EQ(status, VRB_OK) << into.t->last_error();
        if (status != VRB_OK) ::close(int(h.handle)); // a failed import leaves the fd ours
        return imported != nullptr;
    }

    // Bytes written through each side are read back exactly through the other.
    static void hand_off(const Side &from, const Side &into, vrb_buffer *exported, vrb_buffer *imported, uint64_t bytes)
    {
        EXPECT_EQ(from.pattern(VRB_OP_FILL, exported, bytes, 1234), 0u);
        EXPECT_EQ(into.pattern(VRB_OP_CHECK, imported, bytes, 1234), 0u) << "the importer sees the exporter's lanes";
        EXPECT_EQ(into.pattern(VRB_OP_FILL, imported, bytes, 99), 0u);
        EXPECT_EQ(from.pattern(VRB_OP_CHECK, exported, bytes, 99), 0u) << "the exporter sees the importer's lanes";
    }

    std::unique_ptr<Side> a_, b_;
    int fds_before_ = 0;
};

TEST(GpuModuleTable, TheCudaModuleOffersExportImportAndExportableAllocation)
{
    for (const BuiltModule &m : vrb::test::built_modules()) {
        if (m.name != "cuda") continue; // HIP's loader offers them only once its runtime loads
        LoadedModule module(m.path);
        ASSERT_TRUE(module.loaded()) << module.error();
        const vrb_plugin_table *t = module.table();
        ASSERT_NE(t, nullptr);
        EXPECT_NE(t->buffer_export, nullptr);
        EXPECT_NE(t->buffer_import, nullptr);
        EXPECT_NE(t->buffer_alloc_exportable, nullptr);
    }
}

TEST_P(GpuInterop, MemoryExportedByOneDeviceIsCheckedLaneByLaneThroughAnImportOnASecond)
{
    vrb_buffer *exported = nullptr, *imported = nullptr;
    if (share(*a_, *b_, kBytes, exported, imported)) hand_off(*a_, *b_, exported, imported, kBytes);
    if (imported) b_->t->buffer_free(imported);
    if (exported) a_->t->buffer_free(exported);
}

TEST_P(GpuInterop, HostMemoryImportedByPointerIsReadAndWrittenByKernelsInPlace)
{
    const auto page = std::size_t(::sysconf(_SC_PAGESIZE));
    const std::size_t bytes = 4 << 20;
    void *memory = nullptr;
    ASSERT_EQ(::posix_memalign(&memory, page, bytes), 0);
    auto *lanes = static_cast<uint32_t *>(memory);
    for (std::size_t i = 0; i < bytes / 4; ++i)
        lanes[i] = vrb_pattern(VRB_PATTERN_RANDOM, i, 7);
    vrb_external_handle h = empty_handle();
    h.type = VRB_EXTERNAL_HOST_POINTER;
    h.handle = int64_t(reinterpret_cast<uintptr_t>(memory));
    h.bytes = bytes;
    h.allocation_bytes = bytes;
    h.memory_type_index = UINT32_MAX;
    vrb::plugin::copy_string(h.api, "host");
    vrb_buffer *imported = nullptr;
    ASSERT_EQ(a_->t->buffer_import(a_->device, &h, 0, &imported), VRB_OK) << a_->t->last_error();
    EXPECT_EQ(a_->pattern(VRB_OP_CHECK, imported, bytes, 7), 0u) << "kernels read the host's lanes in place";
    EXPECT_EQ(a_->pattern(VRB_OP_FILL, imported, bytes, 8), 0u);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < bytes / 4; ++i)
        wrong += lanes[i] != vrb_pattern(VRB_PATTERN_RANDOM, i, 8);
    EXPECT_EQ(wrong, 0u) << "the host sees the kernels' lanes in place";
    a_->t->buffer_free(imported);
    std::free(memory);
}

TEST_P(GpuInterop, BadHandlesAreRefusedWithAClearMessageAndTheFdLeftTheCallers)
{
    int pipe_fds[2];
    ASSERT_EQ(::pipe(pipe_fds), 0);
    vrb_external_handle h = empty_handle();
    h.type = VRB_EXTERNAL_OPAQUE_FD;
    h.handle = pipe_fds[0];
    h.bytes = h.allocation_bytes = 1 << 20;
    vrb::plugin::copy_string(h.api, "Vulkan");
    vrb_buffer *b = nullptr;
    EXPECT_EQ(a_->t->buffer_import(a_->device, &h, 0, &b), VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(a_->t->last_error()).find("is a pipe"), std::string::npos) << a_->t->last_error();
    EXPECT_NE(::fcntl(pipe_fds[0], F_GETFD), -1);
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    EXPECT_EQ(a_->t->buffer_import(a_->device, &h, 0, &b), VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(a_->t->last_error()).find("is not open"), std::string::npos) << a_->t->last_error();

    // Memory of another card: refused by UUID, naming both.
    vrb_buffer *exported = nullptr;
    const uint32_t kind = a_->kind_with(VRB_MEMORY_DEVICE_LOCAL);
    ASSERT_EQ(a_->t->buffer_alloc_exportable(a_->device, kind, 1 << 20, VRB_EXTERNAL_OPAQUE_FD, &exported), VRB_OK)
        << a_->t->last_error();
    vrb_external_handle theirs = empty_handle();
    ASSERT_EQ(a_->t->buffer_export(exported, &theirs), VRB_OK) << a_->t->last_error();
    if (theirs.flags & VRB_EXTERNAL_UUIDS_KNOWN) {
        theirs.device_uuid[0] ^= 0xff;
        EXPECT_EQ(b_->t->buffer_import(b_->device, &theirs, 0, &b), VRB_ERROR_INVALID_ARGUMENT);
        EXPECT_NE(std::string(b_->t->last_error()).find("another card"), std::string::npos) << b_->t->last_error();
    }
    ::close(int(theirs.handle));
    a_->t->buffer_free(exported);
    EXPECT_EQ(b, nullptr);
}

#ifdef VRB_TEST_VULKAN_MODULE
// The Vulkan device that is the same card as the GPU module's first device, or UINT32_MAX.
uint32_t same_card_in_vulkan(const Side &vulkan, const vrb_device_info &gpu)
{
    uint32_t count = 0;
    vulkan.t->device_count(vulkan.context, &count);
    for (uint32_t i = 0; i < count; ++i) {
        const vrb_device_info info = vulkan.describe(i);
        if ((info.known & gpu.known & VRB_KNOWN_UUID) && std::memcmp(info.uuid, gpu.uuid, 16) == 0) return i;
    }
    return UINT32_MAX;
}

// The Vulkan module opened on the card of `gpu`'s first device; null, with `why`, where
// Vulkan is not available or has no device on that card.
std::unique_ptr<Side> vulkan_on_same_card(const Side &gpu, std::string &why)
{
    const vrb_device_info card = gpu.describe(0);
    uint32_t index = UINT32_MAX;
    {
        Side probe(vrb::test::module_path(VRB_TEST_VULKAN_MODULE), 0);
        if (!probe.context) {
            why = "Vulkan: " + probe.why;
            return nullptr;
        }
        index = same_card_in_vulkan(probe, card);
    }
    if (index == UINT32_MAX) {
        why = std::string("no Vulkan device is the same card as ") + card.name;
        return nullptr;
    }
    return std::make_unique<Side>(vrb::test::module_path(VRB_TEST_VULKAN_MODULE), index);
}

TEST_P(GpuInterop, OneAllocationIsSharedWithVulkanOnTheSameCardBothWays)
{
    std::string why;
    const std::unique_ptr<Side> on_card = vulkan_on_same_card(*a_, why);
    if (!on_card) GTEST_SKIP() << why;
    ASSERT_TRUE(on_card->ok()) << on_card->why;
    const Side &vulkan = *on_card;
    for (const bool gpu_exports : {false, true}) {
        SCOPED_TRACE(gpu_exports ? GetParam().name + "->vulkan" : "vulkan->" + GetParam().name);
        const Side &from = gpu_exports ? *a_ : vulkan;
        const Side &into = gpu_exports ? vulkan : *a_;
        vrb_buffer *exported = nullptr, *imported = nullptr;
        if (share(from, into, kBytes, exported, imported)) hand_off(from, into, exported, imported, kBytes);
        if (imported) into.t->buffer_free(imported);
        if (exported) from.t->buffer_free(exported);
    }
}

// A timeline semaphore the Vulkan module exports orders the GPU module's queue and
// Vulkan's both ways: the GPU module's signal reaches a host wait through Vulkan, and
// Vulkan's signal releases a device-side wait of the GPU module, whose next signal
// comes back. What interop.sync times, checked once here on a real card.
TEST_P(GpuInterop, ATimelineSemaphoreFromVulkanCarriesSignalsBothWays)
{
    std::string why;
    const std::unique_ptr<Side> on_card = vulkan_on_same_card(*a_, why);
    if (!on_card) GTEST_SKIP() << why;
    ASSERT_TRUE(on_card->ok()) << on_card->why;
    const Side &vulkan = *on_card;
    if (!a_->t->semaphore_import) GTEST_SKIP() << GetParam().name << " imports no semaphore";
    vrb_semaphore *exported = nullptr, *imported = nullptr;
    if (vulkan.t->semaphore_create_exportable(vulkan.device, VRB_EXTERNAL_OPAQUE_FD, &exported) != VRB_OK)
        GTEST_SKIP() << "Vulkan: " << vulkan.t->last_error();
    vrb_external_handle h = empty_handle();
    ASSERT_EQ(vulkan.t->semaphore_export(exported, &h), VRB_OK) << vulkan.t->last_error();
    const vrb_status status = a_->t->semaphore_import(a_->device, &h, &imported);
    if (status != VRB_OK) ::close(int(h.handle)); // a failed import leaves the fd ours
    if (status == VRB_ERROR_UNSUPPORTED) {
        vulkan.t->semaphore_free(exported);
        GTEST_SKIP() << GetParam().name << ": " << a_->t->last_error();
    }
    ASSERT_EQ(status, VRB_OK) << a_->t->last_error();
    constexpr uint64_t five_seconds = 5'000'000'000ull;
    EXPECT_EQ(a_->t->semaphore_signal(a_->device, imported, 1), VRB_OK) << a_->t->last_error();
    EXPECT_EQ(vulkan.t->semaphore_host_wait(exported, 1, five_seconds), VRB_OK) << vulkan.t->last_error();
    EXPECT_EQ(a_->t->semaphore_device_wait(a_->device, imported, 2), VRB_OK) << a_->t->last_error();
    EXPECT_EQ(a_->t->semaphore_signal(a_->device, imported, 3), VRB_OK) << a_->t->last_error();
    EXPECT_NE(vulkan.t->semaphore_host_wait(exported, 3, 100'000'000ull), VRB_OK)
        << "the GPU module signalled 3 before Vulkan's 2 released its wait";
    EXPECT_EQ(vulkan.t->semaphore_signal(vulkan.device, exported, 2), VRB_OK) << vulkan.t->last_error();
    EXPECT_EQ(vulkan.t->semaphore_host_wait(exported, 3, five_seconds), VRB_OK) << vulkan.t->last_error();
    a_->t->semaphore_free(imported);
    vulkan.t->semaphore_free(exported);
}
#endif

std::vector<BuiltModule> interop_modules = vrb::test::built_modules();
INSTANTIATE_TEST_SUITE_P(Built, GpuInterop, testing::ValuesIn(interop_modules),
                         [](const testing::TestParamInfo<BuiltModule> &info) { return info.param.name; });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GpuInterop);

} // namespace
