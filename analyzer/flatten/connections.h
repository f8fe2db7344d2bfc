// Connections (part of the flatten stage), following Modelica 3.6 section 9
// and the seed on connector balancing (003_...):
//  - connection sets by union-find over (connector variable, inside/outside);
//  - m-1 equalities per set of m potential variables;
//  - one balance per set of flow variables, inside flows counted positive and
//    outside flows negative;
//  - zero flow for each flow variable of an inside connector left unconnected;
//  - stream variables through inStream/actualStream, regularized near zero
//    flow with a smooth positive part so that no division by zero and no
//    event appears when a flow reverses.
// Then alias elimination: equations `a = b` and `a = -b` between continuous
// variables are removed and one representative kept per alias class.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "common/heap_optional.h"
#include "flatten/flat_model.h"
#include "flatten/instance.h"
#include "flatten/symbol_substitution.h"

namespace modeaudit {

// An element not declared in an expandable connector (Modelica 3.6,
// 9.1.3): the connector instance's path and the element's name.
struct ExpandableElementRef {
    std::string connector_path;
    std::string element;
};

struct ConnectorRef {
    const flat::Member* member = nullptr;  // null for an element added to an expandable connector
    std::string name;
    bool inside = false;
    SourceRange range;
    HeapOptional<ExpandableElementRef> expandable_in;  // rare: on the heap, a pointer's size here
};

struct ConnectRecord {
    ConnectorRef a, b;
    SourceRange range;
    std::string text;
};

// Adds the connection equations to `model`. Reports incompatible connectors
// as flatten-type-mismatch and returns false (an input error).
// `enumeration_of` (per flat variable, null where it is none) tells the
// enumeration type of a variable, checked where an element of an expandable
// connector is joined to a connector. `release`, when given, is called once
// the instance tree, `connects` and `enumeration_of` are no longer read,
// before the connection equations are built: the caller may free them
// there, so that the equations take their memory instead of fresh pages
// (on the RC ladder the tree and the records are a third of the peak).
bool resolve_connections(FlatModel& model, const flat::Instance& top, const std::vector<ConnectRecord>& connects,
                         DiagnosticSink& sink, const std::vector<const ast::ClassDef*>& enumeration_of = {},
                         const std::function<void()>& release = {});

// Removes alias equations; records each eliminated variable in model.aliases.
void eliminate_aliases(FlatModel& model);

// Substitutes in every expression of the model (equations, conditions,
// when-clauses, asserts, invariants).
void substitute_everywhere(FlatModel& model, const GiNaC::exmap& map);
void substitute_everywhere(FlatModel& model, const SymbolSubstitution& by_symbol);

}  // namespace modeaudit
