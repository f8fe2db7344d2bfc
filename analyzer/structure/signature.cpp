#include "structure/signature.h"

#include <algorithm>

namespace modeaudit {

int SignatureMatrix::sigma(int i, int j) const {
    const auto& row = entries[static_cast<std::size_t>(i)];
    auto it = std::lower_bound(row.begin(), row.end(), j,
                               [](const SignatureEntry& e, int col) { return e.col < col; });
    return it != row.end() && it->col == j ? it->sigma : kNoEntry;
}

SignatureMatrix build_signature(const FlatModel& flat, const Mode& mode) {
    SignatureMatrix s;
    s.rows = static_cast<int>(mode.equations.size());
    s.cols = static_cast<int>(mode.unknowns.size());
    s.col_variable = mode.unknowns;
    std::vector<int> col_of(flat.variables.size(), -1);
    for (std::size_t j = 0; j < mode.unknowns.size(); ++j)
        col_of[static_cast<std::size_t>(mode.unknowns[j])] = static_cast<int>(j);
    s.entries.resize(mode.equations.size());
    s.row_equation.reserve(mode.equations.size());
    // Per row, (column, order) of every occurrence, then sorted and reduced
    // to the highest order per column: one buffer for all rows instead of
    // an ordered map (a node per entry) per row.
    std::vector<std::pair<int, int>> orders;
    for (std::size_t i = 0; i < mode.equations.size(); ++i) {
        s.row_equation.push_back(static_cast<int>(i));
        orders.clear();
        const GiNaC::ex& r = mode.equations[i].residual;
        for (GiNaC::const_preorder_iterator it = r.preorder_begin(); it != r.preorder_end(); ++it) {
            if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
            auto m = flat.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it));
            if (!m) continue;
            int order;
            if (m->role == SymbolTable::Meaning::Role::Variable)
                order = 0;
            else if (m->role == SymbolTable::Meaning::Role::Derivative)
                order = m->order;
            else
                continue;  // time, left limits, condition symbols are not unknowns
            int col = col_of[static_cast<std::size_t>(m->index)];
            if (col < 0) continue;  // parameters kept symbolic, discrete variables, given inputs
            orders.emplace_back(col, order);
        }
        std::sort(orders.begin(), orders.end());
        std::vector<SignatureEntry>& row = s.entries[i];
        for (std::size_t k = 0; k < orders.size(); ++k)
            if (k + 1 == orders.size() || orders[k + 1].first != orders[k].first)  // the last of a column: its highest order
                row.push_back({orders[k].first, orders[k].second});
    }
    return s;
}

}  // namespace modeaudit
