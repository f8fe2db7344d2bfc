// F_DOWN's block triangular form, and F_DOWN solved block by block
// (simulation stage; used by ModeSystem, mode_system.h).
//
// The leading variables of a mode are defined by F_DOWN, m equations in m
// unknowns. Its incidence (which leading variables each equation contains)
// ordered by Dulmage-Mendelsohn and strong components (structure stage,
// dulmage_mendelsohn.h) gives blocks that can be solved one after another,
// each needing only the values of earlier blocks. Two uses:
// - numerically, ModeSystem::solve_leading_by_blocks: the fallback when
//   Newton's method on the whole of F_DOWN fails at its guess;
// - symbolically, BlockSolution: where F_DOWN as a whole is not affine but
//   each block is affine in its own variables (a library resistor's
//   LossPower = v*i after the block that gives v and i), the leading
//   variables as expressions in the states, time and parameters, so that a
//   guard on a leading variable (a diode's current s) is followed on the
//   interpolant directly instead of through the interval Newton method.
#pragma once

#include <ginac/ginac.h>

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace modeaudit::sim {

// The stopping rule of Newton's method on F_DOWN (whole, or a block):
// iteration `it` took a step of max-norm `step` (the one before:
// `previous_step`) to a solution of max-norm `size`. Converged below 1e-14
// relative; or stalled at the rounding floor, the steps no longer
// contracting below 1e-10 relative (the MSL rectifier's 61 leading
// variables, Goff = 1e-5 beside values of 2e4, stall at 3e-14 relative),
// where more iterations cannot help.
inline bool newton_settled(int it, double step, double previous_step, double size) {
    return step <= 1e-14 * (1 + size) || (it > 0 && step >= 0.5 * previous_step && step <= 1e-10 * (1 + size));
}

struct LeadingBlocks {
    // Per block, in solving order: its equations and the leading variables
    // it determines (the equations' matches). Empty when F_DOWN is
    // structurally singular (no perfect matching).
    std::vector<std::vector<std::size_t>> rows, cols;
    // Per equation and per variable: its block, and its place in the block.
    std::vector<std::size_t> block_of_row, block_of_col, place_of_row, place_of_col;
};

// `pattern`: the (equation, leading variable) pairs where the variable
// occurs, m equations and m variables.
LeadingBlocks leading_blocks(std::size_t m, const std::vector<std::pair<std::size_t, std::size_t>>& pattern);

class BlockSolution {
public:
    // `canonical` puts each solved expression in the canonical form the
    // caller compiles.
    BlockSolution(const std::vector<GiNaC::ex>& down, const std::vector<GiNaC::symbol>& leading,
                  const std::vector<std::pair<std::size_t, std::size_t>>& pattern,
                  GiNaC::ex (*canonical)(const GiNaC::ex&));
    // `e` with its leading variables replaced by their solutions (expanded);
    // nullopt when a block it needs is not affine in its own variables or
    // has no unique solution. Blocks are solved on first need.
    std::optional<GiNaC::ex> substitute(const GiNaC::ex& e);

private:
    bool solve(std::size_t block);
    std::vector<GiNaC::ex> down_;
    std::vector<GiNaC::symbol> leading_;
    GiNaC::ex (*canonical_)(const GiNaC::ex&);
    LeadingBlocks blocks_;
    std::vector<std::vector<std::size_t>> uses_;  // per equation: its leading variables
    std::vector<int> status_;                     // per block: 0 not tried, 1 solved, -1 not solvable
    GiNaC::exmap solved_;
};

}  // namespace modeaudit::sim
