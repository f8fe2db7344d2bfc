// Comparing the audit of a model with the audit of one of its metamorphic
// variants (variants.h), transition by transition.
//
// Both are run in-process up to the verification stage (what `check` runs).
// Per transition (matched by its source and target mode ids): the verdict,
// the impulse orders, the positions that would jump and, where the restart
// is a system of Procedure 1, its restart values. Names are compared
// through the variant's images and the original's classes of proportional
// quantities (aliases, der(x) = k*v and other two-term equations of every
// mode): an alias takes the order of its original, a variable scaled by c
// has c times its restart value. Mode ids are compared with their
// mode variables sorted (a reordering moves them).
//
// Restart values are compared at one consistent left limit per transition:
// a point of the original's source mode where its completed system (F_DOWN
// and F_UP) and the guard's root (g = 0, the event) hold, found by
// minimum-norm Newton from a seeded start. The variant's left limits are
// the images of the original's states there, its other variables solved
// from its own completed system; both restart systems are then solved
// there (solve_restart) and must agree to 1e-10 (relative and absolute).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "metamorphic/variants.h"
#include "support/front_end.h"

namespace modeaudit::metamorphic {

struct Audit {
    std::unique_ptr<testing::FrontEnd> fe;
    bool complete() const { return fe && fe->state.restarts && fe->state.structure; }
};

Audit audit(const std::string& text);

// The original's consistent left limits per transition (empty where none
// was found or the transition has no restart system), computed once.
struct Reference {
    const Audit* original = nullptr;
    std::vector<std::optional<std::map<std::string, double>>> left;  // per transition
    std::vector<double> time;                                        // per transition
};
Reference reference(const Audit& original, std::uint64_t seed);

struct Comparison {
    std::vector<std::string> differences;  // empty: the variant agrees
    std::size_t transitions = 0;           // compared
    std::size_t values = 0;                // restart values compared
    std::size_t value_transitions = 0;     // transitions whose restart values were compared
};

// The variant's audit against the original's: the same modes and
// transitions, the same set of rule ids of findings, and per transition
// the same verdict, impulse orders, jumping positions and restart values.
Comparison compare(const Reference& ref, const Audit& variant, const Variant& v);

}  // namespace modeaudit::metamorphic
