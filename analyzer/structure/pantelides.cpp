// Pantelides' algorithm on a signature matrix (structure stage; paper notes
// sections 1.2-1.7). It sits beside the Sigma-method (sigma_method.cpp) as an
// independent second route to the differentiation counts: it uses no
// assignment problem and no offset fixed point, only augmenting paths over
// "highest-derivative" incidences, so agreement of the two is a meaningful
// differential test of both.
//
// The variant is the generalised one for higher-order systems (Pantelides
// 1988, in the form ModelingToolkit's structural transformation uses): each
// equation i carries a differentiation count k_i, each variable j the order
// h_j of its highest derivative in the current system. Equation i
// differentiated k_i times contains x_j^(sigma_ij + k_i); it is incident to
// the highest derivative of x_j iff sigma_ij + k_i == h_j. The matching is
// over those incidences only; a failed augmenting-path search from i marks a
// structurally singular subset (more colored equations than colored
// variables), which is then differentiated as a whole.
//
// Why the result equals the Sigma-method's canonical offsets for every
// structurally well-posed system (so any disagreement is a bug in one of the
// two): the invariants k <= c* and h <= d* (c*, d* the smallest offsets) hold
// throughout. In a failed search from i, let E0 be the colored equations with
// k_e = c*_e. Their c*-tight neighbours are all colored with h_j = d*_j; such
// a variable is matched into E0 and was discovered from an equation of E0.
// Hall's theorem on the c*-tight graph then forces a bijection between E0
// and those variables, and walking back the discovery chain from any member
// of E0 reaches i, which is unmatched: contradiction unless E0 is empty. So
// every differentiation stays within c*, the loop terminates, and at the end
// (k, h) are valid offsets tight on a perfect matching, hence k >= c*, i.e.
// k = c* and h = d*.
#include "structure/pantelides.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <utility>

namespace modeaudit {
namespace {

// Plain maximum bipartite matching (Hopcroft-Karp) on the full incidence
// graph, ignoring derivative orders. A perfect matching exists iff some
// transversal of Sigma is finite, i.e. iff the system is structurally
// well-posed. Checking this first is what keeps Pantelides from looping on
// singular systems: without it, a singular subset would be differentiated
// forever. The DFS is iterative because a chain of 10^5 equations gives
// alternating paths of that length.
bool has_perfect_matching(const SignatureMatrix& s) {
    const int n = s.rows;
    constexpr int kFree = -1;
    constexpr int kInf = INT_MAX;
    std::vector<int> row_match(n, kFree), col_match(n, kFree), dist(n);
    std::vector<std::size_t> next_entry(n);

    // Greedy start: most rows of real models match at once, which leaves
    // Hopcroft-Karp only the few contested ones.
    int matched = 0;
    for (int i = 0; i < n; ++i) {
        for (const SignatureEntry& e : s.entries[i]) {
            if (col_match[e.col] == kFree) {
                row_match[i] = e.col;
                col_match[e.col] = i;
                ++matched;
                break;
            }
        }
    }

    std::vector<int> queue;
    std::vector<int> stack;
    while (matched < n) {
        // BFS layers from all free rows over alternating paths.
        queue.clear();
        for (int i = 0; i < n; ++i) {
            if (row_match[i] == kFree) {
                dist[i] = 0;
                queue.push_back(i);
            } else {
                dist[i] = kInf;
            }
        }
        bool reachable_free_col = false;
        for (std::size_t q = 0; q < queue.size(); ++q) {
            const int i = queue[q];
            for (const SignatureEntry& e : s.entries[i]) {
                const int r = col_match[e.col];
                if (r == kFree) {
                    reachable_free_col = true;
                } else if (dist[r] == kInf) {
                    dist[r] = dist[i] + 1;
                    queue.push_back(r);
                }
            }
        }
        if (!reachable_free_col) return false;  // maximum matching is not perfect

        // Layered DFS from every free row, explicit stack of rows; the
        // column taken out of row stack[t] is entries[stack[t]][next_entry - 1].
        std::fill(next_entry.begin(), next_entry.end(), 0);
        int augmented = 0;
        for (int root = 0; root < n; ++root) {
            if (row_match[root] != kFree) continue;
            stack.assign(1, root);
            while (!stack.empty()) {
                const int i = stack.back();
                const auto& row = s.entries[i];
                if (next_entry[i] == row.size()) {
                    dist[i] = kInf;  // dead end: never enter this row again in this phase
                    stack.pop_back();
                    continue;
                }
                const int c = row[next_entry[i]++].col;
                const int r = col_match[c];
                if (r == kFree) {
                    // Flip the path: every row on the stack takes the column
                    // it last advanced over.
                    for (int t : stack) {
                        const int col = s.entries[t][next_entry[t] - 1].col;
                        row_match[t] = col;
                        col_match[col] = t;
                    }
                    ++augmented;
                    break;
                }
                if (dist[r] == dist[i] + 1) stack.push_back(r);
            }
        }
        if (augmented == 0) return false;
        matched += augmented;
    }
    return true;
}

int64_t saturating_mul(int64_t a, int64_t b) {
    if (a != 0 && b > INT64_MAX / a) return INT64_MAX;
    return a * b;
}

}  // namespace

PantelidesResult pantelides(const SignatureMatrix& s) {
    PantelidesResult res;
    const int n = s.rows;
    // Pantelides needs a square system; a malformed matrix is reported like a
    // singular one rather than read out of bounds.
    if (n < 0 || s.rows != s.cols || static_cast<int>(s.entries.size()) != n) return res;
    int max_sigma = 0;
    for (const auto& row : s.entries) {
        for (const SignatureEntry& e : row) {
            if (e.col < 0 || e.col >= n || e.sigma < 0) return res;
            max_sigma = std::max(max_sigma, e.sigma);
        }
    }
    if (!has_perfect_matching(s)) return res;

    std::vector<int> k(n, 0);
    std::vector<int> h(n, 0);
    for (const auto& row : s.entries) {
        for (const SignatureEntry& e : row) h[e.col] = std::max(h[e.col], e.sigma);
    }

    // Safety net only. By the argument in the header comment the total never
    // exceeds sum c* <= n (n-1) max_sigma (a canonical c_i is a longest path
    // of at most n-1 steps of at most max_sigma each). A tighter bound such as
    // n (max_sigma + n + 1) would be wrong: the chain x1^(s) = x2, ...,
    // x_{n-1}^(s) = x_n, x1 = g(t) needs s n (n-1) / 2 differentiations.
    const int64_t limit =
        saturating_mul(n, saturating_mul(n, static_cast<int64_t>(max_sigma) + 1)) + n;
    int64_t total = 0;

    constexpr int kFree = -1;
    std::vector<int> var_match(n, kFree);  // variable -> equation (highest derivative)
    // Colors are search stamps: a new search only bumps the stamp, so
    // resetting costs nothing even for 10^5 searches.
    std::vector<unsigned> eq_color(n, 0), var_color(n, 0);
    unsigned stamp = 0;
    std::vector<int> colored_eqs, colored_vars;

    // Search tree: for an equation reached in the current search, the
    // variable it was reached through and the equation that variable was
    // discovered from. The colored equations double as the BFS queue.
    std::vector<int> via_var(n, kFree), from_eq(n, kFree);

    auto highest = [&](int eq, const SignatureEntry& e) { return e.sigma + k[eq] == h[e.col]; };

    // Pantelides' AUGMENTPATH, run breadth-first instead of depth-first.
    // A failed search colors the same set either way (every equation and
    // highest variable reachable by alternating paths from the root), and
    // that set is all the algorithm uses; the final matching is not part of
    // the result, so (k, h) are the same. Breadth-first matters for speed: a
    // DFS in column order walks a chain of coupled pendulum constraints back
    // to its start before trying the free multiplier next door, which is
    // quadratic in the chain length; BFS finds the short path. A queue also
    // needs no recursion, so 10^5-long alternating paths are safe. As in the
    // 1988 procedure, every equation first looks for a free highest
    // variable among all its incidences.
    auto augment_from = [&](int root) -> bool {
        if (++stamp == 0) {  // wrapped: old stamps would alias the new one
            std::fill(eq_color.begin(), eq_color.end(), 0u);
            std::fill(var_color.begin(), var_color.end(), 0u);
            stamp = 1;
        }
        colored_eqs.clear();
        colored_vars.clear();
        auto enter = [&](int eq) -> int {  // colors eq; returns a free variable or kFree
            eq_color[eq] = stamp;
            colored_eqs.push_back(eq);
            for (const SignatureEntry& e : s.entries[eq]) {
                if (highest(eq, e) && var_match[e.col] == kFree) return e.col;
            }
            return kFree;
        };
        // Flip the path root -> ... -> last -> free_var: every equation on
        // it takes the variable that follows it on the path.
        auto flip = [&](int last, int free_var) {
            int eq = last, var = free_var;
            while (true) {
                const int prev_var = via_var[eq], prev_eq = from_eq[eq];
                var_match[var] = eq;
                if (eq == root) return;
                var = prev_var;
                eq = prev_eq;
            }
        };
        if (int v = enter(root); v != kFree) {
            flip(root, v);
            return true;
        }
        for (std::size_t head = 0; head < colored_eqs.size(); ++head) {
            const int eq = colored_eqs[head];
            for (const SignatureEntry& e : s.entries[eq]) {
                if (!highest(eq, e) || var_color[e.col] == stamp) continue;
                var_color[e.col] = stamp;
                colored_vars.push_back(e.col);
                // Not free (enter(eq) found none, and nothing changed since),
                // so matched; its equation is uncolored, because an equation
                // is the match of at most one variable and the root of none.
                const int next = var_match[e.col];
                if (eq_color[next] == stamp) continue;
                via_var[next] = e.col;
                from_eq[next] = eq;
                if (int v = enter(next); v != kFree) {
                    flip(next, v);
                    return true;
                }
            }
        }
        return false;
    };
    for (int i = 0; i < n; ++i) {
        while (!augment_from(i)) {
            // The colored equations outnumber the colored variables by one
            // and contain no other highest derivative: a structurally
            // singular subset. Differentiate all of them; their highest
            // incidences are exactly the colored variables, whose derivatives
            // become the new highest ones. Matched pairs among them stay
            // tight (both sides grow by one), so the matching is kept.
            // Past the limit, or near int overflow, something is wrong with
            // the input or with this code: report failure, never loop.
            total += static_cast<int64_t>(colored_eqs.size());
            if (total > limit) return res;
            for (int eq : colored_eqs) {
                if (k[eq] >= INT_MAX - max_sigma - 1) return res;  // sigma + k must fit
                ++k[eq];
            }
            for (int var : colored_vars) {
                if (h[var] >= INT_MAX - 1) return res;
                ++h[var];
            }
        }
    }

    res.ok = true;
    int max_k = 0;
    bool some_algebraic = false;
    for (int v : k) max_k = std::max(max_k, v);
    for (int v : h) some_algebraic = some_algebraic || v == 0;
    res.index = max_k + (some_algebraic ? 1 : 0);
    res.differentiations = std::move(k);
    res.highest_order = std::move(h);
    return res;
}

}  // namespace modeaudit
