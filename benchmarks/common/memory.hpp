#pragma once
// Peak resident memory of this process, for the benchmark reports (Linux /proc): the peak
// so far (VmHWM), and a reset of that peak (writing 5 to /proc/self/clear_refs) so that the
// construction's and the searches' peaks can be told apart. Elsewhere both report 0 / false.

#include <cstdint>
#include <fstream>
#include <string>

namespace gridblas::bench {

/// Peak resident set of this process so far, in bytes (0 when unknown).
inline std::uint64_t peak_rss_bytes() {
    std::ifstream f("/proc/self/status");
    std::string key;
    while (f >> key) {
        if (key == "VmHWM:") {
            std::uint64_t kb = 0;
            f >> kb;
            return kb * 1024;
        }
        std::getline(f, key);
    }
    return 0;
}

/// Starts a new peak at the current resident set; false when the system does not allow it.
inline bool reset_peak_rss() {
    std::ofstream f("/proc/self/clear_refs");
    if (!f) return false;
    f << "5";
    f.flush();
    return bool(f);
}

}  // namespace gridblas::bench
