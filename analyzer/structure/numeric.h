// Numerical linear algebra and Newton's method for the structure stage and
// later stages (restart, simulation): exact rank over the rationals (CLN via
// GiNaC::numeric), a scale-aware rank-revealing QR with column pivoting and a
// condition estimate in floating point, and a Newton / Gauss-Newton solver
// for equations given as GiNaC expressions. The dense floating-point work is
// Eigen's (numeric.cpp); this interface does not expose it.
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
    double condition = 0;            // cond_2 of the matrix as given (inf when rank-deficient)
    double scaled_condition = 0;     // cond_2 of the equilibrated matrix the rank is decided on (inf likewise)
    std::vector<std::size_t> dependent_rows;  // rows outside the numerically independent set, increasing
};
// Numerical rank, scale-aware. The rule:
//   1. an entry with |a_ij| <= 16 eps times the largest magnitude in its row
//      or its column is taken as zero (rounding noise of a cancellation,
//      which step 2 would otherwise magnify); so coefficients of one equation
//      or of one variable more than about 1e14 apart are not distinguished;
//   2. rows and columns are equilibrated by powers of two (a few sweeps of
//      geometric-mean scaling, then Ruiz's iterated max-norm scaling; exact
//      in binary floating point), so that every non-zero row and column has
//      max-norm in [1/2, 2]: E = D_r A D_c has the rank and the row
//      dependencies of A, whatever units the equations and variables are
//      written in;
//   3. E^T is factored by a QR with column pivoting (Eigen's
//      ColPivHouseholderQR), so that the pivots pick independent ROWS; the
//      rank is the number of diagonal entries of R with |R_kk| > tol * max|R_kk|.
// So a full-rank matrix whose rows or columns differ in scale by many orders
// of magnitude (a diode's Ron = 1e-5 beside Kirchhoff's unit coefficients)
// is full rank, while a genuine dependency (a row that is a combination of
// others up to rounding) stays one. `scaled_condition` is cond_2(E), the
// figure the decision rests on; `condition` is cond_2 of the raw matrix.
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
