// Pryce's Sigma-method on a signature matrix (paper notes section 1):
// a highest-value transversal (HVT) by a sparse assignment algorithm
// (successive shortest augmenting paths with potentials, Dijkstra on a
// binary heap: no dense O(n^3) step), the canonical smallest offsets c, d
// by the fixed-point iteration of Pryce (run as a label-correcting longest
// path, so long chains do not need one sweep per link), the structural index
// and the degrees of freedom, and the certificate check of the offsets.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "structure/signature.h"

namespace modeaudit {

struct SigmaResult {
    bool well_posed = false;        // a finite transversal exists (square and structurally nonsingular)
    std::vector<int> transversal;   // per row: the column of the HVT
    long value = 0;                 // Val(Sigma)
    std::vector<int> c;             // equation offsets (differentiation counts)
    std::vector<int> d;             // variable offsets (highest derivative orders needed)
    int index = 0;                  // structural index: max c + (1 if some d_j = 0)
    long dof = 0;                   // sum d - sum c
};

// Solves the Sigma-method; well_posed = false when no perfect matching exists.
SigmaResult sigma_method(const SignatureMatrix& s);

// Our own check of a Sigma-method answer: d_j - c_i >= sigma_ij everywhere,
// equality on the transversal, c >= 0, the transversal a permutation.
// Returns the first violation as text, or nullopt when the certificate holds.
std::optional<std::string> check_offsets(const SignatureMatrix& s, const SigmaResult& r);

}  // namespace modeaudit
