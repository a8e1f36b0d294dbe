// A backend that plays one fault, chosen at build time by a MOCK_* define; built once
// per fault so the loader's every refusal path is fed a real module.
//
//   MOCK_OK              a working backend with one device and no operations
//   MOCK_WRONG_MAJOR     answers with ABI major 2 although the host offered 1
//   MOCK_REFUSES_VERSION refuses the host's version and names its own (0.9)
//   MOCK_NO_ENTRY        exports no entry symbol
//   MOCK_INIT_FAILS      init fails with a device error
//   MOCK_UNAVAILABLE     init says its driver is missing
//   MOCK_SHORT_TABLE     a table that ends right after run(): optional slots absent
//   MOCK_NO_TABLE        the entry succeeds but hands back no table
//   MOCK_TOO_SHORT_TABLE a table whose size ends before run(), a call every module has
//   MOCK_SMALL_MEMORY    one memory kind of 64 MiB in all: an allocation past it is
//                        refused as out of memory, a freed one gives its bytes back
//   MOCK_LEAKS           a working backend whose init loses a heap block (1 MiB): the
//                        sanitizer build and the conformance kit must report it
//   MOCK_LONG_TEXT       fills every text field of its description, its memory kind,
//                        cache and property to the last byte, without a NUL
//   MOCK_MANY_DEVICES    answers 4294967295 devices
//   MOCK_MANY_KINDS      answers 65 memory kinds
//   MOCK_MANY_CACHES     describes VRB_MAX_CACHES + 1 caches
//   MOCK_MANY_HEAPS      describes VRB_MAX_HEAPS + 1 heaps
//   MOCK_MANY_PROPERTIES describes VRB_MAX_PROPERTIES + 1 properties
//   MOCK_BAD_NAME        calls itself "../../evil name"
//   MOCK_NULL_INIT       init answers VRB_OK without a context
//   MOCK_NULL_OPEN       device_open answers VRB_OK without a device
//   MOCK_NULL_ALLOC      buffer_alloc answers VRB_OK without a buffer
//   MOCK_BAD_ANSWER      op_supported answers 0xdeadbeef, neither yes (1) nor no (0)
//
// The backend is three classes made into a table by make_table(), as every module's
// is. What make_table() would never produce is written by hand on top of its table:
// the entry's answers (wrong major, refusal, no table, no entry), a short struct_size,
// and the slots that answer VRB_OK with nothing (NULL_INIT, NULL_OPEN, NULL_ALLOC).
#include <vrambench/plugin_table.hpp>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace {

using vrb::plugin::fail;

#if defined(MOCK_SMALL_MEMORY)
constexpr uint64_t memory_bytes = 64ull << 20;
uint64_t memory_used = 0;
#endif

#if defined(MOCK_LONG_TEXT)
// Every byte of the field set, no NUL: a reader that takes it for a C string runs on.
template <std::size_t N> void fill(char (&field)[N], char c)
{
    std::memset(field, c, N);
}
#endif

class MockBuffer {
  public:
    explicit MockBuffer(uint64_t bytes) : bytes_(bytes) {}
#if defined(MOCK_SMALL_MEMORY)
    ~MockBuffer()
    {
        memory_used -= bytes_;
    }
#endif
    MockBuffer(const MockBuffer &) = delete;
    MockBuffer &operator=(const MockBuffer &) = delete;

    uint64_t size() const
    {
        return bytes_;
    }
    void upload(uint64_t, const void *, uint64_t)
    {
        fail(VRB_ERROR_UNSUPPORTED, "mock buffers hold nothing");
    }
    void download(uint64_t, void *, uint64_t)
    {
        fail(VRB_ERROR_UNSUPPORTED, "mock buffers hold nothing");
    }
    void export_handle(vrb_external_handle &)
    {
        fail(VRB_ERROR_UNSUPPORTED, "mock exports nothing");
    }

  private:
    uint64_t bytes_;
};

class MockDevice {
  public:
    uint32_t memory_kind_count()
    {
#if defined(MOCK_MANY_KINDS)
        return 65;
#elif defined(MOCK_SMALL_MEMORY) || defined(MOCK_LONG_TEXT) || defined(MOCK_NULL_ALLOC) || defined(MOCK_BAD_ANSWER)
        return 1;
#else
        return 0;
#endif
    }

    void describe(uint32_t, vrb_memory_kind_info &info)
    {
#if defined(MOCK_LONG_TEXT)
        fill(info.name, 'm');
#else
        vrb::plugin::copy_string(info.name, "device");
#endif
        info.flags = VRB_MEMORY_DEVICE_LOCAL | VRB_MEMORY_DEVICE_ACCESS;
#if defined(MOCK_SMALL_MEMORY)
        info.max_allocation_bytes = memory_bytes;
#else
        info.heap_index = 7; // the field after the name
#endif
    }

    std::unique_ptr<MockBuffer> alloc(uint32_t, uint64_t bytes)
    {
#if defined(MOCK_SMALL_MEMORY)
        if (bytes > memory_bytes - memory_used) fail(VRB_ERROR_OUT_OF_MEMORY, "mock memory is full");
        memory_used += bytes;
        return std::make_unique<MockBuffer>(bytes);
#else
        (void)bytes;
        fail(VRB_ERROR_OUT_OF_MEMORY, "mock has no memory");
#endif
    }

    void run(const vrb_operation &, std::span<double>, vrb_op_output &)
    {
        fail(VRB_ERROR_UNSUPPORTED, "mock runs no operation");
    }
};

class MockContext {
  public:
    explicit MockContext(const vrb_host_table *)
    {
#if defined(MOCK_INIT_FAILS)
        fail(VRB_ERROR_DEVICE, "mock init failed on purpose");
#elif defined(MOCK_UNAVAILABLE)
        fail(VRB_ERROR_UNAVAILABLE, "mock driver is not installed");
#elif defined(MOCK_LEAKS)
        // volatile: the compiler may not drop an allocation whose pointer is only stored.
        // A MiB, so the conformance kit's leak check sees it past what driver stacks grow by.
        void *volatile lost = std::malloc(1u << 20);
        std::memset(lost, 0x5a, 1u << 20);
        lost = nullptr;
#endif
    }

    uint32_t device_count()
    {
#if defined(MOCK_MANY_DEVICES)
        return 4294967295u;
#else
        return 1;
#endif
    }

    void describe(uint32_t, vrb_device_info &info)
    {
        vrb::plugin::copy_string(info.name, "mock device");
        vrb::plugin::copy_string(info.api, "mock");
        info.type = VRB_DEVICE_OTHER;
#if defined(MOCK_LONG_TEXT)
        fill(info.name, 'n');
        vrb::plugin::copy_string(info.vendor, "mock vendor");
        fill(info.api, 'a');
        fill(info.api_version, 'v');
        fill(info.driver_version, 'd');
        info.known |= VRB_KNOWN_API_VERSION | VRB_KNOWN_DRIVER_VERSION | VRB_KNOWN_PCI_ADDRESS;
        fill(info.pci_address, 'p');
        info.pci_vendor_id = 0x1234; // the field after the address: a reader running on shows it
        info.cache_count = 1;
        info.caches[0] = {2, 0, 1u << 20, {}};
        fill(info.caches[0].kind, 'k');
        info.property_count = 2;
        fill(info.properties[0].key, 'K');
        fill(info.properties[0].value, 'V');
        vrb::plugin::copy_string(info.properties[1].key, "second");
        vrb::plugin::copy_string(info.properties[1].value, "property");
#elif defined(MOCK_MANY_CACHES)
        info.cache_count = VRB_MAX_CACHES + 1;
#elif defined(MOCK_MANY_HEAPS)
        info.heap_count = VRB_MAX_HEAPS + 1;
#elif defined(MOCK_MANY_PROPERTIES)
        info.property_count = VRB_MAX_PROPERTIES + 1;
#endif
    }

    std::unique_ptr<MockDevice> open(uint32_t)
    {
        return std::make_unique<MockDevice>();
    }
};

// The slots that answer VRB_OK and hand back nothing: a broken module the host must
// refuse by name. make_table() refuses to produce them, so they are written here.
[[maybe_unused]] vrb_status init_without_context(const vrb_host_table *, vrb_context **)
{
    return VRB_OK;
}
[[maybe_unused]] vrb_status open_without_device(vrb_context *, uint32_t, vrb_device **)
{
    return VRB_OK;
}
[[maybe_unused]] vrb_status alloc_without_buffer(vrb_device *, uint32_t, uint64_t, vrb_buffer **)
{
    return VRB_OK;
}
[[maybe_unused]] vrb_status supported_neither_yes_nor_no(vrb_device *, uint32_t, uint32_t, uint32_t, uint32_t *answer)
{
    *answer = 0xdeadbeef;
    return VRB_OK;
}

constexpr vrb_plugin_table mock_table()
{
#if defined(MOCK_BAD_NAME)
    const char *name = "../../evil name";
#else
    const char *name = "mock";
#endif
    vrb_plugin_table table =
        vrb::plugin::make_table<MockContext, MockDevice, MockBuffer>({name, "a backend that plays one fault", "0"});
#if defined(MOCK_SHORT_TABLE)
    // An ABI 1.0 table, through run: buffer_export is set but past the end, and must
    // read as absent.
    table.struct_size = static_cast<uint32_t>(offsetof(vrb_plugin_table, run) + sizeof(void *));
#elif defined(MOCK_TOO_SHORT_TABLE)
    table.struct_size = static_cast<uint32_t>(offsetof(vrb_plugin_table, run));
#elif defined(MOCK_NULL_INIT)
    table.init = init_without_context;
#elif defined(MOCK_NULL_OPEN)
    table.device_open = open_without_device;
#elif defined(MOCK_NULL_ALLOC)
    table.buffer_alloc = alloc_without_buffer;
#elif defined(MOCK_BAD_ANSWER)
    table.op_supported = supported_neither_yes_nor_no;
#endif
    return table;
}

constexpr vrb_plugin_table table = mock_table();

} // namespace

// The entry by hand, not VRB_DEFINE_PLUGIN_ENTRY: its faults are in the negotiation itself.
#if !defined(MOCK_NO_ENTRY)
extern "C" VRB_EXPORT vrb_status vrb_plugin_entry(vrb_negotiation *negotiation)
{
#if defined(MOCK_WRONG_MAJOR)
    negotiation->module_version = VRB_MAKE_VERSION(2, 0);
    negotiation->table = &table;
    return VRB_OK;
#elif defined(MOCK_REFUSES_VERSION)
    negotiation->module_version = VRB_MAKE_VERSION(0, 9);
    std::snprintf(negotiation->message, sizeof negotiation->message, "mock only speaks 0.9");
    return VRB_ERROR_VERSION;
#elif defined(MOCK_NO_TABLE)
    negotiation->module_version = VRB_ABI_VERSION;
    negotiation->table = nullptr;
    return VRB_OK;
#else
    negotiation->module_version = VRB_ABI_VERSION;
    negotiation->table = &table;
    return VRB_OK;
#endif
}
#else
extern "C" VRB_EXPORT int vrb_not_the_entry(void)
{
    return 0;
}
#endif
