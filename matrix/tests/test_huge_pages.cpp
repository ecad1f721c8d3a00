// back_with_huge_pages() and reserve_huge(): contents kept, harmless on short or odd ranges,
// and, where the system offers transparent huge pages, the advised arrays really are backed by
// them (read back from /proc/self/smaps).

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "gridblas/matrix/detail/huge_pages.hpp"

namespace {

using gridblas::detail::back_with_huge_pages;
using gridblas::detail::reserve_huge;

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
        unsigned long lo = 0, hi = 0;
        char dash = 0;
        std::istringstream head(line);
        if (line.find(':') == std::string::npos || line.find('-') < line.find(' ')) {
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
    back_with_huge_pages(nullptr, 0);
    back_with_huge_pages(nullptr, std::size_t(1) << 30);
    std::vector<char> small(4096, 'x');
    back_with_huge_pages(small.data(), small.size());
    back_with_huge_pages(small.data() + 3, 17);
    for (char c : small) ASSERT_EQ(c, 'x');
}

TEST(HugePages, CollapsedArrayKeepsItsContents) {
    // In use before the advice: the pages are gathered into huge pages, values unchanged.
    std::vector<std::uint64_t> v(std::size_t(3) << 20);  // 24 MiB
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = i * 2654435761u;
    back_with_huge_pages(v.data() + 1, (v.size() - 1) * sizeof(std::uint64_t));
    for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], i * 2654435761u) << "at " << i;
    const std::string why = why_no_huge_pages();
    if (!why.empty()) GTEST_SKIP() << "contents checked; huge pages not checked: " << why;
    EXPECT_GT(huge_kb_at(v.data() + v.size() / 2), 0)
        << "a 24 MiB array advised after it was written has no huge pages";
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

}  // namespace
