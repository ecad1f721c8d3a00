// advise_huge_pages(), reserve_huge() and shrink_to_fit_huge(): contents kept, harmless on
// short or odd ranges, and, where the system offers transparent huge pages, an array reserved
// that way really is backed by them (read back from /proc/self/smaps), as are the blocks of a
// matrix the library builds.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "gridblas/matrix/compressed_block.hpp"
#include "gridblas/matrix/detail/huge_pages.hpp"

namespace {

using gridblas::detail::advise_huge_pages;
using gridblas::detail::reserve_huge;
using gridblas::detail::shrink_to_fit_huge;

/// Why huge pages cannot be checked here, or "" when they can.
std::string why_no_huge_pages() {
#if !defined(__linux__)
    return "not Linux";
#else
    if (const char* e = std::getenv("GRIDBLAS_HUGE_PAGES"); e && std::strcmp(e, "0") == 0) {
        return "GRIDBLAS_HUGE_PAGES=0 is set";
    }
    std::ifstream en("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string mode;
    if (!std::getline(en, mode)) return "no /sys/kernel/mm/transparent_hugepage/enabled";
    if (mode.find("[never]") != std::string::npos) return "transparent huge pages are 'never'";
    std::ifstream sz("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size");
    std::size_t b = 0;
    if (!(sz >> b) || b == 0) return "no huge page size in /sys";
    return "";
#endif
}

/// kB of AnonHugePages in the mapping of /proc/self/smaps that contains p (-1: not found).
long huge_kb_at(const void* p) {
    std::ifstream f("/proc/self/smaps");
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    std::string line;
    bool inside = false;
    while (std::getline(f, line)) {
        // A mapping's first line starts "lo-hi perms ..."; its field lines "Name: value".
        if (line.find('-') < line.find(' ')) {
            unsigned long lo = 0, hi = 0;
            char dash = 0;
            std::istringstream head(line);
            if (head >> std::hex >> lo >> dash >> hi && dash == '-') {
                inside = a >= lo && a < hi;
                continue;
            }
        }
        if (inside && line.rfind("AnonHugePages:", 0) == 0) {
            return std::stol(line.substr(std::strlen("AnonHugePages:")));
        }
    }
    return -1;
}

TEST(HugePages, ReserveKeepsElementsAndLeavesEnoughCapacityAlone) {
    std::vector<std::uint32_t> v(1000);
    std::iota(v.begin(), v.end(), 7u);
    reserve_huge(v, std::size_t(1) << 22);
    ASSERT_GE(v.capacity(), std::size_t(1) << 22);
    ASSERT_EQ(v.size(), 1000u);
    for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], 7u + i) << "element " << i;
    const std::uint32_t* before = v.data();
    reserve_huge(v, 5000);  // room enough: nothing moves
    EXPECT_EQ(v.data(), before);
    std::vector<double> empty;
    reserve_huge(empty, 0);
    EXPECT_TRUE(empty.empty());
    std::vector<bool> bits(10, true);  // packed: a plain reserve
    reserve_huge(bits, 1000);
    EXPECT_GE(bits.capacity(), 1000u);
    EXPECT_EQ(bits.size(), 10u);
    EXPECT_TRUE(bits[9]);
}

TEST(HugePages, ShortOddAndEmptyRangesChangeNothing) {
    advise_huge_pages(nullptr, 0);
    advise_huge_pages(nullptr, std::size_t(1) << 30);
    std::vector<char> small(4096, 'x');
    advise_huge_pages(small.data(), small.size());
    advise_huge_pages(small.data() + 3, 17);
    for (char c : small) ASSERT_EQ(c, 'x');
}

TEST(HugePages, AdviceOnWrittenArrayAndShrinkKeepContents) {
    std::vector<std::uint64_t> v(std::size_t(3) << 20);  // 24 MiB, written before the advice
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = i * 2654435761u;
    advise_huge_pages(v.data() + 1, (v.size() - 1) * sizeof(std::uint64_t));
    for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], i * 2654435761u) << "at " << i;
    v.resize(v.size() / 2);
    shrink_to_fit_huge(v);
    EXPECT_EQ(v.capacity(), v.size());
    for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], i * 2654435761u) << "at " << i;
}

TEST(HugePages, ReservedArrayIsFaultedInHugePages) {
    const std::string why = why_no_huge_pages();
    if (!why.empty()) GTEST_SKIP() << why;
    std::vector<std::uint32_t> v;
    reserve_huge(v, std::size_t(4) << 20);  // 16 MiB, advised before the first touch
    v.assign(std::size_t(4) << 20, 1u);
    EXPECT_GT(huge_kb_at(v.data() + v.size() / 2), 0)
        << "a 16 MiB array reserved by reserve_huge() has no huge pages";
}

TEST(HugePages, BuiltBlocksAndTheirTransposesHaveHugePages) {
    const std::string why = why_no_huge_pages();
    if (!why.empty()) GTEST_SKIP() << why;
    // 6 M entries of a 2^20 x 2^20 block: a 24 MB index array, through the counting sort.
    const std::size_t n = std::size_t(6) << 20;
    const gridblas::lindex_t dim = gridblas::lindex_t(1) << 20;
    std::vector<gridblas::lindex_t> rows(n), cols(n);
    std::uint64_t x = 88172645463325252ull;
    for (std::size_t k = 0; k < n; ++k) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        rows[k] = gridblas::lindex_t(x % dim);
        cols[k] = gridblas::lindex_t((x >> 32) % dim);
    }
    const gridblas::ValueArray<gridblas::Pattern> vals(n);
    using Block = gridblas::CompressedBlock<gridblas::Pattern>;
    for (const auto fmt : {gridblas::LocalFormat::dcsc, gridblas::LocalFormat::csr}) {
        const Block b = Block::from_compressed(
            fmt, dim, dim,
            gridblas::detail::compress<gridblas::Pattern>(dim, dim, rows, cols, vals, true,
                                                          gridblas::DuplicatePolicy::combine));
        const Block t = b.swapped(fmt);
        const auto* bi =
            fmt == gridblas::LocalFormat::dcsc ? b.dcsc().ir().data() : b.csr().colind().data();
        const auto* ti =
            fmt == gridblas::LocalFormat::dcsc ? t.dcsc().ir().data() : t.csr().colind().data();
        EXPECT_GT(huge_kb_at(bi + b.nnz() / 2), 0) << "built block, format " << int(fmt);
        EXPECT_GT(huge_kb_at(ti + t.nnz() / 2), 0) << "transposed block, format " << int(fmt);
    }
}

}  // namespace
