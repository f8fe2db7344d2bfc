// Switching clusters: the mode variables partitioned into groups that
// interact.
//
// Two mode variables interact when something joins what they decide: an
// equation (its unknowns, the discrete values and conditions that select
// it), a when-clause (its triggers, what it assigns and reinitialises, its
// restart constraints), a definition of a discrete variable (a relation
// `off = s < 0`, an Integer `mode = if ... then ...`) or an assert. Joining
// the continuous and discrete variables each of these mentions, over all
// modes, gives connected components; a cluster is the mode variables of one
// component. Parameters, constants and time join nothing. Independent
// switching cells (each switch touching only its own cell) are one cluster
// each; a diode bridge, whose diodes meet at shared nodes, is one cluster.
//
// The modes stage explores each cluster's local modes on its own (the
// other clusters' mode variables kept at their initial values), so the
// number of global modes (their product) is known without enumerating it.
#pragma once

#include <cstddef>
#include <set>
#include <vector>

#include "flatten/flat_model.h"

namespace modeaudit {

struct SwitchingCluster {
    std::vector<int> mode_variables;  // indices into ModeSet::mode_variables, ascending
    std::size_t local_modes = 0;      // reachable valuations of these mode variables
    bool complete = true;             // false when the local exploration hit the mode limit
};

// Connected components of the flat variables through the model's equations,
// when-clauses, definitions and asserts (union-find; near-linear in the size
// of the model).
class VariableCoupling {
public:
    explicit VariableCoupling(const FlatModel& flat);

    // The component of flat variable v (a representative variable index).
    int component(int v) const;
    // The component of the first variable `e` mentions (directly, through a
    // derivative, pre() or a condition symbol), or -1 when it mentions none.
    int component_of(const GiNaC::ex& e) const;
    int component_of(const Condition& c) const;

private:
    const FlatModel& flat_;
    mutable std::vector<int> parent_;
    void unite(int a, int b);
    int find(int v) const;
    // The flat variables `e` mentions (through condition symbols too).
    void variables_of(const GiNaC::ex& e, std::vector<int>& out) const;
    void variables_of(const Condition& c, std::vector<int>& out) const;
    void unite_all(const std::vector<int>& vars);
};

// Groups mode variables by component: `component_of_mode_variable[i]` is
// the component of mode variable i (-1: it touches nothing, a cluster of
// its own). Clusters are ordered by their first mode variable.
std::vector<SwitchingCluster> group_clusters(const std::vector<int>& component_of_mode_variable);

}  // namespace modeaudit
