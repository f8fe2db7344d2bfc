// The signature matrix of one mode's active system (Pryce 2001; paper notes
// section 1.2): sigma_ij is the highest order of a derivative of unknown j in
// equation i, or -infinity (no entry) when j does not occur in i.
//
// Part of the structure stage. Rows are the mode's equations (in the order of
// Mode::equations), columns the mode's unknowns (Mode::unknowns). Left limits
// pre(v), parameters, discrete variables and time are not unknowns.
#pragma once

#include <vector>

#include "flatten/flat_model.h"
#include "modes/modes.h"

namespace modeaudit {

struct SignatureEntry {
    int col;
    int sigma;  // >= 0
};

struct SignatureMatrix {
    int rows = 0, cols = 0;
    std::vector<std::vector<SignatureEntry>> entries;  // per row, sorted by column
    std::vector<int> row_equation;   // index into Mode::equations
    std::vector<int> col_variable;   // flat variable index

    // sigma_ij, or kNoEntry.
    static constexpr int kNoEntry = -1000000;
    int sigma(int i, int j) const;
};

SignatureMatrix build_signature(const FlatModel& flat, const Mode& mode);

}  // namespace modeaudit
