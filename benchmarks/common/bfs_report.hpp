#pragma once
// The per-search records and the report pieces of gridblas-bfs: the per-level table, the
// Graph500 statistics blocks, the comparison of parent modes, and their JSON forms.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "common/graph500_stats.hpp"
#include "gridblas/algorithms/bfs.hpp"
#include "gridblas/comm/communicator.hpp"

namespace gridblas::bench {

/// One timed search.
struct Search {
    gindex_t root;
    double seconds;
    double edges;  // undirected edges (or arcs) in the traversed component
    gindex_t reached;
    int depth;
    std::vector<BfsLevelStats> levels;
};

/// The per-level table of the first search; each level's time is the mean (time_ms) and the
/// median (median_ms) over the searches from the same root with the same levels (--root R
/// --roots N), which only differ in time. The median is the steadier figure on a machine
/// whose stalls hit a search now and then.
inline void print_levels(const std::vector<Search>& runs) {
    const Search& first = runs.front();
    std::printf("%5s %4s %12s %12s %14s %14s %10s %12s %12s %10s %10s %10s\n", "level", "dir",
                "frontier", "discovered", "edges", "edges_max_rank", "messages", "bytes_wire",
                "bytes_raw", "time_ms", "comm_ms", "median_ms");
    std::vector<double> times;
    for (std::size_t k = 0; k < first.levels.size(); ++k) {
        const BfsLevelStats& l = first.levels[k];
        double sec = 0, comm = 0;
        times.clear();
        for (const Search& s : runs) {
            if (s.root != first.root || s.levels.size() != first.levels.size()) continue;
            sec += s.levels[k].seconds;
            comm += s.levels[k].comm_seconds;
            times.push_back(s.levels[k].seconds);
        }
        const std::size_t same = times.size();  // at least the first search
        std::sort(times.begin(), times.end());
        const double median =
            same % 2 == 1 ? times[same / 2] : (times[same / 2 - 1] + times[same / 2]) / 2;
        std::printf(
            "%5d %4s %12lld %12lld %14llu %14llu %10llu %12llu %12llu %10.3f %10.3f "
            "%10.3f\n",
            l.level, l.bottom_up ? "BU" : "TD", (long long)l.frontier, (long long)l.discovered,
            (unsigned long long)l.edges_examined, (unsigned long long)l.edges_examined_max_rank,
            (unsigned long long)l.messages, (unsigned long long)l.bytes_wire,
            (unsigned long long)l.bytes_raw, sec / double(same) * 1e3, comm / double(same) * 1e3,
            median * 1e3);
    }
}

inline std::string levels_json(const std::vector<BfsLevelStats>& levels) {
    std::ostringstream o;
    o << '[';
    for (std::size_t k = 0; k < levels.size(); ++k) {
        const auto& l = levels[k];
        o << (k ? "," : "") << "{\"level\":" << l.level << ",\"direction\":\""
          << (l.bottom_up ? "bottomup" : "topdown") << "\",\"frontier\":" << l.frontier
          << ",\"discovered\":" << l.discovered << ",\"edges_examined\":" << l.edges_examined
          << ",\"edges_examined_max_rank\":" << l.edges_examined_max_rank
          << ",\"messages\":" << l.messages << ",\"bytes_wire\":" << l.bytes_wire
          << ",\"bytes_raw\":" << l.bytes_raw << ",\"seconds\":" << l.seconds
          << ",\"comm_seconds\":" << l.comm_seconds << '}';
    }
    o << ']';
    return o.str();
}

inline void print_block(const char* name, const Summary& s, bool rate) {
    std::printf(
        "min_%s: %.6g\nfirstquartile_%s: %.6g\nmedian_%s: %.6g\nthirdquartile_%s: %.6g\n"
        "max_%s: %.6g\n",
        name, s.min, name, s.firstquartile, name, s.median, name, s.thirdquartile, name, s.max);
    std::printf("mean_%s: %.6g\nstddev_%s: %.6g\n", name, s.mean, name, s.stddev);
    if (rate) {
        std::printf("harmonic_mean_%s: %.6g\nharmonic_stddev_%s: %.6g\n", name, s.harmonic_mean,
                    name, s.harmonic_stddev);
    }
}

inline std::string summary_json(const Summary& s) {
    std::ostringstream o;
    o << "{\"min\":" << s.min << ",\"firstquartile\":" << s.firstquartile
      << ",\"median\":" << s.median << ",\"thirdquartile\":" << s.thirdquartile
      << ",\"max\":" << s.max << ",\"mean\":" << s.mean << ",\"stddev\":" << s.stddev
      << ",\"harmonic_mean\":" << s.harmonic_mean << ",\"harmonic_stddev\":" << s.harmonic_stddev
      << '}';
    return o.str();
}

inline std::string counters_json(const comm::Communicator& c) {
    std::ostringstream o;
    o << '{';
    bool first = true;
    for (const auto& [site, k] : c.counters()) {
        o << (first ? "" : ",") << '"' << site << "\":{\"calls\":" << k.calls
          << ",\"messages\":" << k.messages << ",\"bytes_wire\":" << k.bytes_wire
          << ",\"bytes_raw\":" << k.bytes_raw << ",\"seconds\":" << k.seconds << '}';
        first = false;
    }
    o << '}';
    return o.str();
}

/// The timed searches of one parent mode.
struct ModeSearches {
    ParentMode mode = ParentMode::min;
    std::vector<Search> runs;
    std::vector<double> wire_bytes;  // per search: bytes all ranks sent, as encoded
    std::uint64_t failures = 0;      // searches that did not validate
};

/// The timed searches (after one untimed warm-up per mode), each validated unless
/// --no-validate; with several parent modes, each key is searched in every mode.
struct Searches {
    std::vector<ModeSearches> modes;  // in the order of --parents
    /// Vertices whose level differs from the first mode's, plus those whose parent differs
    /// between modes `min` and `after` (the same tree by definition), summed over the keys.
    std::uint64_t disagreements = 0;
    bool parents_compared = false;  // both min and after ran
    double download_seconds = 0;    // summed over the timed searches (single-GPU engine only)
    BfsResult last;                 // the last search's result (--output; one mode)

    std::uint64_t failures() const {
        std::uint64_t f = disagreements ? 1 : 0;
        for (const ModeSearches& m : modes) f += m.failures;
        return f;
    }
};

/// Vertices of this rank where `b` disagrees with `a`: in parent when `parents`, else in level.
inline std::uint64_t count_disagreements(const BfsResult& a, const BfsResult& b, bool parents) {
    const std::vector<gindex_t>& x = parents ? a.parent : a.level;
    const std::vector<gindex_t>& y = parents ? b.parent : b.level;
    std::uint64_t d = 0;
    for (std::size_t k = 0; k < x.size(); ++k) d += x[k] != y[k];
    return d;
}

/// Time and TEPS statistics of the searches.
struct Statistics {
    Summary time, teps, nedge;
};

inline Statistics statistics(const std::vector<Search>& runs) {
    std::vector<double> times, teps, edges;
    for (const auto& s : runs) {
        times.push_back(s.seconds);
        teps.push_back(s.edges / s.seconds);
        edges.push_back(s.edges);
    }
    return {summarize(times), summarize(teps), summarize(edges)};
}

/// Each mode's time per search over the first mode's, key by key.
inline Summary key_ratios(const ModeSearches& m, const ModeSearches& first) {
    std::vector<double> r;
    for (std::size_t k = 0; k < m.runs.size(); ++k)
        r.push_back(m.runs[k].seconds / first.runs[k].seconds);
    return summarize(r);
}

inline double mean_of(const std::vector<double>& x) {
    double s = 0;
    for (double v : x) s += v;
    return x.empty() ? 0.0 : s / double(x.size());
}

/// With several parent modes: one line per mode, against the first (rank 0).
inline void print_mode_comparison(const Searches& s, const std::vector<Statistics>& st) {
    std::printf("parent modes, each key searched in every mode in turn (ratios: to %s):\n",
                to_string(s.modes[0].mode).c_str());
    std::printf("%-8s %13s %15s %17s %13s %13s %18s\n", "parents", "mean_time_ms", "ratio_of_means",
                "median_key_ratio", "q1_key_ratio", "q3_key_ratio", "wire_bytes_mean");
    for (std::size_t m = 0; m < s.modes.size(); ++m) {
        const Summary r = key_ratios(s.modes[m], s.modes[0]);
        std::printf("%-8s %13.4f %15.4f %17.4f %13.4f %13.4f %18.0f\n",
                    to_string(s.modes[m].mode).c_str(), st[m].time.mean * 1e3,
                    st[m].time.mean / st[0].time.mean, r.median, r.firstquartile, r.thirdquartile,
                    mean_of(s.modes[m].wire_bytes));
    }
    if (s.disagreements) {
        std::printf("parent_modes_agree: no, %llu vertex results differ\n",
                    (unsigned long long)s.disagreements);
    } else {
        std::printf("parent_modes_agree: yes (levels%s)\n",
                    s.parents_compared ? "; parents of min and after" : "");
    }
}

}  // namespace gridblas::bench
