// Edge-list readers (.el: "u v", .wel: "u v w"), line by line with file:line errors.
#include "gridblas/matrix/edge_list.hpp"

#include <algorithm>
#include <fstream>

#include "text_scan.hpp"

namespace gridblas {

namespace {

gindex_t read_vertex(const detail::LineReader& lines, std::string_view tok) {
    std::uint64_t v = 0;
    bool negative = false;
    const detail::ScanStatus s = detail::scan_index(tok, v, negative);
    if (s == detail::ScanStatus::malformed)
        lines.fail<ParseError>("bad vertex id " + detail::printable(tok));
    // The largest id must leave room for n = id + 1.
    if (s == detail::ScanStatus::out_of_range ||
        v >= std::uint64_t(std::numeric_limits<gindex_t>::max())) {
        lines.fail<IndexOutOfBounds>("vertex id " + detail::printable(tok) +
                                     (negative ? " is negative" : " is too large"));
    }
    return static_cast<gindex_t>(v);
}

template <class T>
CooMatrix<T, gindex_t> read_edges(const std::string& path) {
    constexpr bool weighted = !std::is_same_v<T, Pattern>;
    std::ifstream in(path, std::ios::in | std::ios::binary);
    if (!in.is_open()) throw IoError(path + ": cannot open for reading");
    detail::LineReader lines(in, path);
    CooMatrix<T, gindex_t> m;
    gindex_t max_id = -1;
    std::string_view line;
    while (lines.next(line)) {
        const std::string_view t = detail::trim_left(line);
        if (t.empty() || t[0] == '#' || t[0] == '%') continue;
        detail::Tokens tok(t);
        std::string_view u, v, w, extra;
        if (!tok.next(u) || !tok.next(v) || (weighted && !tok.next(w))) {
            lines.fail<ParseError>(weighted ? "expected '<source> <target> <weight>'"
                                            : "expected '<source> <target>'");
        }
        if (tok.next(extra))
            lines.fail<ParseError>("unexpected text " + detail::printable(extra) +
                                   " after the edge");
        const gindex_t src = read_vertex(lines, u);
        const gindex_t dst = read_vertex(lines, v);
        max_id = std::max({max_id, src, dst});
        if constexpr (weighted) {
            detail::Number x;
            const detail::ScanStatus s = detail::scan_real(w, x);
            if (s != detail::ScanStatus::ok)
                lines.fail<ParseError>("bad weight " + detail::printable(w));
            m.push_back(src, dst, x.as_double());
        } else {
            m.push_back(src, dst);
        }
    }
    m.nrows = m.ncols = max_id + 1;
    return m;
}

}  // namespace

CooMatrix<Pattern, gindex_t> read_edge_list(const std::string& path) {
    return read_edges<Pattern>(path);
}

CooMatrix<double, gindex_t> read_weighted_edge_list(const std::string& path) {
    return read_edges<double>(path);
}

}  // namespace gridblas
