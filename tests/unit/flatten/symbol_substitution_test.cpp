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

TEST(SymbolSubstitution, OnlyMapsOfSymbolsQualify) {
    symbol a("a"), b("b");
    EXPECT_TRUE(SymbolSubstitution::symbols_only({{a, b}}));
    EXPECT_FALSE(SymbolSubstitution::symbols_only({{a, b}, {GiNaC::sin(a), b}}));
}

}  // namespace
}  // namespace modeaudit
