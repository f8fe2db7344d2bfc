// Rule flatten-unbalanced-if: an if-equation whose condition is not a
// parameter expression must have an else branch and the same number of
// equations in every branch (Modelica 3.6 section 8.3.4), or some mode has
// more equations than another over the same unknowns.
#include <fmt/format.h>

#include "rule_checks.h"

namespace modeaudit {

void check_flatten_unbalanced_if(const FlatModel& flat, DiagnosticSink& sink) {
    for (const FlatModel::IfEquationShape& s : flat.if_equations) {
        bool equal = true;
        for (std::size_t n : s.branch_sizes)
            if (n != s.branch_sizes.front()) equal = false;
        if (!s.has_else) {
            std::size_t n = s.branch_sizes.empty() ? 0 : s.branch_sizes.front();
            if (n == 0 && equal) continue;  // empty branches and no else: nothing is selected
            sink.report(rule::flatten_unbalanced_if, s.range,
                        fmt::format("this if-equation has a condition that changes during simulation but no else "
                                    "branch: when no branch holds, {} equation{} disappear{}; add an else branch "
                                    "with as many equations",
                                    n, n == 1 ? "" : "s", n == 1 ? "s" : ""));
            continue;
        }
        if (equal) continue;
        std::vector<std::string> notes;
        for (std::size_t i = 0; i < s.branch_sizes.size(); ++i)
            notes.push_back(fmt::format("branch at line {} has {} equation{}", s.branch_ranges[i].begin.line,
                                        s.branch_sizes[i], s.branch_sizes[i] == 1 ? "" : "s"));
        sink.report(rule::flatten_unbalanced_if, s.range,
                    "the branches of this if-equation hold different numbers of equations; each branch of an "
                    "if-equation whose condition is not a parameter must have the same number",
                    notes);
    }
}

}  // namespace modeaudit
