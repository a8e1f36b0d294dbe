// The CUDA/HIP module's external memory, through its own table, against the recording
// stand-in (standin/): the driver calls come in the order the virtual memory API needs
// and are undone in reverse, a failure halfway leaves nothing behind, every fd is
// accounted for, and a bad handle is refused before the driver sees it.
#include "backend.hpp"
#include "standin_journal.hpp"
#include "table_of_standin.hpp"

#include <vrambench/external_handle.hpp>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

namespace {

namespace standin = vrb::test::standin;
using standin::Call;

int open_fds()
{
    int n = 0;
    for ([[maybe_unused]] const auto &entry : std::filesystem::directory_iterator("/proc/self/fd"))
        ++n;
    return n;
}

bool fd_is_open(int fd)
{
    return ::fcntl(fd, F_GETFD) != -1;
}

// The journal's calls of the external memory kind, in order.
std::vector<Call> memory_calls()
{
    std::vector<Call> calls;
    for (const standin::Record &r : standin::journal())
        if (r.call >= Call::vm_create) calls.push_back(r.call);
    return calls;
}

std::string named(const std::vector<Call> &calls)
{
    std::string text;
    for (Call c : calls)
        text += std::string(text.empty() ? "" : ", ") + standin::name(c);
    return text;
}

std::vector<uint8_t> counting(std::size_t n, uint8_t from)
{
    std::vector<uint8_t> v(n);
    std::iota(v.begin(), v.end(), from);
    return v;
}

vrb_external_handle empty_handle()
{
    vrb_external_handle h{};
    h.struct_size = sizeof h;
    return h;
}

class StandinInterop : public testing::Test {
  protected:
    void SetUp() override
    {
        standin::hide_driver_symbol("");
        fds_before_ = open_fds();
        ASSERT_EQ(t.init(nullptr, &context_), VRB_OK) << t.last_error();
        ASSERT_EQ(t.device_open(context_, 0, &exporter_), VRB_OK) << t.last_error();
        ASSERT_EQ(t.device_open(context_, 0, &importer_), VRB_OK) << t.last_error();
        standin::clear();
    }
    void TearDown() override
    {
        if (importer_) t.device_close(importer_);
        if (exporter_) t.device_close(exporter_);
        if (context_) t.shutdown(context_);
        standin::hide_driver_symbol("");
        EXPECT_EQ(standin::live_resources(), 0) << "the stand-in still holds memory the module made";
        EXPECT_EQ(open_fds(), fds_before_) << "an fd leaked";
    }

    vrb_buffer *exportable(uint64_t bytes)
    {
        vrb_buffer *b = nullptr;
        EXPECT_EQ(t.buffer_alloc_exportable(exporter_, vrb::gpu::kind_device, bytes, VRB_EXTERNAL_OPAQUE_FD, &b),
                  VRB_OK)
            << t.last_error();
        return b;
    }
    vrb_external_handle exported(vrb_buffer *b)
    {
        vrb_external_handle h = empty_handle();
        EXPECT_EQ(t.buffer_export(b, &h), VRB_OK) << t.last_error();
        return h;
    }
    // A handle as another API (Vulkan) hands one out: an fd of memory of `bytes`.
    static vrb_external_handle foreign_handle(int fd, uint64_t bytes)
    {
        vrb_external_handle h = empty_handle();
        h.type = VRB_EXTERNAL_OPAQUE_FD;
        h.handle = fd;
        h.bytes = bytes;
        h.allocation_bytes = bytes;
        h.memory_type_index = 2;
        vrb::plugin::copy_string(h.api, "Vulkan");
        return h;
    }
    static int memfd_of(uint64_t bytes)
    {
        const int fd = ::memfd_create("interop-test", MFD_CLOEXEC);
        EXPECT_GE(fd, 0);
        EXPECT_EQ(::ftruncate(fd, off_t(bytes)), 0);
        return fd;
    }
    // The import must fail with `status`, before the stand-in saw any call.
    void expect_refused_before_the_driver(const vrb_external_handle &h, vrb_status status, const std::string &words)
    {
        standin::clear();
        vrb_buffer *b = reinterpret_cast<vrb_buffer *>(&b);
        EXPECT_EQ(t.buffer_import(importer_, &h, 0, &b), status) << t.last_error();
        EXPECT_EQ(b, nullptr);
        EXPECT_NE(std::string(t.last_error()).find(words), std::string::npos) << t.last_error();
        EXPECT_TRUE(memory_calls().empty()) << named(memory_calls());
    }

    const vrb_plugin_table &t = vrb::test::standin_table();
    vrb_context *context_ = nullptr;
    vrb_device *exporter_ = nullptr;
    vrb_device *importer_ = nullptr;
    int fds_before_ = 0;
};

TEST_F(StandinInterop, TheTableOffersExportImportAndExportableAllocation)
{
    EXPECT_NE(t.buffer_export, nullptr);
    EXPECT_NE(t.buffer_import, nullptr);
    EXPECT_NE(t.buffer_alloc_exportable, nullptr);
}

TEST_F(StandinInterop, ExportableMemoryIsCreatedReservedMappedAndOpenedThenUndoneInReverse)
{
    vrb_buffer *b = exportable(100000); // rounded up to the stand-in's granularity of 64 KiB
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(named(memory_calls()), "vm create, vm reserve, vm map, vm set access");
    EXPECT_EQ(standin::journal().front().bytes, 128u * 1024);
    standin::clear();
    t.buffer_free(b);
    EXPECT_EQ(named(memory_calls()), "vm unmap, vm address free, vm release");
}

TEST_F(StandinInterop, MemoryExportedByOneDeviceHoldsTheSameBytesWhenImportedByAnother)
{
    vrb_buffer *source = exportable(200000);
    ASSERT_NE(source, nullptr);
    standin::clear();
    vrb_external_handle h = exported(source);
    EXPECT_EQ(named(memory_calls()), "vm export");
    EXPECT_EQ(h.type, uint32_t(VRB_EXTERNAL_OPAQUE_FD));
    EXPECT_EQ(h.bytes, 200000u);
    EXPECT_EQ(h.allocation_bytes, 256u * 1024);
    EXPECT_EQ(h.memory_type_index, UINT32_MAX);
    EXPECT_TRUE(h.flags & VRB_EXTERNAL_UUIDS_KNOWN);
    EXPECT_FALSE(h.flags & VRB_EXTERNAL_DEDICATED);
    EXPECT_STREQ(h.api, vrb::gpu::kApiName);
    const int fd = int(h.handle);
    ASSERT_TRUE(fd_is_open(fd));

    standin::clear();
    vrb_buffer *seen = nullptr;
    ASSERT_EQ(t.buffer_import(importer_, &h, 0, &seen), VRB_OK) << t.last_error();
    EXPECT_EQ(named(memory_calls()), "vm import, vm reserve, vm map, vm set access");
    EXPECT_FALSE(fd_is_open(fd)) << "the importer takes the fd on success";

    const std::vector<uint8_t> data = counting(200000, 11);
    ASSERT_EQ(t.buffer_upload(source, 0, data.data(), data.size()), VRB_OK) << t.last_error();
    std::vector<uint8_t> read(data.size(), 0);
    ASSERT_EQ(t.buffer_download(seen, 0, read.data(), read.size()), VRB_OK) << t.last_error();
    EXPECT_EQ(read, data);

    standin::clear();
    t.buffer_free(seen);
    t.buffer_free(source);
    EXPECT_EQ(named(memory_calls()), "vm unmap, vm address free, vm release, vm unmap, vm address free, vm release");
}

TEST_F(StandinInterop, AFailureHalfwayThroughAnExportableAllocationUndoesWhatWasDone)
{
    for (Call failing : {Call::vm_create, Call::vm_reserve, Call::vm_map, Call::vm_set_access}) {
        standin::clear();
        standin::fail_next(failing);
        vrb_buffer *b = reinterpret_cast<vrb_buffer *>(&b);
        EXPECT_EQ(t.buffer_alloc_exportable(exporter_, vrb::gpu::kind_device, 4096, VRB_EXTERNAL_OPAQUE_FD, &b),
                  VRB_ERROR_DEVICE)
            << standin::name(failing);
        EXPECT_EQ(b, nullptr);
        EXPECT_EQ(standin::live_resources(), 0)
            << "after a failed " << standin::name(failing) << ": " << named(memory_calls());
    }
    // The last one: everything before it undone in reverse.
    EXPECT_EQ(named(memory_calls()),
              "vm create, vm reserve, vm map, vm set access, vm unmap, vm address free, vm release");
}

TEST_F(StandinInterop, AFailedImportLeavesTheFdTheCallersAndNothingElseBehind)
{
    vrb_buffer *source = exportable(65536);
    ASSERT_NE(source, nullptr);
    const int fds = open_fds();
    vrb_external_handle h = exported(source);
    for (Call failing : {Call::vm_import, Call::vm_reserve, Call::vm_map, Call::vm_set_access}) {
        standin::clear();
        standin::fail_next(failing);
        vrb_buffer *b = nullptr;
        EXPECT_NE(t.buffer_import(importer_, &h, 0, &b), VRB_OK) << standin::name(failing);
        EXPECT_EQ(b, nullptr);
        EXPECT_TRUE(fd_is_open(int(h.handle))) << "the fd stays the caller's after a failed " << standin::name(failing);
        EXPECT_EQ(open_fds(), fds + 1) << "after a failed " << standin::name(failing);
    }
    ::close(int(h.handle));
    t.buffer_free(source);
}

TEST_F(StandinInterop, AnotherApisFdIsImportedThroughTheRuntimeWhichGetsADuplicate)
{
    const uint64_t bytes = 3 * 4096;
    const int fd = memfd_of(bytes);
    const std::vector<uint8_t> data = counting(bytes, 5);
    ASSERT_EQ(::pwrite(fd, data.data(), data.size(), 0), ssize_t(bytes));
    vrb_external_handle h = foreign_handle(fd, bytes);
    h.flags = VRB_EXTERNAL_DEDICATED;

    vrb_buffer *b = nullptr;
    ASSERT_EQ(t.buffer_import(importer_, &h, 0, &b), VRB_OK) << t.last_error();
    EXPECT_EQ(named(memory_calls()), "external import, external map");
    EXPECT_FALSE(fd_is_open(fd)) << "the importer takes the fd on success";
    std::vector<uint8_t> read(bytes, 0);
    ASSERT_EQ(t.buffer_download(b, 0, read.data(), read.size()), VRB_OK) << t.last_error();
    EXPECT_EQ(read, data);

    standin::clear();
    t.buffer_free(b);
    EXPECT_EQ(named(memory_calls()), "external destroy") << "the mapping is freed first, then the memory";
}

TEST_F(StandinInterop, AForeignImportThatFailsToMapDestroysTheImportAndLeavesTheFdTheCallers)
{
    const int fd = memfd_of(4096);
    const int fds = open_fds();
    const vrb_external_handle h = foreign_handle(fd, 4096);
    for (Call failing : {Call::external_import, Call::external_map}) {
        standin::clear();
        standin::fail_next(failing);
        vrb_buffer *b = nullptr;
        EXPECT_EQ(t.buffer_import(importer_, &h, 0, &b), VRB_ERROR_DEVICE) << standin::name(failing);
        EXPECT_TRUE(fd_is_open(fd));
        EXPECT_EQ(open_fds(), fds) << "after a failed " << standin::name(failing);
    }
    EXPECT_EQ(named(memory_calls()), "external import, external map, external destroy");
    ::close(fd);
}

TEST_F(StandinInterop, HostMemoryIsRegisteredInPlaceAndUnregisteredWhenFreed)
{
    const std::size_t page = std::size_t(::sysconf(_SC_PAGESIZE));
    void *memory = nullptr;
    ASSERT_EQ(::posix_memalign(&memory, page, 2 * page), 0);
    vrb_external_handle h = empty_handle();
    h.type = VRB_EXTERNAL_HOST_POINTER;
    h.handle = int64_t(reinterpret_cast<uintptr_t>(memory));
    h.bytes = 2 * page;
    h.allocation_bytes = 2 * page;
    h.memory_type_index = UINT32_MAX;
    vrb::plugin::copy_string(h.api, "host");

    vrb_buffer *b = nullptr;
    ASSERT_EQ(t.buffer_import(importer_, &h, 0, &b), VRB_OK) << t.last_error();
    EXPECT_EQ(named(memory_calls()), "host register");
    const std::vector<uint8_t> data = counting(64, 1);
    ASSERT_EQ(t.buffer_upload(b, 100, data.data(), data.size()), VRB_OK);
    EXPECT_EQ(std::memcmp(static_cast<char *>(memory) + 100, data.data(), data.size()), 0)
        << "the imported buffer is the host memory itself";
    standin::clear();
    t.buffer_free(b);
    EXPECT_EQ(named(memory_calls()), "host unregister");
    std::free(memory);
}

// A vGPU, a MIG instance or confidential computing answers "not supported" to
// exportable memory: the card cannot share it, which the interop probes report as
// skipped, in the driver's words; it did not fail.
TEST_F(StandinInterop, ADriverThatDoesNotSupportExportableMemoryIsUnsupportedInItsOwnWords)
{
    for (Call refusing : {Call::vm_create, Call::vm_reserve, Call::vm_map, Call::vm_set_access}) {
        standin::fail_next(refusing, standin::Failure::not_supported);
        vrb_buffer *b = reinterpret_cast<vrb_buffer *>(&b);
        EXPECT_EQ(t.buffer_alloc_exportable(exporter_, vrb::gpu::kind_device, 4096, VRB_EXTERNAL_OPAQUE_FD, &b),
                  VRB_ERROR_UNSUPPORTED)
            << standin::name(refusing) << ": " << t.last_error();
        EXPECT_EQ(b, nullptr);
        const std::string message = t.last_error();
        EXPECT_NE(message.find("operation not supported (standinErrorNotSupported)"), std::string::npos) << message;
        EXPECT_EQ(standin::live_resources(), 0) << "after " << standin::name(refusing);
    }
    // Any other answer is still the device failing.
    standin::fail_next(Call::vm_create);
    vrb_buffer *b = nullptr;
    EXPECT_EQ(t.buffer_alloc_exportable(exporter_, vrb::gpu::kind_device, 4096, VRB_EXTERNAL_OPAQUE_FD, &b),
              VRB_ERROR_DEVICE);
}

TEST_F(StandinInterop, ADriverThatDoesNotSupportExportingOrImportingIsUnsupportedInItsOwnWords)
{
    vrb_buffer *source = exportable(65536);
    ASSERT_NE(source, nullptr);
    standin::fail_next(Call::vm_export, standin::Failure::not_supported);
    vrb_external_handle refused = empty_handle();
    EXPECT_EQ(t.buffer_export(source, &refused), VRB_ERROR_UNSUPPORTED) << t.last_error();
    EXPECT_NE(std::string(t.last_error()).find("operation not supported"), std::string::npos) << t.last_error();

    vrb_external_handle h = exported(source);
    for (Call refusing : {Call::vm_import}) {
        standin::fail_next(refusing, standin::Failure::not_supported);
        vrb_buffer *b = nullptr;
        EXPECT_EQ(t.buffer_import(importer_, &h, 0, &b), VRB_ERROR_UNSUPPORTED) << t.last_error();
        EXPECT_TRUE(fd_is_open(int(h.handle))) << "a refused import leaves the fd the caller's";
    }
    ::close(int(h.handle));
    t.buffer_free(source);

    const uint64_t bytes = 4096;
    const int fd = memfd_of(bytes);
    vrb_external_handle foreign = foreign_handle(fd, bytes);
    standin::fail_next(Call::external_import, standin::Failure::not_supported);
    vrb_buffer *b = nullptr;
    EXPECT_EQ(t.buffer_import(importer_, &foreign, 0, &b), VRB_ERROR_UNSUPPORTED) << t.last_error();
    EXPECT_NE(std::string(t.last_error()).find("operation not supported"), std::string::npos) << t.last_error();
    EXPECT_TRUE(fd_is_open(fd));
    ::close(fd);
}

TEST_F(StandinInterop, AHostPointerThatIsNotPageAlignedIsRefusedBeforeTheDriverSeesIt)
{
    const std::size_t page = std::size_t(::sysconf(_SC_PAGESIZE));
    std::vector<char> memory(3 * page);
    vrb_external_handle h = empty_handle();
    h.type = VRB_EXTERNAL_HOST_POINTER;
    h.handle = int64_t(reinterpret_cast<uintptr_t>(memory.data()) | 1);
    h.bytes = page;
    h.allocation_bytes = page;
    expect_refused_before_the_driver(h, VRB_ERROR_INVALID_ARGUMENT, "is not aligned");
}

TEST_F(StandinInterop, AClosedFdIsRefusedBeforeTheDriverSeesIt)
{
    const int fd = memfd_of(4096);
    ::close(fd);
    expect_refused_before_the_driver(foreign_handle(fd, 4096), VRB_ERROR_INVALID_ARGUMENT, "is not open");
}

TEST_F(StandinInterop, AnFdOfAnotherKindIsRefusedBeforeTheDriverSeesIt)
{
    int pipe_fds[2];
    ASSERT_EQ(::pipe(pipe_fds), 0);
    expect_refused_before_the_driver(foreign_handle(pipe_fds[0], 4096), VRB_ERROR_INVALID_ARGUMENT, "is a pipe");
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
}

TEST_F(StandinInterop, AHandleLargerThanTheMemoryBehindItsFdIsRefusedBeforeTheDriverSeesIt)
{
    const int fd = memfd_of(4096);
    expect_refused_before_the_driver(foreign_handle(fd, 8192), VRB_ERROR_INVALID_ARGUMENT,
                                     "less than the handle's allocation");
    vrb_external_handle h = foreign_handle(fd, 4096);
    h.bytes = 8192; // the buffer does not fit the allocation it names
    expect_refused_before_the_driver(h, VRB_ERROR_INVALID_ARGUMENT, "does not fit its allocation");
    ::close(fd);
}

TEST_F(StandinInterop, MemoryOfAnotherCardIsRefusedBeforeTheDriverSeesItNamingBothCards)
{
    const int fd = memfd_of(4096);
    vrb_external_handle h = foreign_handle(fd, 4096);
    h.flags = VRB_EXTERNAL_UUIDS_KNOWN;
    std::memset(h.device_uuid, 0xee, sizeof h.device_uuid);
    expect_refused_before_the_driver(h, VRB_ERROR_INVALID_ARGUMENT, "lives on another card");
    EXPECT_NE(std::string(t.last_error()).find("eeeeeeee-eeee"), std::string::npos) << t.last_error();
    EXPECT_NE(std::string(t.last_error()).find("5a170d1e-0001"), std::string::npos) << t.last_error();
    ::close(fd);
}

// HIP names an AMD card by ROCr's UUID, Vulkan by one made of the PCI address: the
// module matches Vulkan's memory to its card by the PCI address both report, and hands
// its own out with that address.
class StandinAmdCard : public StandinInterop {
  protected:
    void SetUp() override
    {
        standin::set_pci_address("0000:C1:00.0"); // as the runtime writes it: upper case
        StandinInterop::SetUp();
    }
    void TearDown() override
    {
        StandinInterop::TearDown();
        standin::set_pci_address("0000:00:00.0");
    }
    // Memory from Vulkan's view of a card: its own UUID, and `pci_address`.
    static vrb_external_handle from_vulkan(int fd, const char *pci_address)
    {
        vrb_external_handle h = foreign_handle(fd, 4096);
        const uint8_t radv_uuid[16] = {0, 0, 0, 0, 0xc1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        const uint8_t radv_driver[16] = {'r', 'a', 'd', 'v'};
        vrb::plugin::name_card(h, &radv_uuid, &radv_driver, pci_address);
        return h;
    }
};

TEST_F(StandinAmdCard, MemoryFromVulkanWhoseUuidDiffersIsImportedWhenItsPciAddressIsThisCards)
{
    const int fd = memfd_of(4096);
    vrb_external_handle h = from_vulkan(fd, "0000:c1:00.0");
    vrb_buffer *b = nullptr;
    ASSERT_EQ(t.buffer_import(importer_, &h, 0, &b), VRB_OK) << t.last_error();
    EXPECT_EQ(named(memory_calls()), "external import, external map");
    t.buffer_free(b);
}

TEST_F(StandinAmdCard, MemoryFromVulkanOfAnotherPciAddressIsRefusedBeforeTheDriverSeesItNamingBoth)
{
    const int fd = memfd_of(4096);
    expect_refused_before_the_driver(from_vulkan(fd, "0000:41:00.0"), VRB_ERROR_INVALID_ARGUMENT,
                                     "lives on another card");
    EXPECT_NE(std::string(t.last_error()).find("at 0000:41:00.0"), std::string::npos) << t.last_error();
    EXPECT_NE(std::string(t.last_error()).find("at 0000:c1:00.0"), std::string::npos) << t.last_error();
    ::close(fd);
}

TEST_F(StandinAmdCard, ExportedMemoryCarriesTheCardsPciAddressBesideItsUuid)
{
    vrb_buffer *source = exportable(65536);
    ASSERT_NE(source, nullptr);
    vrb_external_handle h = exported(source);
    EXPECT_TRUE(h.flags & VRB_EXTERNAL_UUIDS_KNOWN);
    EXPECT_TRUE(h.flags & VRB_EXTERNAL_PCI_ADDRESS_KNOWN);
    EXPECT_STREQ(h.pci_address, "0000:c1:00.0");
    ::close(int(h.handle));
    t.buffer_free(source);
}

TEST_F(StandinInterop, AHandleOfThisApiFromAnotherDriverIsRefusedBeforeTheDriverSeesIt)
{
    vrb_buffer *source = exportable(65536);
    ASSERT_NE(source, nullptr);
    vrb_external_handle h = exported(source);
    h.driver_uuid[15] ^= 1;
    expect_refused_before_the_driver(h, VRB_ERROR_INVALID_ARGUMENT, "exported by another driver");
    ::close(int(h.handle));
    t.buffer_free(source);
}

TEST_F(StandinInterop, ADmaBufIsRefusedAsUnsupported)
{
    const int fd = memfd_of(4096);
    vrb_external_handle h = foreign_handle(fd, 4096);
    h.type = VRB_EXTERNAL_DMA_BUF;
    expect_refused_before_the_driver(h, VRB_ERROR_UNSUPPORTED, "not dma-bufs");
    EXPECT_TRUE(fd_is_open(fd));
    ::close(fd);
}

TEST_F(StandinInterop, OnlyDeviceMemoryAsAnOpaqueFdIsAllocatedExportable)
{
    vrb_buffer *b = nullptr;
    EXPECT_EQ(t.buffer_alloc_exportable(exporter_, vrb::gpu::kind_pinned, 4096, VRB_EXTERNAL_OPAQUE_FD, &b),
              VRB_ERROR_UNSUPPORTED);
    EXPECT_NE(std::string(t.last_error()).find("'pinned'"), std::string::npos) << t.last_error();
    EXPECT_EQ(t.buffer_alloc_exportable(exporter_, vrb::gpu::kind_device, 4096, VRB_EXTERNAL_DMA_BUF, &b),
              VRB_ERROR_UNSUPPORTED);
    EXPECT_EQ(t.buffer_alloc_exportable(exporter_, 7, 4096, VRB_EXTERNAL_OPAQUE_FD, &b), VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(b, nullptr);
    EXPECT_TRUE(memory_calls().empty()) << named(memory_calls());
}

TEST_F(StandinInterop, ABufferNotAllocatedExportableHasNoFdToGive)
{
    vrb_buffer *b = nullptr;
    ASSERT_EQ(t.buffer_alloc(exporter_, vrb::gpu::kind_device, 4096, &b), VRB_OK);
    vrb_external_handle h = empty_handle();
    EXPECT_EQ(t.buffer_export(b, &h), VRB_ERROR_UNSUPPORTED);
    EXPECT_NE(std::string(t.last_error()).find("buffer_alloc_exportable"), std::string::npos) << t.last_error();
    t.buffer_free(b);
}

TEST_F(StandinInterop, ADriverWithoutTheVirtualMemoryApiExportsNothingAndSaysWhichCallIsMissing)
{
    standin::hide_driver_symbol("standinDrvMemExportToShareableHandle");
    vrb_device *device = nullptr;
    ASSERT_EQ(t.device_open(context_, 0, &device), VRB_OK) << t.last_error();
    vrb_buffer *b = nullptr;
    EXPECT_EQ(t.buffer_alloc_exportable(device, vrb::gpu::kind_device, 4096, VRB_EXTERNAL_OPAQUE_FD, &b),
              VRB_ERROR_UNSUPPORTED);
    EXPECT_NE(std::string(t.last_error()).find("standinDrvMemExportToShareableHandle"), std::string::npos)
        << t.last_error();
    // Another API's fd goes through the runtime, which still imports it.
    const int fd = memfd_of(4096);
    const vrb_external_handle h = foreign_handle(fd, 4096);
    ASSERT_EQ(t.buffer_import(device, &h, 0, &b), VRB_OK) << t.last_error();
    t.buffer_free(b);
    t.device_close(device);
}

TEST_F(StandinInterop, SupportsNamesKernelsOnReachableMemoryAndTransfersEverywhere)
{
    auto &device = *reinterpret_cast<vrb_device *>(exporter_);
    EXPECT_TRUE(device.supports(VRB_OP_TRIAD, 16, vrb::gpu::kind_device));
    EXPECT_TRUE(device.supports(VRB_OP_READ, 4, vrb::gpu::kind_pinned)); // the stand-in maps host memory
    EXPECT_FALSE(device.supports(VRB_OP_READ, 2, vrb::gpu::kind_device));
    EXPECT_FALSE(device.supports(VRB_OP_READ, 4, vrb::gpu::kind_count));
    EXPECT_FALSE(device.supports(99, 4, vrb::gpu::kind_device));
    EXPECT_TRUE(device.supports(VRB_OP_TRANSFER, 1, vrb::gpu::kind_pageable));
    device.kinds[vrb::gpu::kind_pageable].flags &= ~uint32_t(VRB_MEMORY_DEVICE_ACCESS);
    EXPECT_FALSE(device.supports(VRB_OP_COPY, 8, vrb::gpu::kind_pageable));
    EXPECT_TRUE(device.supports(VRB_OP_TRANSFER, 1, vrb::gpu::kind_pageable));
}

// ---- timeline semaphores another API exported

// A handle as Vulkan hands out a semaphore: an fd of no memory. An eventfd stands in for
// the driver's semaphore fd: an anonymous inode, as a DRM syncobj is.
vrb_external_handle semaphore_handle(int fd)
{
    vrb_external_handle h = empty_handle();
    h.type = VRB_EXTERNAL_OPAQUE_FD;
    h.handle = fd;
    h.memory_type_index = UINT32_MAX;
    vrb::plugin::copy_string(h.api, "Vulkan");
    return h;
}

std::vector<Call> semaphore_calls()
{
    std::vector<Call> calls;
    for (const standin::Record &r : standin::journal())
        if (r.call >= Call::semaphore_import) calls.push_back(r.call);
    return calls;
}

class StandinSemaphores : public StandinInterop {
  protected:
    void TearDown() override
    {
        standin::set_timeline_semaphore_gap("");
        StandinInterop::TearDown();
    }
    // The import must fail with `status` before the stand-in saw a semaphore call; the
    // fd stays the caller's, who closes it.
    void expect_refused_before_the_driver(const vrb_external_handle &h, vrb_status status, const std::string &words)
    {
        standin::clear();
        vrb_semaphore *s = reinterpret_cast<vrb_semaphore *>(&s);
        EXPECT_EQ(t.semaphore_import(importer_, &h, &s), status) << t.last_error();
        EXPECT_EQ(s, nullptr);
        EXPECT_NE(std::string(t.last_error()).find(words), std::string::npos) << t.last_error();
        EXPECT_TRUE(semaphore_calls().empty()) << named(semaphore_calls());
    }
};

TEST_F(StandinSemaphores, TheModuleImportsSemaphoresAndSaysItExportsNone)
{
    for (const auto *slot :
         {reinterpret_cast<const void *>(t.semaphore_import), reinterpret_cast<const void *>(t.semaphore_signal),
          reinterpret_cast<const void *>(t.semaphore_device_wait),
          reinterpret_cast<const void *>(t.semaphore_host_wait), reinterpret_cast<const void *>(t.semaphore_free)})
        EXPECT_NE(slot, nullptr);
    vrb_semaphore *s = nullptr;
    EXPECT_EQ(t.semaphore_create_exportable(exporter_, VRB_EXTERNAL_OPAQUE_FD, &s), VRB_ERROR_UNSUPPORTED);
    EXPECT_EQ(s, nullptr);
    EXPECT_NE(std::string(t.last_error()).find("exports none"), std::string::npos) << t.last_error();
}

TEST_F(StandinSemaphores, ATimelineSemaphoreIsImportedFromADuplicateAndSignalledAndWaitedOnTheDeviceStream)
{
    const int fd = ::eventfd(0, EFD_CLOEXEC);
    ASSERT_GE(fd, 0);
    vrb_external_handle h = semaphore_handle(fd);
    vrb_semaphore *s = nullptr;
    ASSERT_EQ(t.semaphore_import(importer_, &h, &s), VRB_OK) << t.last_error();
    EXPECT_FALSE(fd_is_open(fd)) << "the importer takes the fd on success";
    ASSERT_EQ(named(semaphore_calls()), "semaphore import");
    EXPECT_EQ(standin::journal().back().kind, int(standinExternalSemaphoreHandleTypeTimelineSemaphoreFd));

    standin::clear();
    ASSERT_EQ(t.semaphore_device_wait(importer_, s, 4), VRB_OK) << t.last_error();
    ASSERT_EQ(t.semaphore_signal(importer_, s, 5), VRB_OK) << t.last_error();
    ASSERT_EQ(named(semaphore_calls()), "semaphore wait, semaphore signal");
    const auto &journal = standin::journal();
    EXPECT_EQ(journal[journal.size() - 2].value, 4u);
    EXPECT_EQ(journal.back().value, 5u);
    EXPECT_NE(journal.back().stream, nullptr);
    EXPECT_EQ(journal.back().stream, journal[journal.size() - 2].stream) << "both on the device's own stream";

    vrb_external_handle out = empty_handle();
    EXPECT_EQ(t.semaphore_export(s, &out), VRB_ERROR_UNSUPPORTED);
    standin::clear();
    t.semaphore_free(s);
    EXPECT_EQ(named(semaphore_calls()), "semaphore destroy");
}

TEST_F(StandinSemaphores, ASignalOfAnotherDevicesSemaphoreIsRefused)
{
    vrb_external_handle h = semaphore_handle(::eventfd(0, EFD_CLOEXEC));
    vrb_semaphore *s = nullptr;
    ASSERT_EQ(t.semaphore_import(importer_, &h, &s), VRB_OK) << t.last_error();
    standin::clear();
    EXPECT_EQ(t.semaphore_signal(exporter_, s, 1), VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(t.last_error()).find("a semaphore of another device"), std::string::npos) << t.last_error();
    EXPECT_EQ(t.semaphore_signal(importer_, s, 0), VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(semaphore_calls().empty()) << named(semaphore_calls());
    t.semaphore_free(s);
}

TEST_F(StandinSemaphores, AFailedImportLeavesTheFdTheCallers)
{
    const int fd = ::eventfd(0, EFD_CLOEXEC);
    vrb_external_handle h = semaphore_handle(fd);
    standin::fail_next(Call::semaphore_import);
    vrb_semaphore *s = nullptr;
    EXPECT_NE(t.semaphore_import(importer_, &h, &s), VRB_OK);
    EXPECT_EQ(s, nullptr);
    EXPECT_TRUE(fd_is_open(fd)) << "a failed import leaves the fd the caller's";
    ::close(fd);
}

// HIP has no attribute that tells whether a device imports timeline semaphores: the
// import is the question, and "not supported" is the device's answer, not a failure.
TEST_F(StandinSemaphores, AnImportTheDeviceAnswersNotSupportedIsUnsupportedAndLeavesTheFdTheCallers)
{
    const int fd = ::eventfd(0, EFD_CLOEXEC);
    vrb_external_handle h = semaphore_handle(fd);
    standin::fail_next(Call::semaphore_import, standin::Failure::not_supported);
    vrb_semaphore *s = nullptr;
    EXPECT_EQ(t.semaphore_import(importer_, &h, &s), VRB_ERROR_UNSUPPORTED) << t.last_error();
    EXPECT_EQ(s, nullptr);
    const std::string message = t.last_error();
    EXPECT_NE(message.find("imports no timeline semaphore on device 0"), std::string::npos) << message;
    EXPECT_NE(message.find("operation not supported"), std::string::npos) << message;
    EXPECT_TRUE(fd_is_open(fd)) << "a refused import leaves the fd the caller's";
    // Another answer is the device failing.
    standin::fail_next(Call::semaphore_import);
    EXPECT_EQ(t.semaphore_import(importer_, &h, &s), VRB_ERROR_DEVICE) << t.last_error();
    ::close(fd);
}

TEST_F(StandinSemaphores, ADeviceThatSaysItImportsNoTimelineSemaphoreIsRefusedBeforeAnyImport)
{
    standin::set_timeline_semaphore_gap("the stand-in imports only binary semaphores");
    const int fd = ::eventfd(0, EFD_CLOEXEC);
    expect_refused_before_the_driver(semaphore_handle(fd), VRB_ERROR_UNSUPPORTED, "only binary semaphores");
    EXPECT_TRUE(fd_is_open(fd));
    ::close(fd);
}

TEST_F(StandinSemaphores, BadSemaphoreHandlesAreRefusedBeforeTheDriverSeesThem)
{
    const int closed = ::eventfd(0, EFD_CLOEXEC);
    ::close(closed);
    expect_refused_before_the_driver(semaphore_handle(closed), VRB_ERROR_INVALID_ARGUMENT, "is not open");

    const int memory = memfd_of(4096);
    expect_refused_before_the_driver(semaphore_handle(memory), VRB_ERROR_INVALID_ARGUMENT,
                                     "is a file, not a semaphore");
    expect_refused_before_the_driver(foreign_handle(memory, 4096), VRB_ERROR_INVALID_ARGUMENT,
                                     "4096 bytes of memory: it is not a semaphore");
    ::close(memory);

    const int fd = ::eventfd(0, EFD_CLOEXEC);
    vrb_external_handle other_card = semaphore_handle(fd);
    other_card.flags = VRB_EXTERNAL_UUIDS_KNOWN;
    std::memset(other_card.device_uuid, 0xee, sizeof other_card.device_uuid);
    expect_refused_before_the_driver(other_card, VRB_ERROR_INVALID_ARGUMENT, "the semaphore lives on another card");
    ::close(fd);
}

} // namespace
