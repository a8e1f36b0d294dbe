// Checks of an external memory handle that every importing module makes before it asks
// its driver anything: a driver handed a closed fd, a pipe or a size that disagrees with
// the memory behind it has undefined behaviour, so each of those is refused here with a
// message that says what is wrong. Header-only, like plugin_support.hpp.
#pragma once

#include <vrambench/plugin_support.hpp>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace vrb::plugin {

// The 1.2 fields are present: a 1.0 or 1.1 handle carries no allocation size or
// memory type, without which no opaque fd can be imported.
inline bool handle_has_v12_fields(const vrb_external_handle &h) noexcept
{
    return h.struct_size >= offsetof(vrb_external_handle, api) + sizeof h.api;
}

// The 1.6 field is present: the exporter's PCI address.
inline bool handle_has_pci_field(const vrb_external_handle &h) noexcept
{
    return h.struct_size >= offsetof(vrb_external_handle, pci_address) + sizeof h.pci_address;
}

// The exporter's PCI address, "" where the handle does not carry one.
inline std::string_view handle_pci_address(const vrb_external_handle &h) noexcept
{
    if (!handle_has_pci_field(h) || !(h.flags & VRB_EXTERNAL_PCI_ADDRESS_KNOWN)) return {};
    return std::string_view(h.pci_address, strnlen(h.pci_address, sizeof h.pci_address));
}

// Names the exporter's card in a handle it hands out: its UUIDs where `device_uuid` is
// given (with the driver's), its PCI address where `pci_address` is not empty and the
// caller's handle is large enough to hold it.
inline void name_card(vrb_external_handle &h, const uint8_t (*device_uuid)[16], const uint8_t (*driver_uuid)[16],
                      std::string_view pci_address)
{
    if (device_uuid && driver_uuid) {
        h.flags |= VRB_EXTERNAL_UUIDS_KNOWN;
        std::memcpy(h.device_uuid, *device_uuid, sizeof h.device_uuid);
        std::memcpy(h.driver_uuid, *driver_uuid, sizeof h.driver_uuid);
    }
    if (!pci_address.empty() && pci_address.size() < sizeof h.pci_address && handle_has_pci_field(h)) {
        std::memset(h.pci_address, 0, sizeof h.pci_address);
        std::memcpy(h.pci_address, pci_address.data(), pci_address.size());
        h.flags |= VRB_EXTERNAL_PCI_ADDRESS_KNOWN;
    }
}

inline std::string uuid_hex(const uint8_t (&uuid)[16])
{
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
        s += digits[uuid[i] >> 4];
        s += digits[uuid[i] & 15];
    }
    return s;
}

inline std::string_view handle_api(const vrb_external_handle &h) noexcept
{
    return std::string_view(h.api, strnlen(h.api, sizeof h.api));
}

inline const char *file_kind(mode_t mode) noexcept
{
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a pipe";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISREG(mode)) return "a file";
    return "an unknown kind of file";
}

// The fd is open and may be memory: not a directory, pipe, socket or block device. A
// regular file (what memfd-backed exporters such as Mesa's hand out) must hold at least
// the allocation the handle describes. Character devices and anonymous inodes (dma-buf,
// proprietary drivers) cannot be sized here and are left to the driver.
inline void check_handle_fd(const vrb_external_handle &h)
{
    if (h.handle < 0 || h.handle > INT32_MAX)
        fail(VRB_ERROR_INVALID_ARGUMENT, "the handle holds " + std::to_string(h.handle) + ", not a file descriptor");
    const int fd = static_cast<int>(h.handle);
    if (::fcntl(fd, F_GETFD) == -1)
        fail(VRB_ERROR_INVALID_ARGUMENT, "file descriptor " + std::to_string(fd) + " is not open (" +
                                             std::strerror(errno) + "): nothing was imported");
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        fail(VRB_ERROR_INVALID_ARGUMENT,
             "file descriptor " + std::to_string(fd) + " cannot be examined: " + std::strerror(errno));
    const mode_t mode = st.st_mode;
    if (S_ISDIR(mode) || S_ISFIFO(mode) || S_ISSOCK(mode) || S_ISBLK(mode))
        fail(VRB_ERROR_INVALID_ARGUMENT,
             "file descriptor " + std::to_string(fd) + " is " + file_kind(mode) + ", not memory exported by a GPU API");
    // A driver may round the file up (to a page); it may never hold less than it exported.
    if (S_ISREG(mode) && static_cast<uint64_t>(st.st_size) < h.allocation_bytes)
        fail(VRB_ERROR_INVALID_ARGUMENT,
             "file descriptor " + std::to_string(fd) + " holds " + std::to_string(st.st_size) +
                 " bytes, less than the handle's allocation of " + std::to_string(h.allocation_bytes));
}

// An fd closed exactly once, by whoever holds it last.
class UniqueFd {
  public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) noexcept : fd_(fd) {}
    UniqueFd(const UniqueFd &) = delete;
    UniqueFd &operator=(const UniqueFd &) = delete;
    UniqueFd(UniqueFd &&other) noexcept : fd_(other.release()) {}
    UniqueFd &operator=(UniqueFd &&other) noexcept
    {
        if (this != &other) reset(other.release());
        return *this;
    }
    ~UniqueFd() { reset(); }
    int get() const noexcept { return fd_; }
    int release() noexcept
    {
        const int fd = fd_;
        fd_ = -1;
        return fd;
    }
    void reset(int fd = -1) noexcept
    {
        if (fd_ >= 0) ::close(fd_);
        fd_ = fd;
    }

  private:
    int fd_ = -1;
};

struct ImporterIdentity {
    std::string_view api; // the importer's vrb_device_info.api
    bool uuids_known = false;
    const uint8_t (*device_uuid)[16] = nullptr;
    const uint8_t (*driver_uuid)[16] = nullptr;
    std::string_view device_name;
    std::string pci_address; // as vrb_device_info.pci_address; "" where unknown
};

// Which key showed a handle to be of the importer's card.
enum class CardKey {
    unchecked,  // neither side knows a key the other knows too
    uuid,       // the device UUIDs agree
    pci_address // the APIs' UUIDs differ or are not both known, and the PCI addresses agree
};

inline const char *card_key_name(CardKey match) noexcept
{
    switch (match) {
    case CardKey::uuid: return "uuid";
    case CardKey::pci_address: return "pci-address";
    case CardKey::unchecked: break;
    }
    return "unchecked";
}

// The handle names the importer's card; `what` ("memory", "semaphore") names what
// crosses. The device UUIDs decide where both are known and agree. Within one API they
// are comparable, and a difference is another card. Across APIs they need not be: HIP's
// UUID on AMD is the runtime's own (serial-based), Vulkan's the driver's (from the PCI
// address), so one card has two; the PCI address, which every API reports alike, then
// decides. Within one API an opaque fd is only understood by the very same driver; a
// dma-buf is the kernel's, and crosses drivers.
inline CardKey check_same_card(const vrb_external_handle &h, const ImporterIdentity &importer, const char *what)
{
    const bool uuids = importer.uuids_known && (h.flags & VRB_EXTERNAL_UUIDS_KNOWN);
    const std::string_view theirs = handle_pci_address(h);
    const std::string_view mine = importer.pci_address;
    const bool addresses = !theirs.empty() && !mine.empty();
    const bool same_api = handle_api(h) == importer.api;
    CardKey match = CardKey::unchecked;
    if (uuids && std::memcmp(h.device_uuid, *importer.device_uuid, 16) == 0)
        match = CardKey::uuid;
    else if (addresses && theirs == mine && !(uuids && same_api))
        match = CardKey::pci_address;
    else if (uuids || addresses) {
        std::string message = std::string("the ") + what + " lives on another card: exported by " +
                              std::string(handle_api(h)) + " device";
        if (uuids) message += " " + uuid_hex(h.device_uuid);
        if (addresses) message += " at " + std::string(theirs);
        message += ", imported into " + std::string(importer.api) + " device";
        if (uuids) message += " " + uuid_hex(*importer.device_uuid);
        if (addresses) message += " at " + std::string(mine);
        message += " (" + std::string(importer.device_name) + ")";
        if (uuids && !same_api && !addresses)
            message += "; these APIs' UUIDs may differ for one card, and the PCI address that would tell is not "
                       "known to both";
        fail(VRB_ERROR_INVALID_ARGUMENT, message);
    }
    if (uuids && h.type != VRB_EXTERNAL_DMA_BUF && same_api &&
        std::memcmp(h.driver_uuid, *importer.driver_uuid, 16) != 0)
        fail(VRB_ERROR_INVALID_ARGUMENT, std::string("the ") + what + " was exported by another driver: driver " +
                                             uuid_hex(h.driver_uuid) + ", this one is " +
                                             uuid_hex(*importer.driver_uuid));
    return match;
}

// Everything about a handle that can be checked without the driver. `page_bytes` is the
// alignment a host pointer and its size must have (the page, or the API's own minimum).
inline void check_import_handle(const vrb_external_handle *handle, const ImporterIdentity &importer,
                                uint64_t page_bytes)
{
    if (!handle) fail(VRB_ERROR_INVALID_ARGUMENT, "null external handle");
    const vrb_external_handle &h = *handle;
    if (!handle_has_v12_fields(h))
        fail(VRB_ERROR_INVALID_ARGUMENT, "the external handle is " + std::to_string(h.struct_size) +
                                             " bytes, too small for the allocation size, memory type and UUIDs "
                                             "of ABI 1.2");
    if (h.bytes == 0) fail(VRB_ERROR_INVALID_ARGUMENT, "the external handle describes 0 bytes");
    switch (h.type) {
    case VRB_EXTERNAL_OPAQUE_FD:
    case VRB_EXTERNAL_DMA_BUF: {
        if (h.allocation_bytes < h.bytes)
            fail(VRB_ERROR_INVALID_ARGUMENT, "the external handle's buffer of " + std::to_string(h.bytes) +
                                                 " bytes does not fit its allocation of " +
                                                 std::to_string(h.allocation_bytes));
        check_same_card(h, importer, "memory");
        check_handle_fd(h);
        return;
    }
    case VRB_EXTERNAL_HOST_POINTER: {
        const auto address = static_cast<uint64_t>(h.handle);
        if (address == 0) fail(VRB_ERROR_INVALID_ARGUMENT, "the host pointer is null");
        if (page_bytes == 0) page_bytes = 1;
        if (address % page_bytes != 0)
            fail(VRB_ERROR_INVALID_ARGUMENT, "the host pointer " + std::to_string(address) + " is not aligned to " +
                                                 std::to_string(page_bytes) + " bytes");
        if (h.bytes % page_bytes != 0)
            fail(VRB_ERROR_INVALID_ARGUMENT, "the host allocation of " + std::to_string(h.bytes) +
                                                 " bytes is not a multiple of " + std::to_string(page_bytes));
        return;
    }
    default: fail(VRB_ERROR_UNSUPPORTED, "unknown external handle type " + std::to_string(h.type));
    }
}

// The fd of a semaphore's handle is open and may be a semaphore: an API's semaphore fd
// is a character device or an anonymous inode (a DRM syncobj, a proprietary driver's
// file), never a regular file (what memory of Mesa and of memfds is), a directory, pipe,
// socket or block device.
inline void check_semaphore_fd(const vrb_external_handle &h)
{
    if (h.handle < 0 || h.handle > INT32_MAX)
        fail(VRB_ERROR_INVALID_ARGUMENT, "the handle holds " + std::to_string(h.handle) + ", not a file descriptor");
    const int fd = static_cast<int>(h.handle);
    if (::fcntl(fd, F_GETFD) == -1)
        fail(VRB_ERROR_INVALID_ARGUMENT, "file descriptor " + std::to_string(fd) + " is not open (" +
                                             std::strerror(errno) + "): no semaphore was imported");
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        fail(VRB_ERROR_INVALID_ARGUMENT,
             "file descriptor " + std::to_string(fd) + " cannot be examined: " + std::strerror(errno));
    const mode_t mode = st.st_mode;
    if (S_ISREG(mode) || S_ISDIR(mode) || S_ISFIFO(mode) || S_ISSOCK(mode) || S_ISBLK(mode))
        fail(VRB_ERROR_INVALID_ARGUMENT, "file descriptor " + std::to_string(fd) + " is " + file_kind(mode) +
                                             ", not a semaphore exported by a GPU API");
}

// A semaphore's handle (ABI 1.4), checked as far as no driver need be asked: the 1.2
// fields, an opaque fd (the one type semaphores cross as), no bytes (a handle with bytes
// is memory), the importer's card, and an fd that may be a semaphore's.
inline void check_semaphore_handle(const vrb_external_handle *handle, const ImporterIdentity &importer)
{
    if (!handle) fail(VRB_ERROR_INVALID_ARGUMENT, "null external handle");
    const vrb_external_handle &h = *handle;
    if (!handle_has_v12_fields(h))
        fail(VRB_ERROR_INVALID_ARGUMENT,
             "the external handle is " + std::to_string(h.struct_size) + " bytes, too small for the UUIDs of ABI 1.2");
    if (h.type != VRB_EXTERNAL_OPAQUE_FD)
        fail(VRB_ERROR_UNSUPPORTED,
             "semaphores cross as opaque fds only, not as external handle type " + std::to_string(h.type));
    if (h.bytes != 0 || h.allocation_bytes != 0)
        fail(VRB_ERROR_INVALID_ARGUMENT,
             "the handle describes " + std::to_string(h.allocation_bytes) + " bytes of memory: it is not a semaphore");
    check_same_card(h, importer, "semaphore");
    check_semaphore_fd(h);
}

} // namespace vrb::plugin
