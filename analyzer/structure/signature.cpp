#include "structure/signature.h"

#include <algorithm>
#include <map>

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
    for (std::size_t i = 0; i < mode.equations.size(); ++i) {
        s.row_equation.push_back(static_cast<int>(i));
        std::map<int, int> orders;  // column -> highest derivative order
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
            auto [pos, fresh] = orders.emplace(col, order);
            if (!fresh) pos->second = std::max(pos->second, order);
        }
        for (const auto& [col, order] : orders) s.entries[i].push_back({col, order});
    }
    return s;
}

}  // namespace modeaudit
