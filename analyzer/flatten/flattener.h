// The flatten stage: AST to FlatModel.
//
// Second stage of the pipeline. Picks the model class (`--model NAME`, else
// the last top-level model of the file), instantiates it recursively
// (class lookup through enclosing scopes and imports, `extends` with
// modifiers, nested modifiers, components and hierarchical names, arrays and
// `for` expansion, records and record equations (records.h), inner and outer
// elements (inner_outer.h)), evaluates parameters, resolves connections
// (connections.h), turns expressions into GiNaC (expression_builder.h) and
// collects when-clauses, asserts and the audit annotations.
#pragma once

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>

#include "common/diagnostics.h"
#include "flatten/flat_model.h"
#include "library/class_loader.h"
#include "parse/ast.h"

namespace modeaudit {

inline constexpr std::size_t kDefaultMaxFunctionWork = 1000000;

struct FlattenOptions {
    std::string model_name;               // empty: the last top-level model; a full name
                                          // ("Lib.Examples.M") may name a library class
    std::size_t max_array_size = 1000000;  // elements of one array
    std::size_t max_instance_depth = 64;   // nesting of component instances
    std::size_t max_variables = 2000000;
    // Function calls inlined and loop iterations run in them while
    // flattening, in total over the model (--max-function-work).
    std::size_t max_function_work = kDefaultMaxFunctionWork;
    // User-function calls nested while inlining (recursion). Sized, with the
    // parser's nesting limit, for the command line's large stack
    // (common/large_stack.h); the fuzz harnesses lower it to fit ASan's.
    std::size_t max_call_depth = 200;
};

// Returns null when the model cannot be flattened (the reasons are in the sink
// as input errors). Classes the file does not define are looked up in the
// libraries of `loader` (null: none), loaded as lookup reaches them.
std::unique_ptr<FlatModel> flatten(const ast::StoredDefinition& tree, const SourceManager& sources,
                                   DiagnosticSink& sink, const FlattenOptions& options = {},
                                   library::ClassLoader* loader = nullptr);

// Canonical, deterministic text of the flat model for `--dump-after=flatten`.
void dump_flat(const FlatModel& flat, std::ostream& out);

// Canonical text of an expression / condition (one printer for users).
std::string canonical(const GiNaC::ex& e);
std::string canonical(const FlatModel& flat, const Condition& c);
// As canonical(e), with condition symbols shown as their conditions.
std::string canonical_in(const FlatModel& flat, const GiNaC::ex& e);

}  // namespace modeaudit
