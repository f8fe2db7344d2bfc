// Independent parts of a flat model, for the factorised analysis of models
// with many switches (issue 20).
//
// The switching clusters (clusters.h) are connected components of the
// variables through everything that relates them. Equations, when-clauses,
// definitions and asserts of different components share no variable, so
// each switching component is a model of its own: its modes, structure,
// mode changes and restarts are those of the whole model restricted to it,
// and the whole model's global modes are the tuples of the parts' modes.
// A part is a FlatModel built from the whole one's pieces: its variables
// and conditions renumbered, its expressions the very same (its symbol table
// holds the whole model's symbols, SymbolTable::subset).
//
// Part of the modes stage's input; used by the pipeline when the product of
// the parts' modes is too large to enumerate (pipeline.h).
#pragma once

#include <vector>

#include "flatten/flat_model.h"

namespace modeaudit {

struct ModelPart {
    FlatModel model;
    std::vector<int> variables;  // the whole model's index of each of the part's variables
    bool switching = false;      // it has conditions, when-clauses or discrete variables
};

// The model's independent parts: each switching component one part, then one
// part for all the rest (the components that cannot switch, and what reads
// no variable), if there is any. Empty when the model has fewer than two
// switching components, or when something joins two of them that the
// coupling does not follow (an initial equation, a start value or bound
// that reads a variable, a when/elsewhen chain, a condition on time alone
// used in two components): the model is then analysed whole.
std::vector<ModelPart> split_model(const FlatModel& flat);

}  // namespace modeaudit
