// "Did you mean" for mistyped commands and options (the command line).
//
// The candidate closest to what was typed by the optimal string alignment
// distance (Levenshtein with adjacent transpositions: "chekc" is one edit
// from "check"), accepted when it is at most a third of the longer word's
// length (at least 1, at most 3), so "--fromat" finds "--format" but "foo"
// finds nothing. Ties go to the candidate listed first: the answer is
// deterministic.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace modeaudit {

std::size_t edit_distance(std::string_view a, std::string_view b);

// The closest candidate, or "" when none is close enough.
std::string closest_match(std::string_view typed, const std::vector<std::string>& candidates);

}  // namespace modeaudit
