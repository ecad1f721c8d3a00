// Graph generators: the Graph500 Kronecker (R-MAT) edge generator and a uniform random one.
//
// Follows the Graph500 specification V2.0, "Generating the Edge List": 2^scale vertices,
// edgefactor * 2^scale edge tuples, and for each of the `scale` bit levels every edge picks a
// quadrant of the adjacency matrix with the initiator probabilities A, B, C, D (0.57, 0.19,
// 0.19, 0.05 by default); vertex labels are relabelled by a seed-keyed bijection. As in the
// reference generator each edge comes from its own position-addressed random stream, so the
// list is the same whatever the number of ranks or threads (see rng.hpp). The per-level noise
// of the draft V3.0 spec is not implemented (it is off in the reference code too).

#include "gridblas/matrix/generators.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gridblas/core/error.hpp"
#include "rng.hpp"

namespace gridblas {

namespace {

// Purposes of the derived keys, so that the edge streams, the permutation and the uniform
// generator use unrelated random numbers for the same seed.
constexpr std::uint64_t kron_edge_purpose = 0x4b524f4e45444745ULL;  // "KRONEDGE"
constexpr std::uint64_t kron_perm_purpose = 0x4b524f4e5045524dULL;  // "KRONPERM"
constexpr std::uint64_t unif_edge_purpose = 0x554e49464544474bULL;  // "UNIFEDGK"

void check_probability(const char* name, double v) {
    if (!(v >= 0.0 && v <= 1.0)) {  // also rejects NaN
        throw InvalidValue(std::string("KroneckerParams.") + name + " = " + std::to_string(v) +
                           " is not a probability in [0, 1]");
    }
}

void check_range(std::uint64_t first, std::uint64_t count, std::uint64_t total) {
    if (first > total || count > total - first) {
        throw IndexOutOfBounds("edge range [" + std::to_string(first) + ", " +
                               std::to_string(first) + " + " + std::to_string(count) +
                               ") exceeds the " + std::to_string(total) + " edges of the graph");
    }
}

// Draws the (row, column) id of one Kronecker edge before relabelling.
//
// Each 64-bit random word serves four levels: lane q (bits 16q .. 16q+15) holds a 15-bit
// uniform u. A level picks quadrant A when u < ta, B when ta <= u < tab, C when tab <= u <
// tabc and D otherwise (thresholds in units of 2^-15; the reference code uses 1/10000), so
// row bit = [u >= tab] and column bit = [u >= ta] ^ [u >= tab] ^ [u >= tabc]. The four
// comparisons of a word are done at once (SWAR): with bit 15 of every lane set, subtracting a
// threshold <= 2^15 never borrows across lanes and leaves bit 15 set exactly when u >= t.
//
// Word j's flags (bits 16q + 15) are accumulated shifted right by j, so level (j, q) lands on
// bit 16q + 15 - j; at the end each lane's block of bits is packed into the low `scale` bits.
// Which level feeds which bit of the id does not matter (levels are i.i.d.) as long as rows
// and columns use the same map.
class KronSampler {
public:
    KronSampler(const KroneckerParams& p, std::uint64_t key)
        : ta_(lanes(to_fixed15(p.a))),
          tab_(lanes(to_fixed15(p.a + p.b))),
          tabc_(lanes(to_fixed15(p.a + p.b + p.c))),
          words_(std::uint64_t(p.scale + 3) / 4) {
        const int full = p.scale - 4 * int(words_ - 1);  // lanes used by the last word, 1..4
        last_mask_ = 0;
        for (int q = 0; q < full; ++q) last_mask_ |= std::uint64_t(1) << (16 * q + 15);
        for (std::uint64_t j = 0; j < words_; ++j) key_[j] = detail::sequence_word(key, j);
        for (int q = 0; q < 4; ++q) {
            const int nbits = int(words_) - (q < full ? 0 : 1);
            width_[q] = nbits;
            shift_[q] = nbits == 0 ? 0 : 16 * q + 16 - nbits;
            mask_[q] = nbits == 0 ? 0 : (std::uint64_t(1) << nbits) - 1;
        }
    }

    /// Row and column ids of edge k: its word j is element k of the sequence keyed by key_[j].
    void draw(std::uint64_t k, std::uint64_t& s, std::uint64_t& d) const {
        std::uint64_t rows = 0;
        std::uint64_t cols = 0;
        for (std::uint64_t j = 0; j < words_; ++j) {
            const std::uint64_t x = (detail::sequence_word(key_[j], k) & low15) | high1;
            const std::uint64_t ga = x - ta_;
            const std::uint64_t gab = x - tab_;
            const std::uint64_t gabc = x - tabc_;
            std::uint64_t r = gab & high1;
            std::uint64_t c = (ga ^ gab ^ gabc) & high1;
            if (j + 1 == words_) {
                r &= last_mask_;
                c &= last_mask_;
            }
            rows |= r >> j;
            cols |= c >> j;
        }
        s = pack(rows);
        d = pack(cols);
    }

private:
    static constexpr std::uint64_t low15 = 0x7fff7fff7fff7fffULL;
    static constexpr std::uint64_t high1 = 0x8000800080008000ULL;

    static std::uint64_t to_fixed15(double x) {
        const double scaled = std::round(x * 32768.0);
        if (scaled <= 0.0) return 0;
        if (scaled >= 32768.0) return 32768;
        return std::uint64_t(scaled);
    }
    static constexpr std::uint64_t lanes(std::uint64_t t) { return t * 0x0001000100010001ULL; }

    std::uint64_t pack(std::uint64_t bits) const {
        std::uint64_t v = 0;
        for (int q = 0; q < 4; ++q) v = (v << width_[q]) | ((bits >> shift_[q]) & mask_[q]);
        return v;
    }

    std::uint64_t ta_, tab_, tabc_;
    std::uint64_t words_;
    std::uint64_t key_[16];  // one sequence key per word; words_ <= 16 as scale <= 64
    std::uint64_t last_mask_;
    int width_[4];
    int shift_[4];
    std::uint64_t mask_[4];
};

}  // namespace

void validate(const KroneckerParams& p) {
    if (p.scale < 1 || p.scale > kronecker_max_scale) {
        throw InvalidValue("KroneckerParams.scale = " + std::to_string(p.scale) +
                           " is outside [1, " + std::to_string(kronecker_max_scale) + "]");
    }
    if (p.edgefactor < 1) {
        throw InvalidValue("KroneckerParams.edgefactor = " + std::to_string(p.edgefactor) +
                           " must be at least 1");
    }
    if (std::uint64_t(p.edgefactor) > (~std::uint64_t(0) >> p.scale)) {
        throw InvalidValue("KroneckerParams.edgefactor = " + std::to_string(p.edgefactor) +
                           " at scale " + std::to_string(p.scale) +
                           ": edgefactor * 2^scale edges do not fit 64 bits");
    }
    check_probability("a", p.a);
    check_probability("b", p.b);
    check_probability("c", p.c);
    const double sum = p.a + p.b + p.c;
    if (sum > 1.0 + 1e-12) {
        throw InvalidValue("KroneckerParams a + b + c = " + std::to_string(sum) +
                           " exceeds 1 (a = " + std::to_string(p.a) +
                           ", b = " + std::to_string(p.b) + ", c = " + std::to_string(p.c) + ")");
    }
}

gindex_t num_vertices(const KroneckerParams& p) {
    validate(p);
    return gindex_t(1) << p.scale;
}

std::uint64_t num_edges(const KroneckerParams& p) {
    validate(p);
    return std::uint64_t(p.edgefactor) << p.scale;
}

gindex_t kronecker_permute(const KroneckerParams& p, gindex_t v) {
    const gindex_t n = num_vertices(p);
    if (v < 0 || v >= n) {
        throw IndexOutOfBounds("vertex " + std::to_string(v) + " is outside [0, " +
                               std::to_string(n) + ")");
    }
    const detail::BitPermutation perm(p.scale, detail::derive_key(p.seed, kron_perm_purpose));
    return gindex_t(perm(std::uint64_t(v)));
}

void kronecker_edges(const KroneckerParams& p, std::uint64_t first, std::uint64_t count,
                     std::vector<gindex_t>& src, std::vector<gindex_t>& dst) {
    check_range(first, count, num_edges(p));  // num_edges validates p
    src.resize(count);
    dst.resize(count);

    const KronSampler sampler(p, detail::derive_key(p.seed, kron_edge_purpose));
    const detail::BitPermutation perm(p.scale, detail::derive_key(p.seed, kron_perm_purpose));
    const bool permute = p.permute;
    gindex_t* const s_out = src.data();
    gindex_t* const d_out = dst.data();
    const auto n = std::int64_t(count);

#pragma omp parallel for schedule(static) if (n > 8192)
    for (std::int64_t i = 0; i < n; ++i) {
        std::uint64_t s = 0;
        std::uint64_t d = 0;
        sampler.draw(first + std::uint64_t(i), s, d);
        if (permute) {
            s = perm(s);
            d = perm(d);
        }
        s_out[i] = gindex_t(s);
        d_out[i] = gindex_t(d);
    }
}

void validate(const UniformParams& p) {
    if (p.num_vertices < 1) {
        throw InvalidValue("UniformParams.num_vertices = " + std::to_string(p.num_vertices) +
                           " must be at least 1");
    }
}

void uniform_edges(const UniformParams& p, std::uint64_t first, std::uint64_t count,
                   std::vector<gindex_t>& src, std::vector<gindex_t>& dst) {
    validate(p);
    check_range(first, count, p.num_edges);
    src.resize(count);
    dst.resize(count);

    const std::uint64_t key_src = detail::derive_key(p.seed, unif_edge_purpose);
    const std::uint64_t key_dst = detail::sequence_word(key_src, 0);
    const auto nv = std::uint64_t(p.num_vertices);
    gindex_t* const s_out = src.data();
    gindex_t* const d_out = dst.data();
    const auto n = std::int64_t(count);

#pragma omp parallel for schedule(static) if (n > 8192)
    for (std::int64_t i = 0; i < n; ++i) {
        const std::uint64_t k = first + std::uint64_t(i);
        s_out[i] = gindex_t(detail::bounded(detail::sequence_word(key_src, k), nv));
        d_out[i] = gindex_t(detail::bounded(detail::sequence_word(key_dst, k), nv));
    }
}

std::pair<std::uint64_t, std::uint64_t> slice_range(std::uint64_t total, int part, int nparts) {
    if (nparts < 1) {
        throw InvalidValue("slice_range: nparts = " + std::to_string(nparts) +
                           " must be at least 1");
    }
    if (part < 0 || part >= nparts) {
        throw IndexOutOfBounds("slice_range: part = " + std::to_string(part) + " is outside [0, " +
                               std::to_string(nparts) + ")");
    }
    const auto np = std::uint64_t(nparts);
    const auto k = std::uint64_t(part);
    const std::uint64_t base = total / np;
    const std::uint64_t extra = total % np;  // the first `extra` parts get one more
    const std::uint64_t first = k * base + (k < extra ? k : extra);
    return {first, base + (k < extra ? 1 : 0)};
}

}  // namespace gridblas
