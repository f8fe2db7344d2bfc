// Numerical linear algebra and Newton's method for the structure stage and
// later stages (restart, simulation): exact rank over the rationals (CLN via
// GiNaC::numeric), a rank-revealing QR with column pivoting and a condition
// estimate in floating point, and a Newton / Gauss-Newton solver for
// equations given as GiNaC expressions.
#pragma once

#include <ginac/ginac.h>

#include <cstddef>
#include <string>
#include <vector>

namespace modeaudit {

struct ExactRank {
    std::size_t rank = 0;
    // For each row found dependent on earlier rows: its index and the
    // coefficients of the combination (row = sum coeff_k * row_k).
    struct Dependency {
        std::size_t row;
        std::vector<std::pair<std::size_t, GiNaC::numeric>> combination;
    };
    std::vector<Dependency> dependent;
};
ExactRank exact_rank(const std::vector<std::vector<GiNaC::numeric>>& m);

struct FloatRank {
    std::size_t rank = 0;
    double condition = 0;            // estimate of cond_2 of the matrix (inf when singular)
    std::vector<std::size_t> dependent_rows;  // rows outside the numerically independent set
};
// Householder QR with column pivoting on the transpose, so that dependent
// rows are identified; rank decided with tolerance tol * |R_11|.
FloatRank float_rank(const std::vector<std::vector<double>>& m, double tol = 1e-10);

struct NewtonOptions {
    int max_iterations = 50;
    double tolerance = 1e-12;  // on the max-norm of the residual
};

struct NewtonResult {
    bool converged = false;
    std::vector<double> values;  // per unknown
    double residual = 0;         // max-norm at the last iterate
    int iterations = 0;
    std::string message;         // why it failed
};

// Solves equations(unknowns; parameters) = 0 from x0. Square systems take
// Newton steps; under- or over-determined ones Gauss-Newton steps of minimum
// norm (least squares), so an underdetermined consistency system moves the
// start values as little as possible. Symbols not listed in `unknowns` must
// be given in `parameters`.
NewtonResult newton(const std::vector<GiNaC::ex>& equations, const std::vector<GiNaC::symbol>& unknowns,
                    const GiNaC::exmap& parameters, const std::vector<double>& x0,
                    const NewtonOptions& options = {});

}  // namespace modeaudit
