#pragma once
// The semirings the local kernel tests run, as one typed list shared by the push
// (tests/unit/test_kernels_push.cpp), pull (tests/unit/test_kernels_pull.cpp) and CUDA
// (tests/cuda/test_cuda_kernels.cpp) suites. Each case names a semiring, the matrix's value
// type and how to draw vector values:
//
//   S               the semiring
//   A               the stored value type of the matrix (Pattern: structure only)
//   name            for test traces
//   vmin            smallest stored value (the tests' tuples hold small integers vmin..9)
//   threaded_check  also compared on 2 threads by the CPU tests
//   pattern_only    only the result's pattern is compared (values are arbitrary)
//   x_value(rng)    one vector value
//
// Values are small integers, so even floating-point sums are exact in any order.

#include <cstdint>
#include <random>

#include "gridblas/core/types.hpp"
#include "gridblas/semirings/builtin.hpp"

namespace gridblas::ref {

/// A list of test cases: `as<L>` is L<Cases...> (e.g. ::testing::Types for a typed suite),
/// `for_each(f)` calls f.template operator()<Case>() for each case in order.
template <class... Cases>
struct CaseList {
    template <template <class...> class L>
    using as = L<Cases...>;
    template <class F>
    static void for_each(F&& f) {
        (f.template operator()<Cases>(), ...);
    }
};

struct PlusTimesCase {
    using S = plus_times<double>;
    using A = double;
    static constexpr const char* name = "plus_times<double>";
    static constexpr int vmin = 1;
    static constexpr bool threaded_check = true;
    static constexpr bool pattern_only = false;
    static double x_value(std::mt19937_64& g) { return double(g() % 9 + 1); }
};
struct MinPlusCase {
    using S = min_plus<double>;
    using A = double;
    static constexpr const char* name = "min_plus<double>";
    static constexpr int vmin = 1;
    static constexpr bool threaded_check = false;
    static constexpr bool pattern_only = false;
    static double x_value(std::mt19937_64& g) { return double(g() % 20); }
};
struct Select2ndMinCase {
    using S = select2nd_min<lindex_t>;
    using A = Pattern;
    static constexpr const char* name = "select2nd_min<lindex_t>";
    static constexpr int vmin = 1;
    static constexpr bool threaded_check = true;
    static constexpr bool pattern_only = false;
    static lindex_t x_value(std::mt19937_64& g) { return lindex_t(g() % 1000); }
};
struct AnyPairCase {
    using S = any_pair<lindex_t>;
    using A = Pattern;
    static constexpr const char* name = "any_pair<lindex_t>";
    static constexpr int vmin = 1;
    static constexpr bool threaded_check = false;
    static constexpr bool pattern_only = true;
    static lindex_t x_value(std::mt19937_64& g) { return lindex_t(g() % 1000); }
};
struct LorLandCase {
    using S = lor_land<int>;
    using A = int;
    static constexpr const char* name = "lor_land<int>";
    static constexpr int vmin = 0;  // explicit zeros are stored
    static constexpr bool threaded_check = false;
    static constexpr bool pattern_only = false;
    static int x_value(std::mt19937_64& g) { return int(g() % 2); }
};
struct PlusPairCase {
    using S = plus_pair<std::int64_t>;
    using A = Pattern;
    static constexpr const char* name = "plus_pair<int64_t>";
    static constexpr int vmin = 1;
    static constexpr bool threaded_check = false;
    static constexpr bool pattern_only = false;
    static std::int64_t x_value(std::mt19937_64& g) { return std::int64_t(g() % 7); }
};
struct MaxTimesFloatCase {
    using S = max_times<float>;
    using A = float;
    static constexpr const char* name = "max_times<float>";
    static constexpr int vmin = 1;
    static constexpr bool threaded_check = false;
    static constexpr bool pattern_only = false;
    static float x_value(std::mt19937_64& g) { return float(g() % 9) - 4.0f; }
};
struct MinPlusIntCase {
    using S = min_plus<std::int32_t>;
    using A = std::int32_t;
    static constexpr const char* name = "min_plus<int32_t>";
    static constexpr int vmin = 1;
    static constexpr bool threaded_check = false;
    static constexpr bool pattern_only = false;
    static std::int32_t x_value(std::mt19937_64& g) { return std::int32_t(g() % 30) - 10; }
};
struct PlusTimesFloatPatternCase {
    using S = plus_times<float>;
    using A = Pattern;
    static constexpr const char* name = "plus_times<float> on a pattern";
    static constexpr int vmin = 1;
    static constexpr bool threaded_check = false;
    static constexpr bool pattern_only = false;
    static float x_value(std::mt19937_64& g) { return float(g() % 5); }
};

/// A user-defined semiring whose product is not commutative: swapping the operands gives
/// a different answer, so this pins down the mul(matrix_entry, vector_entry) order.
struct affine_plus {
    using value_type = std::int64_t;
    static std::int64_t zero() { return 0; }
    static std::int64_t add(std::int64_t a, std::int64_t b) { return a + b; }
    static std::int64_t mul(std::int64_t a, std::int64_t x) { return 3 * a - x; }
};
struct AffineCase {
    using S = affine_plus;
    using A = std::int64_t;
    static constexpr const char* name = "affine_plus (user)";
    static constexpr int vmin = 1;
    static constexpr bool threaded_check = true;
    static constexpr bool pattern_only = false;
    static std::int64_t x_value(std::mt19937_64& g) { return std::int64_t(g() % 50); }
};

/// The CPU kernel suites (push and pull): five built-ins and a user-defined semiring.
using CpuKernelSemirings =
    CaseList<PlusTimesCase, MinPlusCase, Select2ndMinCase, AnyPairCase, LorLandCase, AffineCase>;

/// The CUDA kernel suite: the CPU suites' built-ins (a user-defined semiring has no device
/// kernel) plus other monoids and value types of the device's instantiation list.
using DeviceKernelSemirings =
    CaseList<PlusTimesCase, MinPlusCase, Select2ndMinCase, AnyPairCase, LorLandCase, PlusPairCase,
             MaxTimesFloatCase, MinPlusIntCase, PlusTimesFloatPatternCase>;

}  // namespace gridblas::ref
