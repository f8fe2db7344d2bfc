// Metamorphic variants of a model (issue 17, item 7): equivalent
// formulations of the same physics, generated from the model's text.
//
// Each transformation parses the text (parse/parser.h), picks its targets in
// the AST of the audited class (the last top-level model, as the flattener
// does) and edits the text at the nodes' source ranges, so that comments,
// annotations and everything it does not touch stay as written. Every
// transformation is semantics-preserving and deterministic for a given seed;
// one that finds nothing to transform in a model returns nothing (it is
// skipped for that model, never forced):
//   alias      `Real mm_aK; mm_aK = x;` (or `= -x`) and some uses of a
//              continuous variable x in equations and guards replaced by
//              the alias (`der(x)` by `der(mm_aK)` too);
//   scale-eq   one equation `l = r` written as `c*(l) = c*(r)`,
//              `c*(l - (r)) = 0` or `c*(r) = c*(l)` (c in 3, -0.5, 1e3, ...);
//   scale-var  an algebraic variable x (never differentiated, not assigned
//              in when-clauses, not under pre(), not read by bindings or
//              annotations) replaced everywhere by `mm_sK/c`, its start
//              value by c times it: mm_sK = c*x. Restricted to algebraic
//              variables: scaling a state would need its derivative, start
//              value and reinit targets rescaled together;
//   node       a continuous variable i routed through a node:
//              `mm_nKa + mm_nKb = i; mm_nKb = 0;` and some uses of i
//              outside der() replaced by mm_nKa (a branch that carries no
//              current joins the node, as in inductor_switch_opens_node.mo);
//   switch     an ideal switch written `if c then A = 0; else B = 0; end if;`
//              (each branch one scalar equation, any sides) in the
//              library's parameterised form
//              `A = mm_pK*(if c then 0 else 1); B = mm_pK*(if c then 1 else 0);`;
//   reorder    the equations of each equation section and the component
//              declarations of each run of them permuted.
// Combinations apply two or three of them in sequence, each on the
// previous one's text.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace modeaudit::metamorphic {

// What a variable of the variant is in the original: value(variant var) =
// factor * value(original var). `original` empty: the variable is 0.
struct Image {
    std::string original;
    double factor = 1;
};

struct Variant {
    std::string name;  // "alias", "scale-eq+reorder", ...
    std::string text;
    // The new variables that stand for an original one (or for 0). A new
    // variable without an image (a switch's curve parameter) stands for
    // nothing of the original: it is not compared.
    std::map<std::string, Image> images;
    std::vector<std::string> steps;  // one line per transformation applied: what it did
};

enum class Transformation { Alias, ScaleEquation, ScaleVariable, Node, Switch, Reorder };
const char* transformation_name(Transformation t);
std::vector<Transformation> all_transformations();

// Applies `t` to `v` (its text and images), with the choices drawn from
// `seed`. nullopt when `t` does not apply to the model.
std::optional<Variant> apply(const Variant& v, Transformation t, std::uint64_t seed);

// The variants of a model: each transformation once, then `combinations`
// sequences of two or three transformations (drawn from `seed`), those
// that apply.
std::vector<Variant> generate_variants(const std::string& text, std::uint64_t seed, int combinations);

}  // namespace modeaudit::metamorphic
