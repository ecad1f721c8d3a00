#pragma once
// Command-line names of the mxm kernel and of triangle counting's degree renumbering, shared
// by gridblas-graph and gridblas-mxm-bench.

#include <stdexcept>
#include <string>

#include "gridblas/algorithms/triangle_count.hpp"
#include "gridblas/ops/descriptor.hpp"

namespace gridblas::bench {

/// "auto" | "gustavson" | "hash" | "dot"; std::invalid_argument naming --method otherwise.
inline MxmMethod parse_mxm_method(const std::string& s) {
    if (s == "auto") return MxmMethod::automatic;
    if (s == "gustavson") return MxmMethod::gustavson;
    if (s == "hash") return MxmMethod::hash;
    if (s == "dot") return MxmMethod::dot;
    throw std::invalid_argument("option --method: '" + s +
                                "' (expected auto, gustavson, hash or dot)");
}

inline const char* mxm_method_name(MxmMethod m) {
    switch (m) {
        case MxmMethod::gustavson:
            return "gustavson";
        case MxmMethod::hash:
            return "hash";
        case MxmMethod::dot:
            return "dot";
        default:
            return "auto";
    }
}

/// "auto" | "always" | "never"; std::invalid_argument naming --presort otherwise.
inline DegreeSort parse_degree_sort(const std::string& s) {
    if (s == "auto") return DegreeSort::automatic;
    if (s == "always") return DegreeSort::always;
    if (s == "never") return DegreeSort::never;
    throw std::invalid_argument("option --presort: '" + s + "' (expected auto, always or never)");
}

}  // namespace gridblas::bench
