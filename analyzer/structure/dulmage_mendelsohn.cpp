#include "structure/dulmage_mendelsohn.h"

#include <boost/graph/adjacency_list.hpp>
// Boost 1.74's matching verifier trips GCC 12's -Wmaybe-uninitialized on a
// member it initializes through a visitor (a false positive in the header).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <boost/graph/max_cardinality_matching.hpp>
#include <boost/graph/strong_components.hpp>

#include <algorithm>
#include <deque>
#include <limits>

#include "common/internal_error.h"

namespace modeaudit {

std::size_t DulmageMendelsohn::matching_size() const {
    std::size_t n = 0;
    for (int c : row_match)
        if (c >= 0) ++n;
    return n;
}

namespace {

using Bipartite = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;

// Hopcroft-Karp on the bipartite incidence graph: O(m sqrt(n)), with
// iterative searches so that long chains do not exhaust the stack.
void hopcroft_karp(const SignatureMatrix& s, std::vector<int>& row_match, std::vector<int>& col_match) {
    const auto n = static_cast<std::size_t>(s.rows);
    row_match.assign(n, -1);
    col_match.assign(static_cast<std::size_t>(s.cols), -1);
    const int kInf = std::numeric_limits<int>::max();
    std::vector<int> dist(n);
    std::vector<std::size_t> next_edge(n);
    std::vector<int> stack;
    while (true) {
        // BFS layers from the free rows.
        std::deque<int> q;
        for (std::size_t i = 0; i < n; ++i) {
            dist[i] = row_match[i] < 0 ? 0 : kInf;
            if (row_match[i] < 0) q.push_back(static_cast<int>(i));
        }
        bool found = false;
        while (!q.empty()) {
            int i = q.front();
            q.pop_front();
            for (const SignatureEntry& e : s.entries[static_cast<std::size_t>(i)]) {
                int r = col_match[static_cast<std::size_t>(e.col)];
                if (r < 0) {
                    found = true;
                } else if (dist[static_cast<std::size_t>(r)] == kInf) {
                    dist[static_cast<std::size_t>(r)] = dist[static_cast<std::size_t>(i)] + 1;
                    q.push_back(r);
                }
            }
        }
        if (!found) break;
        // Vertex-disjoint shortest augmenting paths along the layers.
        std::fill(next_edge.begin(), next_edge.end(), 0);
        for (std::size_t root = 0; root < n; ++root) {
            if (row_match[root] >= 0) continue;
            stack.assign(1, static_cast<int>(root));
            while (!stack.empty()) {
                int i = stack.back();
                auto ii = static_cast<std::size_t>(i);
                const auto& row = s.entries[ii];
                bool advanced = false;
                while (next_edge[ii] < row.size()) {
                    int j = row[next_edge[ii]].col;
                    int r = col_match[static_cast<std::size_t>(j)];
                    if (r < 0) {
                        // Augment along the stack: each row takes the column it went through.
                        for (std::size_t k = stack.size(); k-- > 0;) {
                            auto rk = static_cast<std::size_t>(stack[k]);
                            int col = s.entries[rk][next_edge[rk]].col;
                            row_match[rk] = col;
                            col_match[static_cast<std::size_t>(col)] = stack[k];
                        }
                        stack.clear();
                        advanced = true;
                        break;
                    }
                    if (dist[static_cast<std::size_t>(r)] == dist[ii] + 1) {
                        stack.push_back(r);
                        advanced = true;
                        break;
                    }
                    ++next_edge[ii];
                }
                if (!advanced) {
                    dist[ii] = kInf;  // dead end: never visit again in this phase
                    stack.pop_back();
                    if (!stack.empty()) ++next_edge[static_cast<std::size_t>(stack.back())];
                }
            }
        }
    }
}

using Bipartite = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;

// Boost's Edmonds matching, started from a given matching instead of its own
// greedy one: it searches for augmenting paths once more and verifies
// maximality (Berge), so Boost.Graph certifies the Hopcroft-Karp result.
template <typename Graph, typename MateMap>
struct keep_given_matching {
    static void find_matching(const Graph&, MateMap) {}
};

void maximum_matching(const SignatureMatrix& s, std::vector<int>& row_match, std::vector<int>& col_match) {
    hopcroft_karp(s, row_match, col_match);
    const int n = s.rows, m = s.cols;
    if (n + m == 0) return;  // an empty system (the part a discrete-only event touches): nothing to certify
    Bipartite g(static_cast<std::size_t>(n + m));
    for (int i = 0; i < n; ++i)
        for (const SignatureEntry& e : s.entries[static_cast<std::size_t>(i)])
            boost::add_edge(static_cast<std::size_t>(i), static_cast<std::size_t>(n + e.col), g);
    using Vertex = boost::graph_traits<Bipartite>::vertex_descriptor;
    const Vertex null = boost::graph_traits<Bipartite>::null_vertex();
    std::vector<Vertex> mate(static_cast<std::size_t>(n + m), null);
    for (int i = 0; i < n; ++i)
        if (int c = row_match[static_cast<std::size_t>(i)]; c >= 0) {
            mate[static_cast<std::size_t>(i)] = static_cast<Vertex>(n + c);
            mate[static_cast<std::size_t>(n + c)] = static_cast<Vertex>(i);
        }
    bool maximum = boost::matching<Bipartite, Vertex*, boost::property_map<Bipartite, boost::vertex_index_t>::type,
                                   boost::edmonds_augmenting_path_finder, keep_given_matching,
                                   boost::maximum_cardinality_matching_verifier>(g, mate.data(),
                                                                                 boost::get(boost::vertex_index, g));
    MODEAUDIT_ASSERT(maximum, "Boost does not certify the matching as maximum");
#pragma GCC diagnostic pop
    row_match.assign(static_cast<std::size_t>(n), -1);
    col_match.assign(static_cast<std::size_t>(m), -1);
    for (int i = 0; i < n; ++i) {
        Vertex v = mate[static_cast<std::size_t>(i)];
        if (v == null) continue;
        MODEAUDIT_ASSERT(static_cast<int>(v) >= n, "matching joins two equations");
        int col = static_cast<int>(v) - n;
        MODEAUDIT_ASSERT(s.sigma(i, col) != SignatureMatrix::kNoEntry, "matching uses a non-edge");
        MODEAUDIT_ASSERT(col_match[static_cast<std::size_t>(col)] == -1, "matching uses a variable twice");
        row_match[static_cast<std::size_t>(i)] = col;
        col_match[static_cast<std::size_t>(col)] = i;
    }
}

}  // namespace

DulmageMendelsohn dulmage_mendelsohn(const SignatureMatrix& s) {
    DulmageMendelsohn dm;
    maximum_matching(s, dm.row_match, dm.col_match);
    const auto n = static_cast<std::size_t>(s.rows), m = static_cast<std::size_t>(s.cols);
    std::vector<std::vector<int>> col_rows(m);  // transpose
    for (std::size_t i = 0; i < n; ++i)
        for (const SignatureEntry& e : s.entries[i]) col_rows[static_cast<std::size_t>(e.col)].push_back(static_cast<int>(i));

    // Underdetermined: from unmatched columns, column -> any row using it -> that row's matched column.
    std::vector<char> row_u(n, 0), col_u(m, 0);
    std::deque<int> q;
    for (std::size_t j = 0; j < m; ++j)
        if (dm.col_match[j] < 0) {
            col_u[j] = 1;
            q.push_back(static_cast<int>(j));
        }
    while (!q.empty()) {
        int j = q.front();
        q.pop_front();
        for (int i : col_rows[static_cast<std::size_t>(j)]) {
            if (row_u[static_cast<std::size_t>(i)]) continue;
            row_u[static_cast<std::size_t>(i)] = 1;
            int jj = dm.row_match[static_cast<std::size_t>(i)];
            MODEAUDIT_ASSERT(jj >= 0, "an augmenting path remains: the matching is not maximum");
            if (!col_u[static_cast<std::size_t>(jj)]) {
                col_u[static_cast<std::size_t>(jj)] = 1;
                q.push_back(jj);
            }
        }
    }
    // Overdetermined: from unmatched rows, row -> any column it uses -> that column's matched row.
    std::vector<char> row_o(n, 0), col_o(m, 0);
    for (std::size_t i = 0; i < n; ++i)
        if (dm.row_match[i] < 0) {
            row_o[i] = 1;
            q.push_back(static_cast<int>(i));
        }
    while (!q.empty()) {
        int i = q.front();
        q.pop_front();
        for (const SignatureEntry& e : s.entries[static_cast<std::size_t>(i)]) {
            if (col_o[static_cast<std::size_t>(e.col)]) continue;
            col_o[static_cast<std::size_t>(e.col)] = 1;
            int ii = dm.col_match[static_cast<std::size_t>(e.col)];
            MODEAUDIT_ASSERT(ii >= 0, "an augmenting path remains: the matching is not maximum");
            if (!row_o[static_cast<std::size_t>(ii)]) {
                row_o[static_cast<std::size_t>(ii)] = 1;
                q.push_back(ii);
            }
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        MODEAUDIT_ASSERT(!(row_u[i] && row_o[i]), "an equation is both under- and overdetermined");
        (row_u[i] ? dm.under_rows : row_o[i] ? dm.over_rows : dm.well_rows).push_back(static_cast<int>(i));
    }
    for (std::size_t j = 0; j < m; ++j)
        (col_u[j] ? dm.under_cols : col_o[j] ? dm.over_cols : dm.well_cols).push_back(static_cast<int>(j));

    // Block triangular form of the well-determined part: row i depends on
    // row i' when i uses the variable matched to i'. Strong components of
    // that graph are the blocks; Tarjan numbers them so that a component
    // only depends on components with smaller numbers.
    std::vector<int> local(n, -1);
    for (std::size_t k = 0; k < dm.well_rows.size(); ++k) local[static_cast<std::size_t>(dm.well_rows[k])] = static_cast<int>(k);
    using Digraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
    Digraph g(dm.well_rows.size());
    for (std::size_t k = 0; k < dm.well_rows.size(); ++k) {
        int i = dm.well_rows[k];
        for (const SignatureEntry& e : s.entries[static_cast<std::size_t>(i)]) {
            int other = dm.col_match[static_cast<std::size_t>(e.col)];
            if (other < 0 || other == i || local[static_cast<std::size_t>(other)] < 0) continue;
            boost::add_edge(k, static_cast<std::size_t>(local[static_cast<std::size_t>(other)]), g);
        }
    }
    std::vector<int> comp(dm.well_rows.size());
    int ncomp = dm.well_rows.empty() ? 0 : boost::strong_components(g, &comp[0]);
    dm.blocks.assign(static_cast<std::size_t>(ncomp), {});
    for (std::size_t k = 0; k < dm.well_rows.size(); ++k) dm.blocks[static_cast<std::size_t>(comp[k])].push_back(dm.well_rows[k]);
    return dm;
}

}  // namespace modeaudit
