// make_table(): the guards every module's entry points need, written once.
#include <vrambench/plugin_table.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace {

using vrb::plugin::fail;

struct FakeDevice;

struct FakeBuffer {
    FakeDevice *owner;
    std::vector<char> bytes;
    uint64_t size() const { return bytes.size(); }
    FakeDevice *device() const { return owner; }
    void upload(uint64_t offset, const void *src, uint64_t n) { std::memcpy(bytes.data() + offset, src, n); }
    void download(uint64_t offset, void *dst, uint64_t n) { std::memcpy(dst, bytes.data() + offset, n); }
};

struct FakeDevice {
    double duration = 1e-3; // what run() reports for every repetition
    bool throws_plain = false;
    uint32_t memory_kind_count() { return 1; }
    void describe(uint32_t, vrb_memory_kind_info &info) { vrb::plugin::copy_string(info.name, "plain"); }
    std::unique_ptr<FakeBuffer> alloc(uint32_t, uint64_t bytes)
    {
        if (bytes > 1024) fail(VRB_ERROR_OUT_OF_MEMORY, "only 1 KiB here");
        return std::make_unique<FakeBuffer>(FakeBuffer{this, std::vector<char>(bytes)});
    }
    void run(const vrb_operation &, std::span<double> seconds, vrb_op_output &out)
    {
        if (throws_plain) throw std::runtime_error("a plain exception");
        for (double &s : seconds)
            s = duration;
        out.timer = VRB_TIMER_HOST_MONOTONIC;
        out.checksum = 42;
        out.passes = 3;
    }
};

struct FakeContext {
    explicit FakeContext(const vrb_host_table *) {}
    uint32_t device_count() { return 2; }
    void describe(uint32_t index, vrb_device_info &info)
    {
        vrb::plugin::copy_string(info.name, index == 0 ? "first" : "second");
        info.total_memory_bytes = 1024;
    }
    std::unique_ptr<FakeDevice> open(uint32_t) { return std::make_unique<FakeDevice>(); }
};

const vrb_plugin_table table =
    vrb::plugin::make_table<FakeContext, FakeDevice, FakeBuffer>({"fake", "a backend of classes", "1.0"});

struct Opened {
    vrb_context *ctx = nullptr;
    vrb_device *dev = nullptr;
    Opened()
    {
        EXPECT_EQ(table.init(nullptr, &ctx), VRB_OK);
        EXPECT_EQ(table.device_open(ctx, 0, &dev), VRB_OK);
    }
    ~Opened()
    {
        table.device_close(dev);
        table.shutdown(ctx);
    }
    FakeDevice &device() { return *reinterpret_cast<FakeDevice *>(dev); }
};

vrb_operation read_of(vrb_buffer *buffer, uint64_t count)
{
    vrb_operation op{};
    op.struct_size = sizeof op;
    op.kind = VRB_OP_READ;
    op.element_bytes = 4;
    op.count = count;
    op.src1.buffer = buffer;
    return op;
}

TEST(PluginTable, FillsEverySlotFromTheClassesAndLeavesAbsentOptionalSlotsNull)
{
    EXPECT_EQ(table.struct_size, sizeof(vrb_plugin_table));
    EXPECT_EQ(table.abi_version, VRB_ABI_VERSION);
    EXPECT_STREQ(table.name, "fake");
    EXPECT_NE(table.run, nullptr);
    EXPECT_EQ(table.buffer_export, nullptr);
    EXPECT_EQ(table.buffer_import, nullptr);
    EXPECT_EQ(table.buffer_alloc_exportable, nullptr);
    EXPECT_EQ(table.op_supported, nullptr);
}

TEST(PluginTable, RefusesNullOutPointersAndHandlesWithAMessage)
{
    EXPECT_EQ(table.init(nullptr, nullptr), VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_STREQ(table.last_error(), "init's out is NULL");
    uint32_t count = 0;
    EXPECT_EQ(table.device_count(nullptr, &count), VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_STREQ(table.last_error(), "the context is NULL");
    Opened o;
    EXPECT_EQ(table.buffer_alloc(o.dev, 0, 16, nullptr), VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(table.memory_kind_count(o.dev, nullptr), VRB_ERROR_INVALID_ARGUMENT);
}

TEST(PluginTable, RefusesIndicesKindsAndSizesOutOfRangeBeforeTheBackendSeesThem)
{
    Opened o;
    vrb_device *dev = nullptr;
    EXPECT_EQ(table.device_open(o.ctx, 2, &dev), VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_STREQ(table.last_error(), "device index 2 is out of range: 2 device(s)");
    EXPECT_EQ(dev, nullptr);
    vrb_buffer *buffer = nullptr;
    EXPECT_EQ(table.buffer_alloc(o.dev, 1, 16, &buffer), VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_STREQ(table.last_error(), "memory kind 1 is out of range: 1 kind(s)");
    EXPECT_EQ(table.buffer_alloc(o.dev, 0, 0, &buffer), VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(table.buffer_alloc(o.dev, 0, 4096, &buffer), VRB_ERROR_OUT_OF_MEMORY);
    EXPECT_STREQ(table.last_error(), "only 1 KiB here");
    EXPECT_EQ(buffer, nullptr);
}

TEST(PluginTable, FillsOnlyAsMuchOfAnInfoStructAsTheHostSized)
{
    Opened o;
    // A host whose struct ends before total_memory_bytes: nothing past it is written.
    struct {
        vrb_device_info info;
        unsigned char guard[8];
    } older{};
    std::memset(&older, 0xab, sizeof older);
    older.info.struct_size = offsetof(vrb_device_info, total_memory_bytes);
    ASSERT_EQ(table.device_describe(o.ctx, 1, &older.info), VRB_OK);
    EXPECT_STREQ(older.info.name, "second");
    EXPECT_EQ(older.info.struct_size, offsetof(vrb_device_info, total_memory_bytes));
    const auto *tail = reinterpret_cast<const unsigned char *>(&older.info) + older.info.struct_size;
    for (std::size_t i = 0; i < sizeof older.info - older.info.struct_size; ++i)
        ASSERT_EQ(tail[i], 0xab) << "byte " << i << " past the host's struct was written";
}

TEST(PluginTable, KeepsUploadsAndDownloadsInsideTheBuffer)
{
    Opened o;
    vrb_buffer *buffer = nullptr;
    ASSERT_EQ(table.buffer_alloc(o.dev, 0, 64, &buffer), VRB_OK);
    const char text[8] = "lanes";
    EXPECT_EQ(table.buffer_upload(buffer, 60, text, 8), VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_STREQ(table.last_error(), "an upload of 8 bytes at offset 60 runs past the end of a buffer of 64 bytes");
    EXPECT_EQ(table.buffer_upload(buffer, 8, nullptr, 8), VRB_ERROR_INVALID_ARGUMENT);
    ASSERT_EQ(table.buffer_upload(buffer, 56, text, 8), VRB_OK);
    char back[8] = {};
    ASSERT_EQ(table.buffer_download(buffer, 56, back, 8), VRB_OK);
    EXPECT_STREQ(back, "lanes");
    table.buffer_free(buffer);
}

TEST(PluginTable, ChecksAnOperationAgainstItsBuffersAndTheirDevice)
{
    Opened o;
    Opened other;
    vrb_buffer *mine = nullptr, *theirs = nullptr;
    ASSERT_EQ(table.buffer_alloc(o.dev, 0, 64, &mine), VRB_OK);
    ASSERT_EQ(table.buffer_alloc(other.dev, 0, 64, &theirs), VRB_OK);
    double seconds[2] = {};
    vrb_op_output out{};
    out.struct_size = sizeof out;
    vrb_operation op = read_of(mine, 17); // 68 bytes of a 64-byte buffer
    EXPECT_EQ(table.run(o.dev, &op, 2, seconds, &out), VRB_ERROR_INVALID_ARGUMENT);
    op = read_of(theirs, 16);
    EXPECT_EQ(table.run(o.dev, &op, 2, seconds, &out), VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_STREQ(table.last_error(), "an operand's buffer belongs to another device");
    op = read_of(mine, 16);
    EXPECT_EQ(table.run(o.dev, &op, 0, seconds, &out), VRB_ERROR_INVALID_ARGUMENT);
    ASSERT_EQ(table.run(o.dev, &op, 2, seconds, &out), VRB_OK);
    EXPECT_EQ(out.checksum, 42u);
    EXPECT_EQ(out.passes, 3u);
    EXPECT_DOUBLE_EQ(seconds[1], 1e-3);
    table.buffer_free(mine);
    table.buffer_free(theirs);
}

TEST(PluginTable, TurnsADurationThatIsNotPositiveIntoATimerError)
{
    Opened o;
    vrb_buffer *buffer = nullptr;
    ASSERT_EQ(table.buffer_alloc(o.dev, 0, 64, &buffer), VRB_OK);
    double seconds[1] = {};
    vrb_op_output out{};
    out.struct_size = sizeof out;
    const vrb_operation op = read_of(buffer, 16);
    o.device().duration = 0;
    EXPECT_EQ(table.run(o.dev, &op, 1, seconds, &out), VRB_ERROR_TIMER);
    o.device().duration = -1;
    EXPECT_EQ(table.run(o.dev, &op, 1, seconds, &out), VRB_ERROR_TIMER);
    table.buffer_free(buffer);
}

TEST(PluginTable, NeverLetsAnExceptionCrossTheBoundary)
{
    Opened o;
    vrb_buffer *buffer = nullptr;
    ASSERT_EQ(table.buffer_alloc(o.dev, 0, 64, &buffer), VRB_OK);
    double seconds[1] = {};
    vrb_op_output out{};
    out.struct_size = sizeof out;
    const vrb_operation op = read_of(buffer, 16);
    o.device().throws_plain = true;
    EXPECT_EQ(table.run(o.dev, &op, 1, seconds, &out), VRB_ERROR_INTERNAL);
    EXPECT_STREQ(table.last_error(), "a plain exception");
    table.buffer_free(buffer);
}

// A device that says what it offers: READ on any width, COPY only at 16 bytes, and
// only on its first kind; every question it is asked is counted.
struct ChoosyDevice : FakeDevice {
    int asked = 0;
    uint32_t memory_kind_count() { return 2; }
    bool supports(uint32_t op_kind, uint32_t element_bytes, uint32_t memory_kind)
    {
        ++asked;
        if (memory_kind != 0) return false;
        if (op_kind == VRB_OP_TRANSFER) return element_bytes == 1;
        return op_kind == VRB_OP_READ || (op_kind == VRB_OP_COPY && element_bytes == 16);
    }
};

struct ChoosyContext : FakeContext {
    using FakeContext::FakeContext;
    std::unique_ptr<ChoosyDevice> open(uint32_t) { return std::make_unique<ChoosyDevice>(); }
};

const vrb_plugin_table choosy =
    vrb::plugin::make_table<ChoosyContext, ChoosyDevice, FakeBuffer>({"choosy", "says what it offers", "1.0"});

struct OpenedChoosy {
    vrb_context *ctx = nullptr;
    vrb_device *dev = nullptr;
    OpenedChoosy()
    {
        EXPECT_EQ(choosy.init(nullptr, &ctx), VRB_OK);
        EXPECT_EQ(choosy.device_open(ctx, 0, &dev), VRB_OK);
    }
    ~OpenedChoosy()
    {
        choosy.device_close(dev);
        choosy.shutdown(ctx);
    }
    ChoosyDevice &device() { return *reinterpret_cast<ChoosyDevice *>(dev); }
    uint32_t ask(uint32_t op_kind, uint32_t width, uint32_t kind, vrb_status want = VRB_OK)
    {
        uint32_t out = 7;
        EXPECT_EQ(choosy.op_supported(dev, op_kind, width, kind, &out), want) << choosy.last_error();
        return out;
    }
};

TEST(PluginTable, FillsTheCapabilitySlotWhenTheDeviceSaysWhatItSupports)
{
    ASSERT_NE(choosy.op_supported, nullptr);
    OpenedChoosy o;
    EXPECT_EQ(o.ask(VRB_OP_READ, 4, 0), 1u);
    EXPECT_EQ(o.ask(VRB_OP_COPY, 16, 0), 1u);
    EXPECT_EQ(o.ask(VRB_OP_COPY, 8, 0), 0u);
    EXPECT_EQ(o.ask(VRB_OP_READ, 4, 1), 0u);
    EXPECT_EQ(o.device().asked, 4);
}

TEST(PluginTable, AnswersAnUnknownOperationKindAsUnsupportedWithoutAskingTheBackend)
{
    OpenedChoosy o;
    EXPECT_EQ(o.ask(0, 4, 0), 0u);
    EXPECT_EQ(o.ask(VRB_OP_CHECK + 1, 4, 0), 0u);
    EXPECT_EQ(o.ask(0xffffffffu, 4, 0), 0u);
    EXPECT_EQ(o.device().asked, 0);
}

TEST(PluginTable, RefusesACapabilityQuestionWithABadKindWidthOrPointer)
{
    OpenedChoosy o;
    EXPECT_EQ(o.ask(VRB_OP_READ, 4, 2, VRB_ERROR_INVALID_ARGUMENT), 0u);
    EXPECT_STREQ(choosy.last_error(), "memory kind 2 is out of range: 2 kind(s)");
    EXPECT_EQ(o.ask(VRB_OP_READ, 3, 0, VRB_ERROR_INVALID_ARGUMENT), 0u);
    EXPECT_STREQ(choosy.last_error(), "element_bytes must be 4, 8 or 16, not 3");
    EXPECT_EQ(choosy.op_supported(o.dev, VRB_OP_READ, 4, 0, nullptr), VRB_ERROR_INVALID_ARGUMENT);
    uint32_t out = 0;
    EXPECT_EQ(choosy.op_supported(nullptr, VRB_OP_READ, 4, 0, &out), VRB_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(o.device().asked, 0);
    // TRANSFER moves bytes: its width is not a lane width and is not looked at.
    EXPECT_EQ(o.ask(VRB_OP_TRANSFER, 3, 0), 1u);
    EXPECT_EQ(o.device().asked, 1);
}

TEST(PluginTable, AsksTheBackendAboutATransferAtWidthOneWhateverWidthTheHostNamed)
{
    OpenedChoosy o;
    for (uint32_t width : {1u, 4u, 16u})
        EXPECT_EQ(o.ask(VRB_OP_TRANSFER, width, 0), 1u) << "asked at width " << width;
    EXPECT_EQ(o.ask(VRB_OP_TRANSFER, 4, 1), 0u);
}

} // namespace
