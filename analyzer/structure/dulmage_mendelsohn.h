// Maximum matching and the Dulmage-Mendelsohn decomposition of a mode's
// incidence graph (paper notes section 2), with Boost.Graph: the
// underdetermined part (reachable by alternating paths from unmatched
// variables), the overdetermined part (from unmatched equations), the
// well-determined rest, and the block triangular form of the well-determined
// part by strong components. Part of the structure stage.
#pragma once

#include <vector>

#include "structure/signature.h"

namespace modeaudit {

struct DulmageMendelsohn {
    std::vector<int> row_match;  // per row: matched column or -1
    std::vector<int> col_match;  // per column: matched row or -1
    std::vector<int> under_rows, under_cols;
    std::vector<int> over_rows, over_cols;
    std::vector<int> well_rows, well_cols;
    // Blocks of the well-determined part in an order where each block uses
    // only variables of itself and of earlier blocks (solve in this order).
    std::vector<std::vector<int>> blocks;  // rows of each block; its columns are their matches
    std::size_t matching_size() const;
    bool perfect() const { return under_cols.empty() && over_rows.empty(); }
};

DulmageMendelsohn dulmage_mendelsohn(const SignatureMatrix& s);

}  // namespace modeaudit
