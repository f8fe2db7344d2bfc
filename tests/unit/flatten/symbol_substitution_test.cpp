// Unit tests of SymbolSubstitution (flatten/symbol_substitution.h): the
// same expression as GiNaC's subs with the whole map, for sums, products,
// powers, functions and numbers, with entries noted after the index was
// built, and the expression itself when no symbol of the map occurs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "flatten/expression_builder.h"
#include "flatten/flat_model.h"
#include "flatten/symbol_substitution.h"

namespace modeaudit {
namespace {

using GiNaC::ex;
using GiNaC::symbol;

TEST(SymbolSubstitution, GivesWhatSubsWithTheWholeMapGives) {
    std::vector<symbol> x;
    for (int i = 0; i < 40; ++i) x.emplace_back("x" + std::to_string(i));
    GiNaC::exmap map;
    for (int i = 0; i < 40; i += 2) map[x[static_cast<std::size_t>(i)]] = (i % 4 == 0 ? 1 : -1) * ex(x[static_cast<std::size_t>(i + 1)]);
    map[x[5]] = 3 * x[7] + 2;
    const SymbolSubstitution by_symbol(map);
    const std::vector<ex> cases = {
        x[0] - x[1],
        2 * x[2] + 3 * x[4] * x[5] - GiNaC::numeric(1, 3),
        GiNaC::pow(x[6], 2) - x[7] * GiNaC::sin(x[8] + x[9]),
        mode_if(x[10], x[12] + 1, -x[14]),
        GiNaC::exp(-x[16] / (x[18] + x[21])) + GiNaC::sqrt(x[20] * x[20] + 1),
        x[1] + x[3] + x[7],  // no key occurs
        ex(5),
    };
    for (const ex& e : cases) {
        EXPECT_TRUE(by_symbol.apply(e, kExactSubs).is_equal(e.subs(map, kExactSubs))) << e;
        EXPECT_TRUE(by_symbol.apply(e, 0).is_equal(e.subs(map))) << e;
    }
    const ex untouched = x[1] * x[3] + x[7];
    EXPECT_TRUE(GiNaC::are_ex_trivially_equal(by_symbol.apply(untouched, kExactSubs), untouched));
}

TEST(SymbolSubstitution, EntriesNotedLaterAreUsed) {
    symbol a("a"), b("b"), c("c");
    GiNaC::exmap map;
    SymbolSubstitution by_symbol(map);
    EXPECT_TRUE(by_symbol.apply(a + b, kExactSubs).is_equal(a + b));
    auto [entry, fresh] = map.insert_or_assign(a, ex(c));
    ASSERT_TRUE(fresh);
    by_symbol.note(entry);
    EXPECT_TRUE(by_symbol.apply(a + b, kExactSubs).is_equal(c + b));
    entry->second = 2 * c;  // a value changed in the map is seen
    EXPECT_TRUE(by_symbol.apply(a + b, kExactSubs).is_equal(2 * c + b));
}

TEST(SymbolSubstitution, OwnedEntriesGiveWhatTheMapGives) {
    // Many entries, so that the index grows, probes collide and wraps.
    std::vector<symbol> x;
    for (int i = 0; i < 3000; ++i) x.emplace_back("y" + std::to_string(i));
    GiNaC::exmap map;
    std::vector<std::pair<ex, ex>> entries;
    for (std::size_t i = 0; i + 1 < x.size(); i += 3) {
        const ex value = (i % 2 ? -1 : 1) * ex(x[i + 1]) + static_cast<int>(i % 5);
        map[x[i]] = value;
        entries.emplace_back(x[i], value);
    }
    // An equal symbol reached through a different object is found too.
    const symbol copy = x[3];
    const SymbolSubstitution owned(std::move(entries));
    EXPECT_FALSE(owned.empty());
    ex sum = 0;
    for (std::size_t i = 0; i < x.size(); i += 7) sum += GiNaC::pow(x[i], 2) - x[(i * 13) % x.size()];
    for (const ex& e : {sum, ex(copy) * x[2] + GiNaC::cos(x[9]), ex(x[1] + x[2])})
        EXPECT_TRUE(owned.apply(e, kExactSubs).is_equal(e.subs(map, kExactSubs))) << e;
    EXPECT_TRUE(SymbolSubstitution(std::vector<std::pair<ex, ex>>{}).empty());
}

TEST(SymbolSubstitution, OnlyMapsOfSymbolsQualify) {
    symbol a("a"), b("b");
    EXPECT_TRUE(SymbolSubstitution::symbols_only({{a, b}}));
    EXPECT_FALSE(SymbolSubstitution::symbols_only({{a, b}, {GiNaC::sin(a), b}}));
}

}  // namespace
}  // namespace modeaudit
