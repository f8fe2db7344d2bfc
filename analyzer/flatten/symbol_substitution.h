// Substitution of symbols by expressions, over many expressions with one
// large map (alias elimination, the equal quantities of the modes stage).
//
// GiNaC's subs looks every symbol of an expression up in the whole map, a
// search down an ordered tree of all its keys (a cache miss per level when
// the map holds a model's worth of variables), so substituting in n
// equations costs n log n misses. Here each symbol is looked up once in a
// hash index of the map, and GiNaC substitutes with only the entries
// found. The result is the same expression: the keys are symbols, and a
// symbol key can only replace that very symbol where it occurs.
// The index is flatten/symbol_index.h's.
#pragma once

#include <ginac/ginac.h>

#include <utility>
#include <vector>

#include "flatten/symbol_index.h"

namespace modeaudit {

class SymbolSubstitution {
public:
    // `map` must outlive this. Its keys must all be symbols (symbols_only()
    // tells); an entry the caller adds to it later is added here by note(),
    // and a value the caller changes in it is the value used.
    explicit SymbolSubstitution(const GiNaC::exmap& map);
    // Owns its entries, given as (symbol, value) pairs with distinct
    // symbols: no ordered map of them is built (alias elimination has one
    // per alias, a million on a large model).
    explicit SymbolSubstitution(std::vector<std::pair<GiNaC::ex, GiNaC::ex>> entries);
    SymbolSubstitution(const SymbolSubstitution&) = delete;
    SymbolSubstitution& operator=(const SymbolSubstitution&) = delete;
    static bool symbols_only(const GiNaC::exmap& map);
    void note(GiNaC::exmap::const_iterator entry);
    bool empty() const { return index_.empty(); }
    // e.subs(map, options), by the entries of the map whose symbols occur in e.
    GiNaC::ex apply(const GiNaC::ex& e, unsigned options) const;

private:
    struct Entry {
        const GiNaC::ex* key = nullptr;
        const GiNaC::ex* value = nullptr;
    };
    SymbolIndex<Entry> index_;
    std::vector<std::pair<GiNaC::ex, GiNaC::ex>> owned_;
};

}  // namespace modeaudit
