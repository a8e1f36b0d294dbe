// The host's buffers: whole pages, and large ones that never line up on a high power of
// two with the one made before them (page_mapping.hpp says why a core's L1 cares).
#include "page_mapping.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <sys/mman.h>
#include <vector>

namespace vrb::host {
namespace {

uintptr_t address(const PageMapping &m)
{
    return reinterpret_cast<uintptr_t>(m.base());
}

TEST(PageMapping, LargeBuffersMadeInARowStartOnDifferentTwoMebibyteColours)
{
    // The sizes a sweep and a stream allocate, equal pairs and a triad's three.
    for (uint64_t bytes : {uint64_t{2} << 20, uint64_t{128} << 20, (uint64_t{3} << 20) + 4096}) {
        std::vector<std::unique_ptr<PageMapping>> made;
        for (int i = 0; i < 3; ++i)
            made.push_back(std::make_unique<PageMapping>(bytes));
        for (std::size_t i = 1; i < made.size(); ++i) {
            EXPECT_NE(address_colour(made[i]->base()), address_colour(made[i - 1]->base())) << bytes << " bytes";
            // Differing within bits 21-23, the two never differ only above the L1's hash.
            EXPECT_NE((address(*made[i]) ^ address(*made[i - 1])) & ((uint64_t{1} << 27) - 1), 0u);
        }
        for (const auto &m : made)
            EXPECT_EQ(address(*m) % (uint64_t{2} << 20), 0u) << "a large buffer starts on a huge-page boundary";
    }
}

TEST(PageMapping, EightLargeBuffersTakeEightColours)
{
    std::vector<std::unique_ptr<PageMapping>> made;
    std::set<uint32_t> colours;
    for (int i = 0; i < 8; ++i) {
        made.push_back(std::make_unique<PageMapping>(uint64_t{4} << 20));
        colours.insert(address_colour(made.back()->base()));
    }
    EXPECT_EQ(colours.size(), 8u);
}

TEST(PageMapping, HoldsWholePagesEveryByteOfWhichCanBeWrittenAndNothingAroundThem)
{
    for (uint64_t bytes : {uint64_t{1}, uint64_t{4097}, (uint64_t{2} << 20) + 1}) {
        const PageMapping m(bytes);
        EXPECT_EQ(m.bytes() % 4096, 0u);
        EXPECT_GE(m.bytes(), bytes);
        std::memset(m.base(), 0xa5, m.bytes());
        EXPECT_EQ(static_cast<unsigned char *>(m.base())[m.bytes() - 1], 0xa5);
    }
    // The room a colour needs is given back: the page just past a large buffer is not
    // mapped (msync says ENOMEM of a range that is not), so nothing is held beyond it.
    const PageMapping large(uint64_t{8} << 20);
    void *past = static_cast<unsigned char *>(large.base()) + large.bytes();
    errno = 0;
    EXPECT_EQ(msync(past, 4096, MS_ASYNC), -1);
    EXPECT_EQ(errno, ENOMEM);
    EXPECT_EQ(msync(large.base(), large.bytes(), MS_ASYNC), 0);
}

TEST(PageMapping, RefusesAMappingTheAddressSpaceCannotHoldWithOutOfMemory)
{
    try {
        const PageMapping impossible(uint64_t{1} << 62);
        ADD_FAILURE() << "a 4 EiB mapping was made";
    } catch (const std::exception &e) {
        EXPECT_NE(std::string(e.what()).find("mmap of"), std::string::npos) << e.what();
    }
}

} // namespace
} // namespace vrb::host
