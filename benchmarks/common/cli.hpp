#pragma once
// A small command-line parser for the benchmark programs: "--name value" and "--flag"
// options, with errors that name the option; and guarded_main(), the main() of the
// single-process ones (the SuiteSparse baselines).
//
// GCC 12 reports a false overlap (-Wrestrict) in `"literal" + std::string` chains and in
// `string = "literal"` once they are inlined here: messages are appended by message(), and
// a flag stores a constructed string.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <initializer_list>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gridblas::bench {

/// The concatenation of `parts`.
inline std::string message(std::initializer_list<std::string_view> parts) {
    std::string s;
    for (std::string_view p : parts) s.append(p);
    return s;
}

class Cli {
public:
    /// `flags` take no value; every other known option takes one.
    Cli(int argc, char** argv, const std::set<std::string>& options,
        const std::set<std::string>& flags) {
        for (int i = 1; i < argc; ++i) {
            std::string a = argv[i];
            if (a.rfind("--", 0) != 0)
                throw std::invalid_argument(message({"unexpected argument '", a, "'"}));
            std::string name = a.substr(2), value;
            const auto eq = name.find('=');
            if (eq != std::string::npos) {
                value = name.substr(eq + 1);
                name = name.substr(0, eq);
            }
            if (flags.count(name)) {
                if (eq != std::string::npos) {
                    throw std::invalid_argument(message({"option --", name, " takes no value"}));
                }
                values_.insert_or_assign(name, std::string("1"));
            } else if (options.count(name)) {
                if (eq == std::string::npos) {
                    if (i + 1 >= argc)
                        throw std::invalid_argument(message({"option --", name, " needs a value"}));
                    value = argv[++i];
                }
                values_[name] = value;
            } else {
                throw std::invalid_argument(message({"unknown option --", name, " (see --help)"}));
            }
        }
    }

    bool has(const std::string& n) const { return values_.count(n) != 0; }
    std::string str(const std::string& n, const std::string& def) const {
        auto it = values_.find(n);
        return it == values_.end() ? def : it->second;
    }
    std::int64_t integer(const std::string& n, std::int64_t def, std::int64_t lo,
                         std::int64_t hi) const {
        auto it = values_.find(n);
        if (it == values_.end()) return def;
        std::size_t pos = 0;
        std::int64_t v = 0;
        try {
            v = std::stoll(it->second, &pos);
        } catch (const std::exception&) {
            pos = 0;
        }
        if (pos == 0 || pos != it->second.size()) {
            throw std::invalid_argument(
                message({"option --", n, ": '", it->second, "' is not an integer"}));
        }
        if (v < lo || v > hi) {
            throw std::invalid_argument(
                message({"option --", n, ": ", it->second, " is outside [", std::to_string(lo),
                         ", ", std::to_string(hi), "]"}));
        }
        return v;
    }
    double real(const std::string& n, double def) const {
        auto it = values_.find(n);
        if (it == values_.end()) return def;
        std::size_t pos = 0;
        double v = 0;
        try {
            v = std::stod(it->second, &pos);
        } catch (const std::exception&) {
            pos = 0;
        }
        if (pos == 0 || pos != it->second.size()) {
            throw std::invalid_argument(
                message({"option --", n, ": '", it->second, "' is not a number"}));
        }
        return v;
    }

private:
    std::map<std::string, std::string> values_;
};

/// The non-negative integers of a comma-separated list ("3,17,0"), in order, for an option
/// of vertex ids.
/// @throws std::invalid_argument naming `option` and the entry that is not such a number
inline std::vector<std::int64_t> parse_id_list(const std::string& list, const char* option) {
    std::vector<std::int64_t> out;
    std::size_t at = 0;
    while (at <= list.size()) {
        const std::size_t comma = std::min(list.find(',', at), list.size());
        const std::string x = list.substr(at, comma - at);
        char* end = nullptr;
        const long long v = std::strtoll(x.c_str(), &end, 10);
        if (x.empty() || *end != '\0' || v < 0) {
            throw std::invalid_argument(std::string("option ") + option + ": '" + x +
                                        "' is not a vertex id (a non-negative integer)");
        }
        out.push_back(std::int64_t(v));
        at = comma + 1;
    }
    return out;
}

/// The main() of a single-process benchmark program: returns run(argc, argv), or prints
/// "NAME: error: WHAT" on stderr and returns 1 when it throws.
inline int guarded_main(const char* name, int (*run)(int, char**), int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: error: %s\n", name, e.what());
        return 1;
    }
}

}  // namespace gridblas::bench
