// An index of GiNaC symbols to values of type Value: one flat
// open-addressing table holding each symbol's object pointer and hash (a
// power of two in size, at most half full, linear probing).
//
// A lookup costs one probe of the array in the common case, where the
// symbol asked about is the indexed object itself (expressions share it),
// and compares pointers; another object with the same hash is compared by
// value. Each slot keeps its symbol as an `ex` too, which holds the object
// alive: GiNaC's ex::compare and is_equal make two equal expressions share
// one object and may free the other, so a bare pointer to the object of
// the caller's expression could dangle. The index compares objects
// (basic::is_equal), never its own `ex`, so no sharing moves them. Node-based maps keyed by the symbol or by its name cost several
// cache misses per lookup once a model's worth of symbols no longer fits
// in the cache (the RC ladder: 35 times longer from 9,000 to 90,000
// cells). Used by the symbol table (what each symbol stands for) and by
// the substitution of symbols over a whole model.
#pragma once

#include <ginac/ginac.h>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace modeaudit {

template <class Value>
class SymbolIndex {
public:
    // Room for `entries` without growing.
    void reserve(std::size_t entries) {
        std::size_t size = 64;
        while (size < 2 * entries) size *= 2;
        if (size > slots_.size()) rehash(size);
    }
    // `symbol` (a GiNaC symbol) must not be in the index yet.
    void add(const GiNaC::ex& symbol, const Value& value) {
        if (2 * (used_ + 1) > slots_.size()) rehash(std::max<std::size_t>(64, 2 * slots_.size()));
        place(Slot{&GiNaC::ex_to<GiNaC::basic>(symbol), symbol, symbol.gethash(), value});
        ++used_;
    }
    const Value* find(const GiNaC::basic& symbol) const {
        if (slots_.empty()) return nullptr;
        const unsigned hash = symbol.gethash();
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t k = hash & mask; slots_[k].object; k = (k + 1) & mask) {
            const Slot& s = slots_[k];
            if (s.object == &symbol || (s.hash == hash && s.object->is_equal(symbol))) return &s.value;
        }
        return nullptr;
    }
    const Value* find(const GiNaC::ex& symbol) const { return find(GiNaC::ex_to<GiNaC::basic>(symbol)); }
    std::size_t size() const { return used_; }
    bool empty() const { return used_ == 0; }

private:
    struct Slot {
        const GiNaC::basic* object = nullptr;  // the symbol's object; null: free
        GiNaC::ex holder;                      // keeps `object` alive
        unsigned hash = 0;
        Value value{};
    };
    void place(const Slot& s) {
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t k = s.hash & mask;; k = (k + 1) & mask)
            if (!slots_[k].object) {
                slots_[k] = s;
                return;
            }
    }
    void rehash(std::size_t size) {
        std::vector<Slot> old(size);
        old.swap(slots_);
        for (const Slot& s : old)
            if (s.object) place(s);
    }
    std::vector<Slot> slots_;
    std::size_t used_ = 0;
};

}  // namespace modeaudit
