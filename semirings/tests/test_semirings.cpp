// Tests of the semirings component (builtin.hpp, semiring.hpp): monoid identities, products,
// terminal values and early exit, the Semiring concept (built-ins, user-defined, malformed),
// and compile-time (constexpr) use. The laws checked are the semiring laws (an
// associative, commutative add with identity zero(); the built-ins' definitions of the
// GraphBLAS C API 2.1).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gridblas/semirings/semiring.hpp"

namespace gridblas {
namespace {

template <class T>
constexpr T tmax() {
    return std::numeric_limits<T>::max();
}
template <class T>
constexpr T tlow() {
    return std::numeric_limits<T>::lowest();
}
constexpr double inf = std::numeric_limits<double>::infinity();

/// Sample values of T: negatives (for signed types), 0, 1, extremes and infinities.
template <class T>
std::vector<T> samples() {
    std::vector<T> v = {T(0), T(1), T(2), T(42), tmax<T>(), T(tmax<T>() - T(1))};
    if constexpr (std::numeric_limits<T>::is_signed) {
        v.insert(v.end(), {T(-1), T(-42), tlow<T>(), T(tlow<T>() + T(1))});
    }
    if constexpr (std::numeric_limits<T>::has_infinity) {
        v.insert(v.end(), {std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity(),
                           T(0.5), T(-2.25)});
    }
    return v;
}

/// Folds the products of a "row" a with a "vector" x from the identity, as a reference.
template <class S, class A>
typename S::value_type dot(const std::vector<A>& a, const std::vector<typename S::value_type>& x) {
    auto acc = S::zero();
    for (std::size_t k = 0; k < a.size(); ++k) acc = S::add(acc, S::mul(a[k], x[k]));
    return acc;
}

/// The same fold started from the first product and stopped at a terminal value, as the pull
/// kernel does.
template <class S, class A>
typename S::value_type dot_early_exit(const std::vector<A>& a,
                                      const std::vector<typename S::value_type>& x,
                                      std::size_t& steps) {
    auto acc = S::mul(a[0], x[0]);
    for (steps = 1; steps < a.size() && !semiring_is_terminal<S>(acc); ++steps) {
        acc = S::add(acc, S::mul(a[steps], x[steps]));
    }
    return acc;
}

// ---- identities and the add monoids, for every built-in and several domains ----

template <class T>
class Monoids : public ::testing::Test {};
using Domains = ::testing::Types<std::int32_t, std::int64_t, std::uint32_t, double, float>;
TYPED_TEST_SUITE(Monoids, Domains);

template <class S>
void expect_identity_and_laws(const std::vector<typename S::value_type>& xs, const char* name) {
    using T = typename S::value_type;
    for (T x : xs) {
        EXPECT_EQ(S::add(S::zero(), x), x) << name << " x = " << x;
        EXPECT_EQ(S::add(x, S::zero()), x) << name << " x = " << x;
        for (T y : xs) {
            EXPECT_EQ(S::add(x, y), S::add(y, x)) << name << " " << x << ", " << y;
            for (T z : {xs.front(), xs.back()}) {
                EXPECT_EQ(S::add(S::add(x, y), z), S::add(x, S::add(y, z)))
                    << name << " " << x << ", " << y << ", " << z;
            }
        }
    }
}

TYPED_TEST(Monoids, MinAndMaxHaveTheirIdentities) {
    using T = TypeParam;
    const auto xs = samples<T>();
    expect_identity_and_laws<select2nd_min<T>>(xs, "select2nd_min");
    expect_identity_and_laws<min_plus<T>>(xs, "min_plus");
    expect_identity_and_laws<max_times<T>>(xs, "max_times");
    if constexpr (std::numeric_limits<T>::has_infinity) {
        EXPECT_EQ(select2nd_min<T>::zero(), std::numeric_limits<T>::infinity());
        EXPECT_EQ(min_plus<T>::zero(), std::numeric_limits<T>::infinity());
        EXPECT_EQ(max_times<T>::zero(), -std::numeric_limits<T>::infinity());
    } else {
        EXPECT_EQ(select2nd_min<T>::zero(), tmax<T>());
        EXPECT_EQ(min_plus<T>::zero(), tmax<T>());
        EXPECT_EQ(max_times<T>::zero(), tlow<T>());
    }
    for (T x : xs) {
        for (T y : xs) {
            EXPECT_EQ(min_plus<T>::add(x, y), y < x ? y : x);
            EXPECT_EQ(max_times<T>::add(x, y), x < y ? y : x);
        }
    }
}

TYPED_TEST(Monoids, PlusAndAnyHaveZeroAsIdentity) {
    using T = TypeParam;
    // Sums of extremes overflow, so plus is checked on small values only.
    const std::vector<T> small = {T(0), T(1), T(2), T(3), T(100)};
    expect_identity_and_laws<plus_times<T>>(small, "plus_times");
    expect_identity_and_laws<plus_pair<T>>(small, "plus_pair");
    EXPECT_EQ(plus_times<T>::add(T(2), T(40)), T(42));
    // "any" returns one of its operands and is idempotent on its domain.
    for (T x : samples<T>()) {
        EXPECT_EQ(any_pair<T>::add(any_pair<T>::zero(), x), x) << x;
        EXPECT_EQ(any_pair<T>::add(x, any_pair<T>::zero()), x) << x;
        EXPECT_EQ(any_pair<T>::add(x, x), x) << x;
        for (T y : samples<T>()) {
            const T r = any_pair<T>::add(x, y);
            EXPECT_TRUE(r == x || r == y) << x << ", " << y;
        }
    }
}

TYPED_TEST(Monoids, LogicalOrOnTruthValues) {
    using T = TypeParam;
    using S = lor_land<T>;
    EXPECT_EQ(S::zero(), T(0));
    for (T x : {T(0), T(1)}) {
        EXPECT_EQ(S::add(S::zero(), x), x);
        EXPECT_EQ(S::add(x, S::zero()), x);
    }
    EXPECT_EQ(S::add(T(1), T(1)), T(1));
    EXPECT_EQ(S::add(T(0), T(0)), T(0));
    // Any non-zero value counts as true and comes out as 1.
    for (T x : samples<T>()) {
        EXPECT_EQ(S::add(S::zero(), x), T(x != T(0))) << x;
        EXPECT_EQ(S::mul(x, T(1)), T(x != T(0))) << x;
        EXPECT_EQ(S::mul(T(1), x), T(x != T(0))) << x;
        EXPECT_EQ(S::mul(x, T(0)), T(0)) << x;
        EXPECT_EQ(S::mul(Pattern{}, x), T(x != T(0))) << x;
    }
}

// ---- products ----

TYPED_TEST(Monoids, ProductsOnSampleValues) {
    using T = TypeParam;
    EXPECT_EQ(plus_times<T>::mul(T(6), T(7)), T(42));
    EXPECT_EQ(plus_times<T>::mul(T(0), T(7)), T(0));
    EXPECT_EQ(plus_times<T>::mul(Pattern{}, T(7)), T(7));
    EXPECT_EQ(max_times<T>::mul(T(3), T(5)), T(15));
    EXPECT_EQ(max_times<T>::mul(Pattern{}, T(5)), T(5));
    EXPECT_EQ(min_plus<T>::mul(T(3), T(5)), T(8));
    EXPECT_EQ(min_plus<T>::mul(Pattern{}, T(5)), T(5));
    // "No path" stays "no path" whatever weight is added.
    for (T w : {T(0), T(1), T(1000)}) {
        EXPECT_EQ(min_plus<T>::mul(min_plus<T>::zero(), w), min_plus<T>::zero()) << w;
        EXPECT_EQ(min_plus<T>::mul(w, min_plus<T>::zero()), min_plus<T>::zero()) << w;
    }
    if constexpr (std::is_floating_point_v<T>) {
        // The floating-point product tests only the sum: no path beats the terminal -inf,
        // -inf plus a weight stays -inf, and a NaN operand stays NaN.
        const T inf = std::numeric_limits<T>::infinity();
        EXPECT_EQ(min_plus<T>::mul(inf, -inf), inf);
        EXPECT_EQ(min_plus<T>::mul(-inf, inf), inf);
        EXPECT_EQ(min_plus<T>::mul(-inf, T(2)), -inf);
        EXPECT_TRUE(std::isnan(min_plus<T>::mul(std::numeric_limits<T>::quiet_NaN(), T(1))));
        EXPECT_TRUE(std::isnan(min_plus<T>::mul(T(1), std::numeric_limits<T>::quiet_NaN())));
    }
    for (T x : samples<T>()) {
        // select2nd yields the vector's value whatever the matrix entry (and its type) is.
        EXPECT_EQ(select2nd_min<T>::mul(T(99), x), x);
        EXPECT_EQ(select2nd_min<T>::mul(Pattern{}, x), x);
        EXPECT_EQ(select2nd_min<T>::mul(std::string("edge"), x), x);
        // pair yields 1 whatever the operands.
        EXPECT_EQ(any_pair<T>::mul(x, x), T(1));
        EXPECT_EQ(any_pair<T>::mul(Pattern{}, x), T(1));
        EXPECT_EQ(plus_pair<T>::mul(x, T(0)), T(1));
        EXPECT_EQ(plus_pair<T>::mul(Pattern{}, x), T(1));
    }
}

TEST(Semirings, DotProductsAgreeWithHandResults) {
    const std::vector<int> a = {2, 3, 5};
    const std::vector<int> x = {4, 1, 7};
    EXPECT_EQ(dot<plus_times<int>>(a, x), 2 * 4 + 3 * 1 + 5 * 7);
    EXPECT_EQ(dot<min_plus<int>>(a, x), 3 + 1);
    EXPECT_EQ(dot<max_times<int>>(a, x), 5 * 7);
    EXPECT_EQ(dot<select2nd_min<int>>(a, x), 1);
    EXPECT_EQ(dot<plus_pair<int>>(a, x), 3);
    EXPECT_EQ(dot<any_pair<int>>(a, x), 1);
    EXPECT_EQ(dot<lor_land<int>>(std::vector<int>{0, 1, 0}, std::vector<int>{1, 0, 1}), 0);
    EXPECT_EQ(dot<lor_land<int>>(std::vector<int>{0, 1, 1}, std::vector<int>{1, 0, 1}), 1);
    // An empty reduction is the identity.
    EXPECT_EQ(dot<min_plus<double>>(std::vector<double>{}, std::vector<double>{}), inf);
    EXPECT_EQ(dot<max_times<double>>(std::vector<double>{}, std::vector<double>{}), -inf);
    EXPECT_EQ(dot<any_pair<int>>(std::vector<int>{}, std::vector<int>{}), 0);
    // BFS parents: the frontier carries vertex ids, the minimum id wins.
    const std::vector<Pattern> edges(4);
    EXPECT_EQ(dot<select2nd_min<std::int64_t>>(edges, std::vector<std::int64_t>{9, 4, 12, 7}), 4);
}

// ---- terminal values ----

template <class S>
void expect_terminal_absorbs(typename S::value_type t, const char* name,
                             const std::vector<typename S::value_type>& xs) {
    using T = typename S::value_type;
    EXPECT_TRUE(S::is_terminal(t)) << name;
    EXPECT_TRUE(semiring_is_terminal<S>(t)) << name;
    for (T x : xs) {
        EXPECT_EQ(S::add(t, x), t) << name << " x = " << x;
        EXPECT_EQ(S::add(x, t), t) << name << " x = " << x;
    }
}

TYPED_TEST(Monoids, TerminalValuesAbsorb) {
    using T = TypeParam;
    constexpr bool inf_ok = std::numeric_limits<T>::has_infinity;
    const T hi = inf_ok ? std::numeric_limits<T>::infinity() : tmax<T>();
    const T lo = inf_ok ? -std::numeric_limits<T>::infinity() : tlow<T>();
    expect_terminal_absorbs<select2nd_min<T>>(lo, "select2nd_min", samples<T>());
    expect_terminal_absorbs<min_plus<T>>(lo, "min_plus", samples<T>());
    expect_terminal_absorbs<max_times<T>>(hi, "max_times", samples<T>());
    // any and lor live on {0, 1} (the products only make 0 and 1).
    expect_terminal_absorbs<any_pair<T>>(T(1), "any_pair", {T(0), T(1)});
    expect_terminal_absorbs<lor_land<T>>(T(1), "lor_land", {T(0), T(1)});
    for (T x : samples<T>()) EXPECT_EQ(any_pair<T>::add(T(1), x), T(1)) << x;

    // Values that do not absorb are not terminal, identities included.
    EXPECT_FALSE(select2nd_min<T>::is_terminal(T(1)));
    // For an unsigned domain 0 is the floor of min.
    EXPECT_EQ(select2nd_min<T>::is_terminal(T(0)), !std::numeric_limits<T>::is_signed);
    EXPECT_FALSE(select2nd_min<T>::is_terminal(select2nd_min<T>::zero()));
    EXPECT_FALSE(min_plus<T>::is_terminal(T(1)));
    EXPECT_FALSE(max_times<T>::is_terminal(T(1)));
    EXPECT_FALSE(max_times<T>::is_terminal(max_times<T>::zero()));
    EXPECT_FALSE(any_pair<T>::is_terminal(any_pair<T>::zero()));
    EXPECT_FALSE(lor_land<T>::is_terminal(T(0)));
    if constexpr (inf_ok) {  // the finite extreme is not the floor when -inf exists
        EXPECT_FALSE(min_plus<T>::is_terminal(tlow<T>()));
        EXPECT_FALSE(max_times<T>::is_terminal(tmax<T>()));
    }
    for (T x : samples<T>()) {
        EXPECT_FALSE(plus_times<T>::is_terminal(x));
        EXPECT_FALSE(plus_pair<T>::is_terminal(x));
        EXPECT_FALSE(semiring_is_terminal<plus_times<T>>(x));
    }
}

TEST(Semirings, HasTerminalFlags) {
    static_assert(semiring_has_terminal<select2nd_min<int>>());
    static_assert(semiring_has_terminal<any_pair<int>>());
    static_assert(semiring_has_terminal<lor_land<int>>());
    static_assert(semiring_has_terminal<min_plus<double>>());
    static_assert(semiring_has_terminal<max_times<double>>());
    static_assert(!semiring_has_terminal<plus_times<double>>());
    static_assert(!semiring_has_terminal<plus_pair<int>>());
    SUCCEED();
}

// Early exit at a terminal value never changes a reduction's result.
TEST(Semirings, EarlyExitGivesTheFullResult) {
    std::mt19937_64 gen(7);
    std::size_t total_steps = 0, total_len = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const std::size_t len = 1 + gen() % 40;
        std::vector<int> a(len), x(len), bits(len), xbits(len);
        for (std::size_t k = 0; k < len; ++k) {
            a[k] = int(gen() % 50) - 25;
            x[k] = int(gen() % 50) - 25;
            bits[k] = int(gen() % 4 == 0);
            xbits[k] = int(gen() % 2);
        }
        // Put the floor of min in now and then.
        if (trial % 3 == 0) x[gen() % len] = tlow<int>();
        std::size_t steps = 0;
        EXPECT_EQ(dot_early_exit<select2nd_min<int>>(a, x, steps), dot<select2nd_min<int>>(a, x));
        total_steps += steps;
        EXPECT_EQ(dot_early_exit<lor_land<int>>(bits, xbits, steps),
                  dot<lor_land<int>>(bits, xbits));
        total_steps += steps;
        total_len += 2 * len;
        EXPECT_EQ(dot_early_exit<any_pair<int>>(a, x, steps), dot<any_pair<int>>(a, x));
        EXPECT_EQ(steps, 1u);          // any: the first product decides
        std::vector<int> small_x = x;  // plus_times would overflow on the floor of min
        std::replace(small_x.begin(), small_x.end(), tlow<int>(), 1);
        EXPECT_EQ(dot_early_exit<plus_times<int>>(a, small_x, steps),
                  dot<plus_times<int>>(a, small_x));
        EXPECT_EQ(steps, len) << "no terminal: never stops early";
    }
    EXPECT_LT(total_steps, total_len);
}

// ---- the concept, user-defined semirings ----

/// The shape documented in semiring.hpp: no terminal value.
struct affine_semiring {
    using value_type = double;
    static double zero() { return 0; }
    static double add(double a, double b) { return a + b; }
    static double mul(double a, double x) { return a * x + 1; }
};

/// A user-defined semiring with a terminal value (boolean "and" over products "or").
struct and_or {
    using value_type = bool;
    static constexpr bool has_terminal = true;
    static constexpr bool zero() { return true; }
    static constexpr bool add(bool a, bool b) { return a && b; }
    static constexpr bool mul(bool a, bool x) { return a || x; }
    static constexpr bool is_terminal(bool v) { return !v; }
};

/// Claims no terminal but defines is_terminal anyway: has_terminal wins.
struct says_no_terminal {
    using value_type = int;
    static constexpr bool has_terminal = false;
    static int zero() { return 0; }
    static int add(int a, int b) { return a | b; }
    static int mul(int a, int x) { return a & x; }
    static constexpr bool is_terminal(int) { return true; }
};

struct no_zero {
    using value_type = int;
    static int add(int a, int b) { return a + b; }
    static int mul(int a, int b) { return a * b; }
};
struct no_value_type {
    static int zero() { return 0; }
    static int add(int a, int b) { return a + b; }
    static int mul(int a, int b) { return a * b; }
};
struct unary_add {
    using value_type = int;
    static int zero() { return 0; }
    static int add(int a) { return a; }
    static int mul(int a, int b) { return a * b; }
};
struct void_mul {
    using value_type = int;
    static int zero() { return 0; }
    static int add(int a, int b) { return a + b; }
    static void mul(int, int) {}
};
struct non_static {
    using value_type = int;
    int zero() const { return 0; }
    int add(int a, int b) const { return a + b; }
    int mul(int a, int b) const { return a * b; }
};

TEST(Semirings, ConceptAcceptsBuiltinsAndUserTypes) {
    static_assert(Semiring<select2nd_min<std::int64_t>>);
    static_assert(Semiring<select2nd_min<std::int64_t>, Pattern>);
    static_assert(Semiring<select2nd_min<std::int64_t>, double>);
    static_assert(Semiring<any_pair<std::uint32_t>, Pattern>);
    static_assert(Semiring<lor_land<int>>);
    static_assert(Semiring<lor_land<int>, Pattern>);
    static_assert(Semiring<min_plus<double>>);
    static_assert(Semiring<min_plus<double>, Pattern>);
    static_assert(Semiring<plus_times<float>>);
    static_assert(Semiring<plus_pair<std::int64_t>, Pattern>);
    static_assert(Semiring<max_times<double>, Pattern>);
    static_assert(Semiring<affine_semiring>);
    static_assert(Semiring<and_or>);
    static_assert(Semiring<says_no_terminal>);
    SUCCEED();
}

TEST(Semirings, ConceptRejectsMalformedTypes) {
    static_assert(!Semiring<int>);
    static_assert(!Semiring<no_zero>);
    static_assert(!Semiring<no_value_type, int>);
    static_assert(!Semiring<unary_add>);
    static_assert(!Semiring<void_mul>);
    static_assert(!Semiring<non_static>);
    // A matrix value type the product cannot take.
    static_assert(!Semiring<plus_times<double>, std::string>);
    static_assert(!Semiring<affine_semiring, Pattern>);
    SUCCEED();
}

TEST(Semirings, UserDefinedSemiringsWork) {
    EXPECT_EQ(dot<affine_semiring>(std::vector<double>{2, 3}, std::vector<double>{1, 1}),
              (2.0 + 1) + (3.0 + 1));
    static_assert(!semiring_has_terminal<affine_semiring>());
    EXPECT_FALSE(semiring_is_terminal<affine_semiring>(0.0));
    EXPECT_FALSE(semiring_is_terminal<affine_semiring>(-inf));

    static_assert(semiring_has_terminal<and_or>());
    EXPECT_TRUE(semiring_is_terminal<and_or>(false));
    EXPECT_FALSE(semiring_is_terminal<and_or>(true));
    EXPECT_EQ(dot<and_or>(std::vector<bool>{true, false}, std::vector<bool>{false, true}), true);
    EXPECT_EQ(dot<and_or>(std::vector<bool>{true, false}, std::vector<bool>{false, false}), false);

    static_assert(!semiring_has_terminal<says_no_terminal>());
    EXPECT_FALSE(semiring_is_terminal<says_no_terminal>(0));

    static_assert(!is_builtin_semiring<affine_semiring>::value);
    static_assert(!is_builtin_semiring<and_or>::value);
    static_assert(is_builtin_semiring<select2nd_min<int>>::value);
    static_assert(is_builtin_semiring<any_pair<int>>::value);
    static_assert(is_builtin_semiring<lor_land<int>>::value);
    static_assert(is_builtin_semiring<min_plus<double>>::value);
    static_assert(is_builtin_semiring<plus_times<double>>::value);
    static_assert(is_builtin_semiring<plus_pair<int>>::value);
    static_assert(is_builtin_semiring<max_times<float>>::value);
}

// ---- constexpr use: everything above is usable at compile time ----

static_assert(select2nd_min<int>::zero() == std::numeric_limits<int>::max());
static_assert(select2nd_min<double>::zero() == inf);
static_assert(select2nd_min<int>::add(select2nd_min<int>::zero(), -5) == -5);
static_assert(select2nd_min<int>::mul(Pattern{}, 17) == 17);
static_assert(select2nd_min<std::int64_t>::is_terminal(std::numeric_limits<std::int64_t>::min()));
static_assert(min_plus<std::int32_t>::zero() == std::numeric_limits<std::int32_t>::max());
static_assert(min_plus<std::int64_t>::zero() == std::numeric_limits<std::int64_t>::max());
static_assert(min_plus<double>::zero() == inf);
static_assert(min_plus<int>::add(3, 5) == 3);
static_assert(min_plus<int>::mul(min_plus<int>::zero(), 3) == min_plus<int>::zero());
static_assert(min_plus<double>::mul(2.5, 0.5) == 3.0);
static_assert(max_times<double>::zero() == -inf);
static_assert(max_times<int>::add(-3, 4) == 4);
static_assert(max_times<int>::is_terminal(std::numeric_limits<int>::max()));
static_assert(plus_times<int>::add(plus_times<int>::mul(6, 7), plus_times<int>::zero()) == 42);
static_assert(plus_pair<int>::add(plus_pair<int>::mul(0, 0), 2) == 3);
static_assert(any_pair<int>::add(any_pair<int>::zero(), any_pair<int>::mul(5, 5)) == 1);
static_assert(any_pair<int>::is_terminal(1) && !any_pair<int>::is_terminal(0));
static_assert(lor_land<int>::add(0, lor_land<int>::mul(1, 1)) == 1);
static_assert(lor_land<int>::mul(Pattern{}, 0) == 0);
static_assert(semiring_is_terminal<lor_land<int>>(1));
static_assert(!semiring_is_terminal<plus_times<int>>(0));
static_assert(semiring_is_terminal<and_or>(false));

}  // namespace
}  // namespace gridblas
