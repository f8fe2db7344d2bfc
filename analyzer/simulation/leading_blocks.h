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

struct LeadingBlocks {
    // Per block, in solving order: its equations and the leading variables
    // it determines (the equations' matches). Empty when F_DOWN is
    // structurally singular (no perfect matching).
    std::vector<std::vector<std::size_t>> rows, cols;
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
    std::vector<std::size_t> block_of_;           // per leading variable
    std::vector<std::vector<std::size_t>> uses_;  // per equation: its leading variables
    std::vector<int> status_;                     // per block: 0 not tried, 1 solved, -1 not solvable
    GiNaC::exmap solved_;
};

}  // namespace modeaudit::sim
