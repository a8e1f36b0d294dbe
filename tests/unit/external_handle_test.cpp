// The checks every importer makes before its driver sees a handle (external_handle.hpp),
// fed each kind of bad handle: all refused with a message that says what is wrong, and
// a good one let through.
#include <vrambench/external_handle.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

namespace {

using vrb::plugin::check_import_handle;
using vrb::plugin::Failure;
using vrb::plugin::ImporterIdentity;
using vrb::plugin::UniqueFd;

constexpr uint64_t kBytes = 1 << 16;
const uint8_t kCard[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
const uint8_t kDriver[16] = {9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};

ImporterIdentity importer()
{
    ImporterIdentity id;
    id.api = "Vulkan";
    id.uuids_known = true;
    id.device_uuid = &kCard;
    id.driver_uuid = &kDriver;
    id.device_name = "test card";
    return id;
}

// A memfd of kBytes, as Mesa exports memory.
UniqueFd memory_fd()
{
    UniqueFd fd(::memfd_create("vrambench-test", MFD_CLOEXEC));
    EXPECT_GE(fd.get(), 0);
    EXPECT_EQ(::ftruncate(fd.get(), kBytes), 0);
    return fd;
}

vrb_external_handle fd_handle(int fd)
{
    vrb_external_handle h{};
    h.struct_size = sizeof h;
    h.type = VRB_EXTERNAL_OPAQUE_FD;
    h.handle = fd;
    h.bytes = kBytes;
    h.allocation_bytes = kBytes;
    h.memory_type_index = 0;
    h.flags = VRB_EXTERNAL_UUIDS_KNOWN;
    std::memcpy(h.device_uuid, kCard, 16);
    std::memcpy(h.driver_uuid, kDriver, 16);
    std::strcpy(h.api, "Vulkan");
    return h;
}

std::string refusal(const vrb_external_handle &h, uint64_t page = 4096)
{
    try {
        check_import_handle(&h, importer(), page);
    } catch (const Failure &f) {
        EXPECT_EQ(f.status(), VRB_ERROR_INVALID_ARGUMENT) << f.what();
        return f.what();
    }
    return "accepted";
}

TEST(ExternalHandleChecks, AcceptAMemfdOfTheWholeAllocationOnTheSameCard)
{
    const UniqueFd fd = memory_fd();
    EXPECT_EQ(refusal(fd_handle(fd.get())), "accepted");
}

TEST(ExternalHandleChecks, RefuseAClosedFd)
{
    int number = -1;
    {
        const UniqueFd fd = memory_fd();
        number = fd.get();
    }
    EXPECT_NE(refusal(fd_handle(number)).find("is not open"), std::string::npos);
}

TEST(ExternalHandleChecks, RefuseAPipeAndADirectory)
{
    int ends[2];
    ASSERT_EQ(::pipe(ends), 0);
    const UniqueFd read_end(ends[0]), write_end(ends[1]);
    EXPECT_NE(refusal(fd_handle(ends[0])).find("is a pipe"), std::string::npos);
    const UniqueFd dir(::open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    EXPECT_NE(refusal(fd_handle(dir.get())).find("is a directory"), std::string::npos);
}

TEST(ExternalHandleChecks, RefuseSizesThatDisagreeWithTheMemory)
{
    const UniqueFd fd = memory_fd();
    vrb_external_handle h = fd_handle(fd.get());
    h.allocation_bytes = 2 * kBytes;
    h.bytes = 2 * kBytes;
    EXPECT_NE(refusal(h).find("less than the handle's allocation"), std::string::npos);
    h = fd_handle(fd.get());
    h.bytes = kBytes + 4;
    EXPECT_NE(refusal(h).find("does not fit its allocation"), std::string::npos);
    h.bytes = 0;
    EXPECT_NE(refusal(h).find("0 bytes"), std::string::npos);
}

TEST(ExternalHandleChecks, RefuseAnotherCardNamingBothAndAnotherDriverOfTheSameApi)
{
    const UniqueFd fd = memory_fd();
    vrb_external_handle h = fd_handle(fd.get());
    h.device_uuid[15] = 0xee;
    const std::string card = refusal(h);
    EXPECT_NE(card.find("another card"), std::string::npos) << card;
    EXPECT_NE(card.find(vrb::plugin::uuid_hex(h.device_uuid)), std::string::npos) << card;
    EXPECT_NE(card.find(vrb::plugin::uuid_hex(kCard)), std::string::npos) << card;
    h = fd_handle(fd.get());
    h.driver_uuid[0] = 0;
    EXPECT_NE(refusal(h).find("another driver"), std::string::npos);
    std::strcpy(h.api, "CUDA"); // another API's driver UUID means nothing to Vulkan
    EXPECT_EQ(refusal(h), "accepted");
}

TEST(ExternalHandleChecks, LetADmaBufOfAnotherDriverOfTheSameCardThrough)
{
    // A dma-buf is the kernel's: any driver of the card imports it; another card it is not.
    const UniqueFd fd = memory_fd();
    vrb_external_handle h = fd_handle(fd.get());
    h.type = VRB_EXTERNAL_DMA_BUF;
    h.driver_uuid[0] ^= 0x5a;
    EXPECT_EQ(refusal(h), "accepted");
    h.device_uuid[15] = 0xee;
    EXPECT_NE(refusal(h).find("another card"), std::string::npos);
}

TEST(ExternalHandleChecks, RefuseAHandleOfAnOlderAbiThatLacksTheAllocationFields)
{
    const UniqueFd fd = memory_fd();
    vrb_external_handle h = fd_handle(fd.get());
    h.struct_size = offsetof(vrb_external_handle, allocation_bytes);
    EXPECT_NE(refusal(h).find("too small"), std::string::npos);
}

TEST(ExternalHandleChecks, RefuseAHostPointerOrSizeOffThePage)
{
    void *pages = ::mmap(nullptr, 2 * kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(pages, MAP_FAILED);
    vrb_external_handle h{};
    h.struct_size = sizeof h;
    h.type = VRB_EXTERNAL_HOST_POINTER;
    h.handle = static_cast<int64_t>(reinterpret_cast<uintptr_t>(pages));
    h.bytes = kBytes;
    EXPECT_EQ(refusal(h), "accepted");
    h.handle += 8;
    EXPECT_NE(refusal(h).find("is not aligned to 4096"), std::string::npos);
    h.handle -= 8;
    h.bytes = kBytes + 8;
    EXPECT_NE(refusal(h).find("not a multiple of 4096"), std::string::npos);
    h.handle = 0;
    EXPECT_NE(refusal(h).find("null"), std::string::npos);
    ::munmap(pages, 2 * kBytes);
}

TEST(ExternalHandleChecks, RefuseAnUnknownHandleTypeAsUnsupported)
{
    vrb_external_handle h{};
    h.struct_size = sizeof h;
    h.type = 77;
    h.bytes = kBytes;
    try {
        check_import_handle(&h, importer(), 4096);
        FAIL() << "accepted an unknown type";
    } catch (const Failure &f) {
        EXPECT_EQ(f.status(), VRB_ERROR_UNSUPPORTED);
    }
}

// A semaphore's handle as an exporter writes it: an fd of no memory.
vrb_external_handle semaphore_handle(int fd)
{
    vrb_external_handle h = fd_handle(fd);
    h.bytes = 0;
    h.allocation_bytes = 0;
    h.memory_type_index = UINT32_MAX;
    return h;
}

std::string semaphore_refusal(const vrb_external_handle &h)
{
    try {
        vrb::plugin::check_semaphore_handle(&h, importer());
    } catch (const Failure &f) {
        return f.what();
    }
    return "accepted";
}

TEST(SemaphoreHandleChecks, AcceptAnAnonymousInodeAsADriversSemaphoreFdIs)
{
    const UniqueFd fd(::eventfd(0, EFD_CLOEXEC));
    EXPECT_EQ(semaphore_refusal(semaphore_handle(fd.get())), "accepted");
}

TEST(SemaphoreHandleChecks, RefuseAClosedFdARegularFileAndAPipe)
{
    int number = -1;
    {
        const UniqueFd fd(::eventfd(0, EFD_CLOEXEC));
        number = fd.get();
    }
    EXPECT_NE(semaphore_refusal(semaphore_handle(number)).find("is not open"), std::string::npos);
    const UniqueFd memory = memory_fd();
    EXPECT_NE(semaphore_refusal(semaphore_handle(memory.get())).find("is a file, not a semaphore"), std::string::npos);
    int ends[2];
    ASSERT_EQ(::pipe(ends), 0);
    const UniqueFd read_end(ends[0]), write_end(ends[1]);
    EXPECT_NE(semaphore_refusal(semaphore_handle(ends[0])).find("is a pipe"), std::string::npos);
}

TEST(SemaphoreHandleChecks, RefuseAMemoryHandleAndASemaphoreOfAnotherCard)
{
    const UniqueFd fd(::eventfd(0, EFD_CLOEXEC));
    EXPECT_NE(semaphore_refusal(fd_handle(fd.get())).find("bytes of memory: it is not a semaphore"), std::string::npos);
    vrb_external_handle other = semaphore_handle(fd.get());
    other.device_uuid[0] ^= 1;
    EXPECT_NE(semaphore_refusal(other).find("the semaphore lives on another card"), std::string::npos);
    vrb_external_handle dma_buf = semaphore_handle(fd.get());
    dma_buf.type = VRB_EXTERNAL_DMA_BUF;
    EXPECT_NE(semaphore_refusal(dma_buf).find("semaphores cross as opaque fds only"), std::string::npos);
}

} // namespace
