#include "flatten/symbol_substitution.h"

#include <vector>

namespace modeaudit {

SymbolSubstitution::SymbolSubstitution(const GiNaC::exmap& map) {
    index_.reserve(map.size());
    for (auto it = map.begin(); it != map.end(); ++it) note(it);
}

bool SymbolSubstitution::symbols_only(const GiNaC::exmap& map) {
    for (const auto& [key, value] : map)
        if (!GiNaC::is_a<GiNaC::symbol>(key)) return false;
    return true;
}

void SymbolSubstitution::note(GiNaC::exmap::const_iterator entry) { index_.emplace(entry->first.gethash(), entry); }

GiNaC::ex SymbolSubstitution::apply(const GiNaC::ex& e, unsigned options) const {
    if (index_.empty()) return e;
    // The entries for the symbols of e (each looked up once), found by a
    // walk with its own stack: expressions may be deep.
    GiNaC::exmap local;
    std::vector<GiNaC::ex> stack{e};
    while (!stack.empty()) {
        const GiNaC::ex x = stack.back();
        stack.pop_back();
        if (GiNaC::is_a<GiNaC::symbol>(x)) {
            if (local.count(x)) continue;
            auto [from, to] = index_.equal_range(x.gethash());
            for (auto it = from; it != to; ++it)
                if (it->second->first.is_equal(x)) {
                    local.insert(*it->second);
                    break;
                }
            continue;
        }
        for (std::size_t i = 0; i < x.nops(); ++i) stack.push_back(x.op(i));
    }
    // No entry applies: subs would give e itself.
    if (local.empty()) return e;
    return e.subs(local, options);
}

}  // namespace modeaudit
