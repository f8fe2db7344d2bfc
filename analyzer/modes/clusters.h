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

// What a piece of the model reads: its unknowns (continuous and discrete
// variables, also through derivatives, left limits and condition symbols),
// the parameters and constants, and the condition symbols, each in the
// order met (repeats kept).
struct Reads {
    std::vector<int> variables, parameters, conditions;
    void clear() {
        variables.clear();
        parameters.clear();
        conditions.clear();
    }
};

// Collects Reads from the model's pieces; each call appends. The one walk
// shared by the coupling below and the model's partition
// (model_partition.h), so that both join variables the same way.
class ModelReader {
public:
    explicit ModelReader(const FlatModel& flat) : flat_(flat) {}
    void read(const GiNaC::ex& e, Reads& r) const;
    void read(const Condition& c, Reads& r) const;
    // The conditions of an if-branch path and what they read.
    void active_when(const std::vector<std::pair<int, bool>>& path, Reads& r) const;
    void equation(const FlatEquation& e, Reads& r) const;
    // Its triggers, and per action the variable assigned and what it reads.
    void when(const FlatWhen& w, Reads& r) const;
    // The variable defined first, then what defines it.
    void definition(const RelationDefinition& d, Reads& r) const;
    void definition(const IntegerDefinition& d, Reads& r) const;
    void assertion(const FlatAssert& a, Reads& r) const;
    // Variable v's start, bounds, nominal, value and invariant rate.
    void attributes(int v, Reads& r) const;

private:
    void variable(int v, Reads& r) const;
    const FlatModel& flat_;
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
    const ModelReader reader_;
    mutable std::vector<int> parent_;
    void unite(int a, int b);
    int find(int v) const;
    void unite_all(const std::vector<int>& vars);
    int first_component(const Reads& r) const;
};

// Groups mode variables by component: `component_of_mode_variable[i]` is
// the component of mode variable i (-1: it touches nothing, a cluster of
// its own). Clusters are ordered by their first mode variable.
std::vector<SwitchingCluster> group_clusters(const std::vector<int>& component_of_mode_variable);

}  // namespace modeaudit
