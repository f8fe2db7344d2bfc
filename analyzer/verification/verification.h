// The verification stage: the physics of every mode and every restart
// checked and stated (seed 000, sections 4.2, 5.1-5.3 and 6; input-language
// extensions 2 and 3).
//
// Static part (verify_model, after the restart stage; `check` runs it):
//   rates        each declared invariant `rate = r` in every mode it applies
//                to: dQ/dt with the mode's reduced equations F_DOWN solved for
//                the leading variables, minus r. Zero after simplification:
//                holds symbolically. Otherwise the residual is evaluated at
//                points of the mode's consistency manifold (F_UP = 0, reached
//                by minimum-norm Gauss-Newton from deterministic pseudo-random
//                starts): zero at all of them, it holds on the manifold (the
//                rope's -lambda*(x*vx + y*vy)); else it is violated, and the
//                residual is shown with its value at a point.
//   jumps        each declared `atEvents` law on every restart: Q(after) -
//                Q(before) from the restart system. Continuous and supplied
//                restarts give it directly; impulsive ones through the
//                restart system's linear part (the equations without the new
//                mode's leading variables), solved with GiNaC's lsolve. A
//                jump that simplifies to zero is conserved; one whose sign
//                is certain (a negative multiple of a square over a positive
//                denominator) settles nonincreasing/nondecreasing; the others
//                are decided at the simulated events.
//   discovered   for an impulsive restart, the quantities the jump preserves
//                without any declaration: the combinations of the impulse
//                balance rows that eliminate every impulse (the left null
//                space of the impulses' coefficient matrix), which read
//                sum_j k_j (X_j+ - X_j-) = 0 with k_j depending on carried
//                data only. The rope gives x*vy - y*vx, two capacitors joined
//                by a switch C1*v1 + C2*v2.
//   impact law   a restart constraint whose coefficient is a parameter with
//                min/max but no value (`parameter Real e(min=0, max=1);`):
//                the law is incomplete; its consequences are computed at the
//                simulated left limits (below).
//
// Event part (verify_events, after the simulation stage; `simulate` and
// `report` run it): at every simulated event the declared atEvents laws
// with their values before and after, the target mode's asserts at the
// restart values (the rope's lambda+ = 8.848 >= 0), and an alternative
// admissible mode when the target is not admissible; for an incomplete
// impact law, the range of every impulse magnitude that the coefficient's
// bounds allow, from Z3's optimizer over the restart equations at the left
// limits, with the mode each end implies (seed 000, 5.3: alpha in [2, 4]).
// An event with a continuous restart and no reset after which the new
// segment immediately leaves its mode's admissible set is a missing impact
// law as well.
#pragma once

#include <ginac/ginac.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "flatten/flat_model.h"
#include "modes/modes.h"
#include "restart/verdict.h"
#include "simulation/simulation.h"
#include "structure/structure.h"

namespace modeaudit {

enum class CheckStatus { Holds, Violated, NotEvaluated };
std::string_view check_status_name(CheckStatus s);  // "holds" | "violated" | "not-evaluated"

// A declared invariant: the variable carrying the annotation and the
// quantity it names (its binding).
struct DeclaredInvariant {
    int variable = -1;
    std::string name;
    GiNaC::ex quantity;          // Q in the flat model's symbols
    std::string quantity_text;
    const InvariantDecl* decl = nullptr;
};

struct RateCheck {
    int mode = -1;
    std::string invariant;       // variable name
    std::string rate;            // declared rate, canonical text
    CheckStatus status = CheckStatus::NotEvaluated;
    std::string method;          // "symbolic" | "on the consistency manifold at N points"
    std::string residual;        // dQ/dt - rate after substitution (canonical text), when not zero
    double value = 0;            // residual at `point` when violated
    std::map<std::string, double> point;
    std::string note;            // why not evaluated
    SourceRange range;           // the declaration
};

struct JumpCheck {
    std::string invariant;
    std::string kind;            // conserved | nonincreasing | nondecreasing
    CheckStatus status = CheckStatus::NotEvaluated;
    std::string jump;            // Q+ - Q- in left limits, canonical text, when known
    std::string note;
    SourceRange range;
};

struct ImpactLaw {
    bool incomplete = false;
    std::vector<std::string> free_coefficients;  // "0 <= e <= 1"
    std::vector<int> coefficient_variables;      // FlatModel::variables indices
    std::string message;
};

struct TransitionVerification {
    int transition = -1;
    std::vector<std::string> conserved;   // declared laws shown to hold, then discovered quantities
    std::vector<std::string> discovered;  // discovered quantities only (canonical text)
    std::vector<GiNaC::ex> discovered_quantities;  // the same, in the flat model's symbols
    std::vector<JumpCheck> jumps;
    ImpactLaw impact_law;
};

// One event of the reference simulation, checked.
struct EventJump {
    std::string invariant, kind;
    double before = 0, after = 0, jump = 0;
    CheckStatus status = CheckStatus::NotEvaluated;
    std::string note;
};
struct EventAdmissibility {
    int assert_index = -1;
    std::string condition, message;
    double value = 0;            // margin (>= 0 holds)
    CheckStatus status = CheckStatus::NotEvaluated;
};
struct ImpulseRange {
    std::string impulse;         // display name (lambda)
    double low = 0, high = 0;
    std::string low_mode, high_mode;  // the mode each end implies ("" when none is admissible)
};
struct EventVerification {
    std::size_t event = 0;        // SimulationResult::events index
    int transition = -1;
    double time = 0;
    std::vector<EventJump> jumps;
    std::vector<EventAdmissibility> admissibility;
    std::vector<std::string> alternatives;     // admissible other modes when the target is not
    bool missing_impact_law = false;           // no reset, and the next segment leaves its admissible set at once
    std::string missing_note;
    std::vector<ImpulseRange> ranges;          // incomplete impact law: what its bounds allow
    std::string range_note;
};

struct VerificationResult {
    std::vector<DeclaredInvariant> invariants;
    std::vector<RateCheck> rates;
    std::vector<TransitionVerification> transitions;  // parallel to ModeSet::transitions
    bool events_checked = false;
    std::vector<EventVerification> events;
};

VerificationResult verify_model(const FlatModel& flat, const ModeSet& modes, const StructureResult& structures,
                                const RestartStageResult& restarts);

void verify_events(const FlatModel& flat, const ModeSet& modes, const StructureResult& structures,
                   const RestartStageResult& restarts, const SimulationResult& sim, VerificationResult& v);

void dump_verification(const FlatModel& flat, const ModeSet& modes, const VerificationResult& v, std::ostream& out);

}  // namespace modeaudit
