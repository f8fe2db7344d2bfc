// Pantelides' algorithm (Pantelides 1988; paper notes section 1.7) on a
// signature matrix: an independent route to the differentiation counts, used
// to test the Sigma-method differentially. Equations are differentiated
// whenever the augmenting-path search over highest-derivative incidences
// finds a structurally singular subset.
#pragma once

#include <vector>

#include "structure/signature.h"

namespace modeaudit {

struct PantelidesResult {
    bool ok = false;                 // false: structurally singular, or the iteration bound was hit
    std::vector<int> differentiations;  // per equation: how often it is differentiated (Sigma's c)
    std::vector<int> highest_order;     // per variable: highest derivative in the final system (Sigma's d)
    int index = 0;                   // max differentiations + (1 if some highest_order = 0)
};

PantelidesResult pantelides(const SignatureMatrix& s);

}  // namespace modeaudit
