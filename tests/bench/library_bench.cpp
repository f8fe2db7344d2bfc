// Benchmark: lazy library loading. Generates a library of n packages (each
// a directory with package.mo and ten model files, plus a file of
// constants) and audits one example of it by class name (parse + flatten +
// modes), at n and 10n packages. Loading is lazy, so the time must not grow
// with the library: fails (exit 1) when t(10n)/t(n) exceeds 3. Reports the
// times, the ratio, and the files read. Not a timed test: ctest label bench.
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "pipeline/pipeline.h"

namespace {

namespace fs = std::filesystem;

void write_file(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
}

// Gen/P<k>/M<j>.mo: a resistor-like one-port; Gen/Examples/Ex.mo uses three
// packages, the first and the last among them.
void generate(const fs::path& root, int n) {
    write_file(root / "Gen/package.mo", "within;\npackage Gen\n  import SI = Gen.Units;\nend Gen;\n");
    write_file(root / "Gen/Units.mo", "within Gen;\npackage Units\n  type Voltage = Real(unit = \"V\");\nend Units;\n");
    write_file(root / "Gen/Constants.mo", "within Gen;\npackage Constants\n  constant Real pi = 2*asin(1.0);\nend Constants;\n");
    write_file(root / "Gen/Pin.mo", "within Gen;\nconnector Pin\n  SI.Voltage v;\n  flow Real i;\nend Pin;\n");
    for (int k = 0; k < n; ++k) {
        std::string pk = fmt::format("P{}", k);
        write_file(root / "Gen" / pk / "package.mo", fmt::format("within Gen;\npackage {}\n  constant Real c = {};\nend {};\n", pk, k + 1, pk));
        for (int j = 0; j < 10; ++j)
            write_file(root / "Gen" / pk / fmt::format("M{}.mo", j),
                       fmt::format("within Gen.{};\nmodel M{}\n  parameter Real R = c + {};\n  Gen.Pin p;\n  Real y;\n"
                                   "equation\n  y = R*time;\n  p.v = y;\nend M{};\n",
                                   pk, j, j, j));
    }
    write_file(root / "Gen/Examples/package.mo", "within Gen;\npackage Examples\nend Examples;\n");
    write_file(root / "Gen/Examples/Ex.mo",
               fmt::format("within Gen.Examples;\nmodel Ex\n  Gen.P0.M1 a;\n  Gen.P{}.M9 b;\n  Gen.P{}.M5 c;\n"
                           "  Real x(start = 1, fixed = true);\nequation\n"
                           "  der(x) = -x + sin(Gen.Constants.pi*time)*a.y + b.y - c.y;\nend Ex;\n",
                           n - 1, n / 2));
}

double run_once(const fs::path& root, std::size_t& files) {
    using namespace modeaudit;
    auto t0 = std::chrono::steady_clock::now();
    PipelineState state;
    RunOptions options;
    options.flatten.model_name = "Gen.Examples.Ex";
    std::vector<std::string> problems;
    options.libraries = library::make_library_path({root.string()}, nullptr, problems);
    PipelineResult r = run_pipeline(state, options, "modes");
    auto t1 = std::chrono::steady_clock::now();
    if (r.last_stage != "modes" || state.sink.has_errors()) {
        for (const Diagnostic& d : state.sink.all()) fmt::print(stderr, "{}", format_diagnostic(d, state.sources));
        std::exit(2);
    }
    files = state.loader->files_read();
    return std::chrono::duration<double>(t1 - t0).count();
}

double median_time(int n, int repeats, std::size_t& files) {
    std::string templ = (fs::temp_directory_path() / "modeaudit-libbench-XXXXXX").string();
    fs::path root = mkdtemp(templ.data());
    generate(root, n);
    std::vector<double> t;
    for (int i = 0; i < repeats; ++i) {
        int fds[2];
        if (pipe(fds) != 0) std::exit(2);
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            std::size_t f = 0;
            double secs = run_once(root, f);
            double msg[2] = {secs, static_cast<double>(f)};
            if (write(fds[1], msg, sizeof msg) != sizeof msg) _exit(2);
            _exit(0);
        }
        close(fds[1]);
        double msg[2] = {0, 0};
        ssize_t got = read(fds[0], msg, sizeof msg);
        close(fds[0]);
        int status = 0;
        waitpid(pid, &status, 0);
        if (got != sizeof msg || !WIFEXITED(status) || WEXITSTATUS(status) != 0) std::exit(2);
        t.push_back(msg[0]);
        files = static_cast<std::size_t>(msg[1]);
    }
    std::error_code ec;
    fs::remove_all(root, ec);
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    int n = argc > 1 ? std::atoi(argv[1]) : 100;
    double bound = 3;
    std::size_t files_small = 0, files_big = 0;
    double small = median_time(n, 3, files_small);
    double big = median_time(10 * n, 3, files_big);
    double ratio = big / small;
    fmt::print("lazy library loading (one example by class name; parse + flatten + modes):\n");
    fmt::print("  {:6} packages ({:6} files): {:8.4f} s, {} files read\n", n, 11 * n + 6, small, files_small);
    fmt::print("  {:6} packages ({:6} files): {:8.4f} s, {} files read\n", 10 * n, 110 * n + 6, big, files_big);
    fmt::print("  ratio t(10n)/t(n) = {:.2f} (bound {}), growth exponent {:.2f}\n", ratio, bound, std::log10(ratio));
    return ratio <= bound && files_small == files_big ? 0 : 1;
}
