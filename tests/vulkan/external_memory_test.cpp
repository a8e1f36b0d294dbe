// Memory shared through ABI 1.2 on this machine's Vulkan device: an opaque fd exported
// by one VkDevice and imported by a second, and host memory imported by its address.
// Every bad handle is refused before the driver sees it, the fd stays the caller's when
// an import fails, and no test leaves an fd open behind it.
#include "backend.hpp"

#include <vrambench/external_handle.hpp>
#include <vrambench/operation.hpp>
#include <vrambench/pattern.h>

#include "../open_fds.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace vrb::vulkan::test {
namespace {

constexpr uint64_t kBytes = 1 << 20;

bool fd_is_open(int fd)
{
    return ::fcntl(fd, F_GETFD) != -1;
}

// Host memory of whole pages, unmapped at the end.
class Pages {
  public:
    explicit Pages(uint64_t bytes) : bytes_(bytes)
    {
        void *p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        base_ = p == MAP_FAILED ? nullptr : static_cast<uint32_t *>(p);
    }
    ~Pages()
    {
        if (base_) ::munmap(base_, bytes_);
    }
    Pages(const Pages &) = delete;
    Pages &operator=(const Pages &) = delete;
    uint32_t *get() const { return base_; }

  private:
    uint64_t bytes_;
    uint32_t *base_ = nullptr;
};

// A handle to `bytes` of host memory at `address`, of no memory type in particular.
vrb_external_handle host_pointer(uintptr_t address, uint64_t bytes)
{
    vrb_external_handle h{};
    h.struct_size = sizeof h;
    h.type = VRB_EXTERNAL_HOST_POINTER;
    h.handle = static_cast<int64_t>(address);
    h.bytes = bytes;
    h.allocation_bytes = bytes;
    h.memory_type_index = UINT32_MAX;
    return h;
}

class ExternalMemory : public ::testing::Test {
  protected:
    void SetUp() override
    {
        fds_before = open_fds();
        context = open_context();
        ASSERT_TRUE(context);
        exporter = open_device(context.get());
        importer = open_device(context.get()); // a second VkDevice of the same card
        ASSERT_TRUE(exporter && importer);
        ASSERT_NE(table().buffer_alloc_exportable, nullptr);
        ASSERT_NE(table().buffer_export, nullptr);
        ASSERT_NE(table().buffer_import, nullptr);
    }

    void TearDown() override
    {
        imported.reset();
        exported.reset();
        importer.reset();
        exporter.reset();
        context.reset();
        EXPECT_EQ(open_fds(), fds_before) << "an interop test left a file descriptor open";
    }

    BufferPtr alloc_exportable(uint64_t bytes = kBytes)
    {
        vrb_buffer *b = nullptr;
        const vrb_status s = table().buffer_alloc_exportable(exporter.get(), 0, bytes, VRB_EXTERNAL_OPAQUE_FD, &b);
        EXPECT_EQ(s, VRB_OK) << why(s);
        return BufferPtr(b);
    }

    vrb_external_handle export_fd(vrb_buffer *buffer)
    {
        vrb_external_handle h{};
        h.struct_size = sizeof h;
        const vrb_status s = table().buffer_export(buffer, &h);
        EXPECT_EQ(s, VRB_OK) << why(s);
        return h;
    }

    vrb_status import(const vrb_external_handle &h)
    {
        vrb_buffer *b = nullptr;
        const vrb_status s = table().buffer_import(importer.get(), &h, 0, &b);
        imported.reset(b);
        return s;
    }

    void expect_refused(const vrb_external_handle &h, const char *words)
    {
        const vrb_status s = import(h);
        EXPECT_EQ(s, VRB_ERROR_INVALID_ARGUMENT) << why(s);
        EXPECT_NE(std::string(table().last_error()).find(words), std::string::npos) << table().last_error();
        EXPECT_FALSE(imported);
    }

    static void fill(vrb_device *device, vrb_buffer *buffer, uint64_t bytes, uint32_t seed)
    {
        vrb_operation op = vrb::make_operation(VRB_OP_FILL, 4, bytes / 4);
        op.pattern = VRB_PATTERN_RANDOM;
        op.seed = seed;
        op.dst = {buffer, 0};
        run(device, op);
    }

    static uint64_t mismatches(vrb_device *device, vrb_buffer *buffer, uint64_t bytes, uint32_t seed)
    {
        vrb_operation op = vrb::make_operation(VRB_OP_CHECK, 4, bytes / 4);
        op.pattern = VRB_PATTERN_RANDOM;
        op.seed = seed;
        op.src1 = {buffer, 0};
        return run(device, op).output.mismatches;
    }

    std::size_t fds_before = 0;
    ContextPtr context;
    DevicePtr exporter, importer;
    BufferPtr exported, imported;
};

TEST_F(ExternalMemory, an_opaque_fd_carries_the_size_memory_type_and_uuids_of_the_allocation)
{
    exported = alloc_exportable();
    const vrb_external_handle h = export_fd(exported.get());
    EXPECT_EQ(h.type, static_cast<uint32_t>(VRB_EXTERNAL_OPAQUE_FD));
    EXPECT_GE(h.handle, 0);
    EXPECT_EQ(h.bytes, kBytes);
    EXPECT_GE(h.allocation_bytes, kBytes);
    EXPECT_NE(h.memory_type_index, UINT32_MAX);
    EXPECT_TRUE(h.flags & VRB_EXTERNAL_UUIDS_KNOWN);
    vrb_device_info info{};
    info.struct_size = sizeof info;
    ASSERT_EQ(table().device_describe(context.get(), 0, &info), VRB_OK);
    EXPECT_EQ(std::memcmp(h.device_uuid, info.uuid, 16), 0);
    EXPECT_STREQ(h.api, "Vulkan");
    ::close(static_cast<int>(h.handle));
}

TEST_F(ExternalMemory, bytes_written_by_one_device_are_read_by_the_other_both_ways)
{
    exported = alloc_exportable();
    const vrb_external_handle h = export_fd(exported.get());
    ASSERT_EQ(import(h), VRB_OK) << table().last_error();
    EXPECT_FALSE(fd_is_open(static_cast<int>(h.handle))) << "a successful import takes the fd";
    fill(exporter.get(), exported.get(), kBytes, 11);
    EXPECT_EQ(mismatches(importer.get(), imported.get(), kBytes, 11), 0u);
    fill(importer.get(), imported.get(), kBytes, 12);
    EXPECT_EQ(mismatches(exporter.get(), exported.get(), kBytes, 12), 0u);
    EXPECT_NE(mismatches(exporter.get(), exported.get(), kBytes, 11), 0u) << "the check can fail";
}

TEST_F(ExternalMemory, a_handle_without_a_memory_type_is_imported_into_device_local_memory)
{
    // CUDA and HIP export their memory with no memory type (they have none): the
    // importer places it in a device-local type of its own.
    exported = alloc_exportable();
    vrb_external_handle h = export_fd(exported.get());
    h.memory_type_index = UINT32_MAX;
    ASSERT_EQ(import(h), VRB_OK) << table().last_error();
    fill(exporter.get(), exported.get(), kBytes, 21);
    EXPECT_EQ(mismatches(importer.get(), imported.get(), kBytes, 21), 0u);
    fill(importer.get(), imported.get(), kBytes, 22);
    EXPECT_EQ(mismatches(exporter.get(), exported.get(), kBytes, 22), 0u);
}

TEST_F(ExternalMemory, host_memory_imported_by_its_address_is_the_devices_memory_too)
{
    Pages pages(kBytes);
    ASSERT_NE(pages.get(), nullptr);
    for (uint64_t lane = 0; lane < kBytes / 4; ++lane)
        pages.get()[lane] = vrb_pattern_random(lane, 21);
    ASSERT_EQ(import(host_pointer(reinterpret_cast<uintptr_t>(pages.get()), kBytes)), VRB_OK) << table().last_error();
    EXPECT_EQ(mismatches(importer.get(), imported.get(), kBytes, 21), 0u);
    fill(importer.get(), imported.get(), kBytes, 22);
    uint64_t wrong = 0;
    for (uint64_t lane = 0; lane < kBytes / 4; ++lane)
        wrong += pages.get()[lane] != vrb_pattern_random(lane, 22);
    EXPECT_EQ(wrong, 0u);
    imported.reset(); // before the pages it uses
}

TEST_F(ExternalMemory, a_buffer_not_allocated_exportable_has_no_fd_to_give)
{
    exported = alloc(exporter.get(), 0, kBytes);
    vrb_external_handle h{};
    h.struct_size = sizeof h;
    const vrb_status s = table().buffer_export(exported.get(), &h);
    EXPECT_EQ(s, VRB_ERROR_UNSUPPORTED) << why(s);
    EXPECT_NE(std::string(table().last_error()).find("not allocated exportable"), std::string::npos);
}

TEST_F(ExternalMemory, a_closed_fd_is_refused_before_the_driver_sees_it)
{
    exported = alloc_exportable();
    const vrb_external_handle h = export_fd(exported.get());
    ::close(static_cast<int>(h.handle));
    expect_refused(h, "is not open");
}

TEST_F(ExternalMemory, a_pipe_is_refused_as_not_memory_and_stays_the_callers)
{
    exported = alloc_exportable();
    vrb_external_handle h = export_fd(exported.get());
    ::close(static_cast<int>(h.handle));
    int ends[2];
    ASSERT_EQ(::pipe(ends), 0);
    h.handle = ends[0];
    expect_refused(h, "is a pipe");
    EXPECT_TRUE(fd_is_open(ends[0])) << "a failed import leaves the fd to the caller";
    ::close(ends[0]);
    ::close(ends[1]);
}

TEST_F(ExternalMemory, a_handle_whose_size_disagrees_with_its_fd_is_refused)
{
    exported = alloc_exportable();
    vrb_external_handle h = export_fd(exported.get());
    // Mesa's fd is a memfd a little larger than the allocation (its alignment and header):
    // a handle claiming twice the memory claims more than the fd holds.
    const uint64_t real = h.allocation_bytes;
    h.allocation_bytes = 2 * real;
    h.bytes = h.allocation_bytes;
    expect_refused(h, "less than the handle's allocation");
    EXPECT_TRUE(fd_is_open(static_cast<int>(h.handle)));
    h.allocation_bytes = real;
    h.bytes = h.allocation_bytes + 16;
    expect_refused(h, "does not fit its allocation");
    EXPECT_TRUE(fd_is_open(static_cast<int>(h.handle)));
    ::close(static_cast<int>(h.handle));
}

TEST_F(ExternalMemory, memory_of_another_card_is_refused_naming_both)
{
    exported = alloc_exportable();
    vrb_external_handle h = export_fd(exported.get());
    h.device_uuid[0] ^= 0xff;
    expect_refused(h, "another card");
    EXPECT_NE(std::string(table().last_error()).find(plugin::uuid_hex(h.device_uuid)), std::string::npos)
        << table().last_error();
    EXPECT_TRUE(fd_is_open(static_cast<int>(h.handle)));
    ::close(static_cast<int>(h.handle));
}

TEST_F(ExternalMemory, a_handle_of_abi_1_1_is_too_small_to_import)
{
    exported = alloc_exportable();
    vrb_external_handle h = export_fd(exported.get());
    h.struct_size = offsetof(vrb_external_handle, allocation_bytes);
    expect_refused(h, "too small");
    ::close(static_cast<int>(h.handle));
}

TEST_F(ExternalMemory, a_host_pointer_off_a_page_boundary_is_refused)
{
    Pages pages(2 * kBytes);
    ASSERT_NE(pages.get(), nullptr);
    vrb_external_handle h = host_pointer(reinterpret_cast<uintptr_t>(pages.get()) + 64, kBytes);
    expect_refused(h, "is not aligned");
    h.handle -= 64;
    h.bytes = kBytes + 64;
    expect_refused(h, "not a multiple");
}

TEST_F(ExternalMemory, host_memory_past_what_one_binding_covers_is_unsupported_not_a_crash)
{
    // maxStorageBufferRange is a uint32_t, so 4 GiB and a page exceed every device's; the
    // pages are reserved, never touched. Imported as one buffer, 256 MiB already crashed
    // lavapipe (in the standard suite's interop.bandwidth).
    const uint64_t bytes = (uint64_t{1} << 32) + 4096;
    Pages pages(bytes);
    ASSERT_NE(pages.get(), nullptr);
    const vrb_status s = import(host_pointer(reinterpret_cast<uintptr_t>(pages.get()), bytes));
    EXPECT_EQ(s, VRB_ERROR_UNSUPPORTED) << why(s);
    EXPECT_NE(std::string(table().last_error()).find("exceed the largest the device binds at once"), std::string::npos)
        << table().last_error();
    EXPECT_FALSE(imported);
}

TEST_F(ExternalMemory, an_exportable_buffer_past_one_allocation_is_unsupported)
{
    vrb_buffer *b = nullptr;
    const vrb_status s =
        table().buffer_alloc_exportable(exporter.get(), 0, uint64_t{1} << 50, VRB_EXTERNAL_OPAQUE_FD, &b);
    EXPECT_NE(s, VRB_OK);
    EXPECT_EQ(b, nullptr);
}

} // namespace
} // namespace vrb::vulkan::test
