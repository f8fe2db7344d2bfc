// The structure stage: each reachable mode's DAE analysed on its own.
//
// Input: the FlatModel and the ModeSet. For every mode: the signature
// matrix (signature.h), a maximum matching and the Dulmage-Mendelsohn
// decomposition (dulmage_mendelsohn.h), Pryce's Sigma-method with its
// certificate (sigma_method.h), the completed system (each equation
// differentiated c_i times with GiNaC's total derivative; the consistency
// conditions are the lower derivatives), and numerical regularity: the
// system Jacobian dF_DOWN/d(leading variables) at a consistent point, with
// an exact rank over the rationals when the entries are rational and a
// rank-revealing QR with a condition estimate otherwise (numeric.h).
// Seed 000, sections 4.1 and 5.1; seed 001, sections 3.1-3.2; paper notes 1-2.
#pragma once

#include <ginac/ginac.h>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "flatten/flat_model.h"
#include "modes/modes.h"
#include "structure/dulmage_mendelsohn.h"
#include "structure/sigma_method.h"
#include "structure/signature.h"

namespace modeaudit {

enum class ModeStatus { Regular, StructurallySingular, NumericallySingular, Overdetermined, Underdetermined };
std::string_view mode_status_name(ModeStatus s);  // as in output-contract.md

struct CompletedEquation {
    int row = -1;        // signature row (= index into Mode::equations)
    int order = 0;       // how often it is differentiated
    GiNaC::ex residual;  // d^order/dt^order of the mode equation
};

struct Regularity {
    bool checked = false;        // false when the mode is not structurally regular
    bool exact = false;          // rank over the rationals (entries rational at the point)
    bool constant = false;       // the Jacobian does not depend on the point
    std::size_t rank = 0, size = 0;
    double condition = 0;        // cond_2 of the Jacobian; infinity when singular
    double scaled_condition = 0; // cond_2 after row and column equilibration (what the rank rests on)
    bool conclusive = true;      // false: rank-deficient only at a point that is not consistent (not a finding of singularity)
    bool jacobian_undefined = false;  // a pole of the Jacobian at every point tried (then not conclusive)
    std::vector<int> dependent;  // indices into ModeStructure::reduced
    std::vector<std::string> dependencies;  // readable: "equation 2 = 2*(equation 1)"
    bool point_consistent = false;
    std::string point_note;      // how the point was found, or why it is not consistent
    std::vector<std::pair<GiNaC::symbol, double>> point;  // states and leading variables there
};

struct ModeStructure {
    ModeStatus status = ModeStatus::Regular;
    SignatureMatrix signature;
    DulmageMendelsohn dm;
    SigmaResult sigma;
    std::optional<std::string> certificate_failure;  // our check of the offsets; nullopt: it holds
    std::vector<CompletedEquation> reduced;          // F_DOWN: f_i^(c_i), one per equation
    std::vector<CompletedEquation> consistency;      // F_UP: f_i^(k), 0 <= k < c_i
    std::vector<GiNaC::symbol> leading;              // x_j^(d_j), one per unknown
    std::vector<GiNaC::symbol> states;               // x_j^(k), 0 <= k < d_j
    Regularity regularity;
};

struct StructureOptions {
    int max_index = 3;            // structure-index-high above this
    bool numeric_check = true;    // the Jacobian at a consistent point
    std::size_t max_numeric_size = 2000;  // larger modes: structural results only (said in a note)
};

struct StructureResult {
    std::vector<ModeStructure> modes;  // parallel to ModeSet::modes
};

StructureResult analyze_structure(const FlatModel& flat, const ModeSet& modes, DiagnosticSink& sink,
                                  const StructureOptions& options = {});

// The analysis of one mode, without diagnostics (for tests and benchmarks).
ModeStructure analyze_mode(const FlatModel& flat, const Mode& mode, const StructureOptions& options = {});

void dump_structure(const FlatModel& flat, const ModeSet& modes, const StructureResult& s, std::ostream& out);

}  // namespace modeaudit
