#include "flatten/symbol_substitution.h"

#include <vector>

namespace modeaudit {

SymbolSubstitution::SymbolSubstitution(const GiNaC::exmap& map) {
    index_.reserve(map.size());
    for (auto it = map.begin(); it != map.end(); ++it) note(it);
}

SymbolSubstitution::SymbolSubstitution(std::vector<std::pair<GiNaC::ex, GiNaC::ex>> entries)
    : owned_(std::move(entries)) {
    index_.reserve(owned_.size());
    for (const auto& [key, value] : owned_) index_.add(key, Entry{&key, &value});
}

bool SymbolSubstitution::symbols_only(const GiNaC::exmap& map) {
    for (const auto& [key, value] : map)
        if (!GiNaC::is_a<GiNaC::symbol>(key)) return false;
    return true;
}

void SymbolSubstitution::note(GiNaC::exmap::const_iterator entry) {
    index_.add(entry->first, Entry{&entry->first, &entry->second});
}

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
            if (const Entry* found = index_.find(x)) local.emplace(*found->key, *found->value);
            continue;
        }
        for (std::size_t i = 0; i < x.nops(); ++i) stack.push_back(x.op(i));
    }
    // No entry applies: subs would give e itself.
    if (local.empty()) return e;
    return e.subs(local, options);
}

}  // namespace modeaudit
