// Which pages the OS backs the host's buffers with: smaps text read for a buffer's
// mapping (page_size.hpp), and what the host module's run() reports from it.
#include "host_module.hpp"
#include "page_size.hpp"

#include <vrambench/operation.hpp>
#include <vrambench/plugin_table.hpp>

#include <gtest/gtest.h>

#include <sys/mman.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25 // Linux 6.1's; older C libraries do not name it
#endif

namespace vrb::host {
namespace {

constexpr uint64_t huge = uint64_t{2} << 20;

// One mapping of smaps, with the fields the reading uses among others it skips.
std::string smaps_mapping(const std::string &range, const std::string &path, uint64_t kernel_page_kib, uint64_t rss_kib,
                          uint64_t anon_huge_kib)
{
    return range + " rw-p 00000000 00:00 0                          " + path +
           "\n"
           "Size:               " +
           std::to_string(rss_kib) + " kB\nKernelPageSize:     " + std::to_string(kernel_page_kib) +
           " kB\nMMUPageSize:        " + std::to_string(kernel_page_kib) +
           " kB\nRss:                " + std::to_string(rss_kib) +
           " kB\nPss:                " + std::to_string(rss_kib) +
           " kB\nAnonymous:          " + std::to_string(rss_kib) +
           " kB\nAnonHugePages:      " + std::to_string(anon_huge_kib) +
           " kB\nShmemPmdMapped:        0 kB\nPrivate_Hugetlb:        0 kB\nTHPeligible:    1\nVmFlags: rd wr mr mw me "
           "ac hg\n";
}

// A binary's mapping, then the buffer at 7f0000000000-7f0000800000 (8 MiB), then a library.
std::string smaps_with_buffer(uint64_t kernel_page_kib, uint64_t rss_kib, uint64_t anon_huge_kib)
{
    return smaps_mapping("55d4a1c00000-55d4a1c02000", "/usr/bin/vrambench", 4, 8, 0) +
           smaps_mapping("7f0000000000-7f0000800000", "", kernel_page_kib, rss_kib, anon_huge_kib) +
           smaps_mapping("7f1000000000-7f1000200000", "/usr/lib/x86_64-linux-gnu/libc.so.6", 4, 2048, 0);
}

const std::vector<AddressRange> the_buffer{{0x7f0000000000, 0x7f0000800000}};

TEST(SmapsPageSize, AMappingWhoseEveryResidentPageIsAHugePageIsThePmdSize)
{
    EXPECT_EQ(smaps_page_bytes(smaps_with_buffer(4, 8192, 8192), the_buffer, huge), huge);
    // The PMD size is the one given, not a figure of its own (a 64 KiB-page kernel's is 512 MiB).
    EXPECT_EQ(smaps_page_bytes(smaps_with_buffer(4, 8192, 8192), the_buffer, uint64_t{512} << 20), uint64_t{512} << 20);
}

TEST(SmapsPageSize, AMappingOfSmallPagesIsItsKernelPageSize)
{
    EXPECT_EQ(smaps_page_bytes(smaps_with_buffer(4, 8192, 0), the_buffer, huge), 4096u);
    EXPECT_EQ(smaps_page_bytes(smaps_with_buffer(64, 8192, 0), the_buffer, huge), 65536u);
}

TEST(SmapsPageSize, AMappingOnlyPartlyInHugePagesIsItsSmallPageSize)
{
    EXPECT_EQ(smaps_page_bytes(smaps_with_buffer(4, 8192, 6144), the_buffer, huge), 4096u);
}

TEST(SmapsPageSize, AHugetlbfsMappingIsItsKernelPageSizeThoughItsPagesAreNotInRss)
{
    // hugetlbfs pages count in Private_Hugetlb, not Rss or AnonHugePages.
    EXPECT_EQ(smaps_page_bytes(smaps_with_buffer(2048, 0, 0), the_buffer, huge), huge);
    EXPECT_EQ(smaps_page_bytes(smaps_with_buffer(1048576, 0, 0), the_buffer, huge), uint64_t{1} << 30);
}

TEST(SmapsPageSize, ARangeInNoMappingIsUnknown)
{
    const std::vector<AddressRange> elsewhere{{0x7e0000000000, 0x7e0000001000}};
    EXPECT_EQ(smaps_page_bytes(smaps_with_buffer(4, 8192, 8192), elsewhere, huge), 0u);
    // One range found and one not: the smallest of them cannot be told.
    const std::vector<AddressRange> both{the_buffer[0], elsewhere[0]};
    EXPECT_EQ(smaps_page_bytes(smaps_with_buffer(4, 8192, 8192), both, huge), 0u);
    EXPECT_EQ(smaps_page_bytes("", the_buffer, huge), 0u);
    EXPECT_EQ(smaps_page_bytes(smaps_with_buffer(4, 8192, 8192), {}, huge), 0u);
}

TEST(SmapsPageSize, AMappingThatGivesNoKernelPageSizeInKibIsUnknown)
{
    std::string text = smaps_with_buffer(4, 8192, 0);
    const std::string field = "KernelPageSize:     4 kB";
    const std::size_t second = text.find(field, text.find("7f0000000000"));
    text.replace(second, field.size(), "KernelPageSize:     4 MB");
    EXPECT_EQ(smaps_page_bytes(text, the_buffer, huge), 0u);
}

TEST(SmapsPageSize, RangesInSeveralMappingsAreTheSmallestOfThem)
{
    const std::string text = smaps_mapping("7f0000000000-7f0000400000", "", 4, 4096, 4096) +
                             smaps_mapping("7f0000400000-7f0000800000", "", 4, 4096, 0);
    EXPECT_EQ(smaps_page_bytes(text, std::vector<AddressRange>{{0x7f0000000000, 0x7f0000400000}}, huge), huge);
    EXPECT_EQ(smaps_page_bytes(text, std::vector<AddressRange>{{0x7f0000400000, 0x7f0000800000}}, huge), 4096u);
    // One buffer across both mappings, or two buffers one in each: 4 KiB either way.
    EXPECT_EQ(smaps_page_bytes(text, the_buffer, huge), 4096u);
    EXPECT_EQ(
        smaps_page_bytes(
            text, std::vector<AddressRange>{{0x7f0000000000, 0x7f0000001000}, {0x7f0000400000, 0x7f0000401000}}, huge),
        4096u);
    // A buffer inside a larger mapping (the kernel merged it with a neighbour) is the mapping's.
    EXPECT_EQ(smaps_page_bytes(text, std::vector<AddressRange>{{0x7f0000200000, 0x7f0000300000}}, huge), huge);
}

TEST(SmapsPageSize, StopsReadingAtTheFirstMappingPastEveryRange)
{
    SmapsPages pages(the_buffer, huge);
    const std::string text = smaps_with_buffer(4, 8192, 8192);
    std::size_t lines_taken = 0, at = 0;
    while (at < text.size()) {
        const std::size_t newline = text.find('\n', at);
        ++lines_taken;
        if (!pages.take(std::string_view(text).substr(at, newline - at))) break;
        at = newline + 1;
    }
    // The library's header line is the last one read: 12 lines a mapping, two before it.
    EXPECT_EQ(lines_taken, 2 * 12 + 1);
    EXPECT_FALSE(pages.take("KernelPageSize:     4 kB"));
    EXPECT_EQ(pages.page_bytes(), huge);
}

TEST(RecentPageBytes, ReadsAgainOnlyForOtherBuffersAfterANewBufferOrOnceTheAnswerIsOld)
{
    int reads = 0;
    uint64_t smaps_says = 4096;
    const auto reader = [&](std::span<const AddressRange>) {
        ++reads;
        return smaps_says;
    };
    const std::vector<AddressRange> a{{0x7f0000000000, 0x7f0000800000}};
    const std::vector<AddressRange> b{{0x7f0000000000, 0x7f0000800000}, {0x7f0001000000, 0x7f0001800000}};
    RecentPageBytes recent(std::chrono::hours(1), reader);
    EXPECT_EQ(recent.of(a, 0), 4096u);
    smaps_says = huge;
    EXPECT_EQ(recent.of(a, 0), 4096u) << "the same buffers, none made since, within the hour";
    EXPECT_EQ(reads, 1);
    EXPECT_EQ(recent.of(b, 0), huge) << "other buffers";
    EXPECT_EQ(reads, 2);
    smaps_says = 4096;
    EXPECT_EQ(recent.of(b, 1), 4096u) << "a buffer was made since: it may lie where a freed one was";
    EXPECT_EQ(reads, 3);

    RecentPageBytes always(std::chrono::steady_clock::duration::zero(), reader);
    always.of(a, 0);
    smaps_says = huge;
    EXPECT_EQ(always.of(a, 0), huge) << "an answer as old as its interval is read again";
    EXPECT_EQ(reads, 5);
}

// The host module's table over its own classes, one device and its buffers.
class HostRunPages : public ::testing::Test {
  protected:
    void SetUp() override
    {
        ASSERT_EQ(table_.init(nullptr, &ctx_), VRB_OK) << table_.last_error();
        ASSERT_EQ(table_.device_open(ctx_, 0, &dev_), VRB_OK) << table_.last_error();
    }
    void TearDown() override
    {
        for (vrb_buffer *b : buffers_)
            table_.buffer_free(b);
        if (dev_) table_.device_close(dev_);
        if (ctx_) table_.shutdown(ctx_);
    }
    vrb_buffer *allocate(uint64_t bytes)
    {
        vrb_buffer *b = nullptr;
        EXPECT_EQ(table_.buffer_alloc(dev_, 0, bytes, &b), VRB_OK) << table_.last_error();
        if (b) buffers_.push_back(b);
        return b;
    }
    // READ of the whole buffer: its output's page_bytes.
    uint64_t read_page_bytes(vrb_buffer *b, uint64_t bytes)
    {
        vrb_operation op = make_operation(VRB_OP_READ, 16, bytes / 16);
        op.src1 = {b, 0};
        double seconds[2] = {};
        vrb_op_output out{};
        out.struct_size = sizeof out;
        EXPECT_EQ(table_.run(dev_, &op, 2, seconds, &out), VRB_OK) << table_.last_error();
        return out.page_bytes;
    }
    static const PageMapping &mapping_of(vrb_buffer *b) { return host_buffer(b).mapping(); }

    const vrb_plugin_table table_ =
        plugin::make_table<HostContext, HostDevice, HostBuffer>({"host", "page size test", "1.0"});
    vrb_context *ctx_ = nullptr;
    vrb_device *dev_ = nullptr;
    std::vector<vrb_buffer *> buffers_;
};

constexpr uint64_t run_bytes = uint64_t{8} << 20;

TEST_F(HostRunPages, ARunSaysItsBuffersAreInSmallOrHugePages)
{
    vrb_buffer *b = allocate(run_bytes);
    ASSERT_NE(b, nullptr);
    // The THP mode (madvise, always, never) and free 2 MiB blocks decide which.
    const uint64_t page = read_page_bytes(b, run_bytes);
    EXPECT_TRUE(page == 4096 || page == huge_page_bytes()) << page;
}

TEST_F(HostRunPages, ARunOverBuffersTheOsGaveSmallPagesSaysFourKibibytes)
{
    vrb_buffer *b = allocate(run_bytes);
    ASSERT_NE(b, nullptr);
    const PageMapping &m = mapping_of(b);
    // Its pages given back and touched again where no huge page may be made.
    ASSERT_EQ(madvise(m.base(), m.bytes(), MADV_NOHUGEPAGE), 0) << std::strerror(errno);
    ASSERT_EQ(madvise(m.base(), m.bytes(), MADV_DONTNEED), 0) << std::strerror(errno);
    std::memset(m.base(), 1, m.bytes());
    EXPECT_EQ(read_page_bytes(b, run_bytes), 4096u);
}

TEST_F(HostRunPages, ARunOverBuffersInHugePagesSaysTheHugePageSize)
{
    vrb_buffer *b = allocate(run_bytes);
    ASSERT_NE(b, nullptr);
    const PageMapping &m = mapping_of(b);
    // A large buffer starts on a 2 MiB boundary (page_mapping.hpp): all of it can be huge.
    if (madvise(m.base(), m.bytes(), MADV_COLLAPSE) != 0)
        GTEST_SKIP() << "the kernel made no huge pages of the buffer (MADV_COLLAPSE: " << std::strerror(errno) << ")";
    EXPECT_EQ(read_page_bytes(b, run_bytes), huge_page_bytes());
}

TEST_F(HostRunPages, ARunOverASmallAndAHugePagedBufferSaysTheSmallerPage)
{
    vrb_buffer *src = allocate(run_bytes), *dst = allocate(run_bytes);
    ASSERT_NE(src, nullptr);
    ASSERT_NE(dst, nullptr);
    const PageMapping &small = mapping_of(dst);
    ASSERT_EQ(madvise(small.base(), small.bytes(), MADV_NOHUGEPAGE), 0);
    ASSERT_EQ(madvise(small.base(), small.bytes(), MADV_DONTNEED), 0);
    std::memset(small.base(), 1, small.bytes());
    const PageMapping &big = mapping_of(src);
    if (madvise(big.base(), big.bytes(), MADV_COLLAPSE) != 0)
        GTEST_SKIP() << "the kernel made no huge pages of the source (MADV_COLLAPSE: " << std::strerror(errno) << ")";
    ASSERT_EQ(read_page_bytes(src, run_bytes), huge_page_bytes());
    vrb_operation copy = make_operation(VRB_OP_COPY, 16, run_bytes / 16);
    copy.src1 = {src, 0};
    copy.dst = {dst, 0};
    double seconds[1] = {};
    vrb_op_output out{};
    out.struct_size = sizeof out;
    ASSERT_EQ(table_.run(dev_, &copy, 1, seconds, &out), VRB_OK) << table_.last_error();
    EXPECT_EQ(out.page_bytes, 4096u);
}

} // namespace
} // namespace vrb::host
