#include "flatten/symbol_substitution.h"

#include <algorithm>
#include <vector>

namespace modeaudit {

SymbolSubstitution::SymbolSubstitution(const GiNaC::exmap& map) {
    reserve(map.size());
    for (auto it = map.begin(); it != map.end(); ++it) note(it);
}

SymbolSubstitution::SymbolSubstitution(std::vector<std::pair<GiNaC::ex, GiNaC::ex>> entries)
    : owned_(std::move(entries)) {
    reserve(owned_.size());
    for (const auto& [key, value] : owned_) add(key, value);
}

void SymbolSubstitution::reserve(std::size_t entries) {
    std::size_t size = 64;
    while (size < 2 * entries) size *= 2;
    slots_.resize(size);
}

bool SymbolSubstitution::symbols_only(const GiNaC::exmap& map) {
    for (const auto& [key, value] : map)
        if (!GiNaC::is_a<GiNaC::symbol>(key)) return false;
    return true;
}

void SymbolSubstitution::insert(const Slot& s) {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t k = s.hash & mask;; k = (k + 1) & mask)
        if (!slots_[k].object) {
            slots_[k] = s;
            return;
        }
}

void SymbolSubstitution::add(const GiNaC::ex& key, const GiNaC::ex& value) {
    if (2 * (used_ + 1) > slots_.size()) {
        std::vector<Slot> old(std::max<std::size_t>(64, 2 * slots_.size()));
        old.swap(slots_);
        for (const Slot& s : old)
            if (s.object) insert(s);
    }
    insert({&GiNaC::ex_to<GiNaC::basic>(key), key.gethash(), &key, &value});
    ++used_;
}

void SymbolSubstitution::note(GiNaC::exmap::const_iterator entry) { add(entry->first, entry->second); }

const SymbolSubstitution::Slot* SymbolSubstitution::find(const GiNaC::ex& symbol) const {
    const unsigned hash = symbol.gethash();
    const GiNaC::basic* key = &GiNaC::ex_to<GiNaC::basic>(symbol);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t k = hash & mask; slots_[k].object; k = (k + 1) & mask) {
        const Slot& s = slots_[k];
        if (s.object == key || (s.hash == hash && s.key->is_equal(symbol))) return &s;
    }
    return nullptr;
}

GiNaC::ex SymbolSubstitution::apply(const GiNaC::ex& e, unsigned options) const {
    if (used_ == 0) return e;
    // The entries for the symbols of e (each looked up once), found by a
    // walk with its own stack: expressions may be deep.
    GiNaC::exmap local;
    std::vector<GiNaC::ex> stack{e};
    while (!stack.empty()) {
        const GiNaC::ex x = stack.back();
        stack.pop_back();
        if (GiNaC::is_a<GiNaC::symbol>(x)) {
            if (local.count(x)) continue;
            if (const Slot* s = find(x)) local.emplace(*s->key, *s->value);
            continue;
        }
        for (std::size_t i = 0; i < x.nops(); ++i) stack.push_back(x.op(i));
    }
    // No entry applies: subs would give e itself.
    if (local.empty()) return e;
    return e.subs(local, options);
}

}  // namespace modeaudit
