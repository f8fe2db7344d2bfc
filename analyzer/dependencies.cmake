# Finds every dependency from its Debian 12 package and stops with a message
# naming the package when one is missing. The install script
# (.ci/install-deps) installs exactly these packages.

function(modeaudit_missing what package)
  message(FATAL_ERROR
    "modeaudit needs ${what}, which was not found.\n"
    "Install it with:  apt-get install ${package}\n"
    "or run .ci/install-deps, which installs every dependency.")
endfunction()

find_package(PkgConfig QUIET)
if(NOT PkgConfig_FOUND)
  modeaudit_missing("pkg-config" "pkg-config")
endif()

# GiNaC + CLN: symbolic expressions and exact arithmetic.
pkg_check_modules(GINAC QUIET IMPORTED_TARGET ginac)
if(NOT GINAC_FOUND)
  modeaudit_missing("GiNaC (and CLN)" "libginac-dev libcln-dev")
endif()
add_library(modeaudit::ginac ALIAS PkgConfig::GINAC)

# Boost.Graph: incidence graphs, matching, strong components (header-only parts).
find_package(Boost 1.74 QUIET)
if(NOT Boost_FOUND OR NOT EXISTS "${Boost_INCLUDE_DIRS}/boost/graph/max_cardinality_matching.hpp")
  modeaudit_missing("Boost.Graph" "libboost-graph-dev")
endif()

# Eigen: dense linear algebra (header-only): the rank-revealing QR, the SVD
# and the LU of structure/numeric.cpp.
find_package(Eigen3 3.3 QUIET NO_MODULE)
if(NOT TARGET Eigen3::Eigen)
  modeaudit_missing("Eigen 3" "libeigen3-dev")
endif()

# Z3: the rescaling constraints (C++ API).
find_path(Z3_INCLUDE_DIR z3++.h)
find_library(Z3_LIBRARY z3)
if(NOT Z3_INCLUDE_DIR OR NOT Z3_LIBRARY)
  modeaudit_missing("Z3 with its C++ API" "libz3-dev")
endif()
add_library(modeaudit_z3 INTERFACE)
target_include_directories(modeaudit_z3 SYSTEM INTERFACE ${Z3_INCLUDE_DIR})
target_link_libraries(modeaudit_z3 INTERFACE ${Z3_LIBRARY})
add_library(modeaudit::z3 ALIAS modeaudit_z3)

# SUNDIALS: CVODE / IDA with serial vectors. Found by library name rather than
# through SUNDIALSConfig.cmake, which drags in the MPI/PETSc/hypre configs.
find_path(SUNDIALS_INCLUDE_DIR sundials/sundials_config.h)
find_library(SUNDIALS_CVODE_LIBRARY sundials_cvode)
find_library(SUNDIALS_IDA_LIBRARY sundials_ida)
find_library(SUNDIALS_NVECSERIAL_LIBRARY sundials_nvecserial)
if(NOT SUNDIALS_INCLUDE_DIR OR NOT SUNDIALS_CVODE_LIBRARY OR NOT SUNDIALS_IDA_LIBRARY
   OR NOT SUNDIALS_NVECSERIAL_LIBRARY)
  modeaudit_missing("SUNDIALS (CVODE, IDA)" "libsundials-dev")
endif()
add_library(modeaudit_sundials INTERFACE)
target_include_directories(modeaudit_sundials SYSTEM INTERFACE ${SUNDIALS_INCLUDE_DIR})
target_link_libraries(modeaudit_sundials INTERFACE
  ${SUNDIALS_IDA_LIBRARY} ${SUNDIALS_CVODE_LIBRARY} ${SUNDIALS_NVECSERIAL_LIBRARY})
add_library(modeaudit::sundials ALIAS modeaudit_sundials)

# CVODE with the dense direct solver, for the simulation stage: BDF with a
# dense Jacobian, projection and dense output (analyzer/simulation/).
find_path(SUNDIALS_CVODE_INCLUDE_DIR cvode/cvode.h)
find_path(SUNDIALS_CVODE_PROJ_INCLUDE_DIR cvode/cvode_proj.h)
find_library(SUNDIALS_SUNLINSOLDENSE_LIBRARY sundials_sunlinsoldense)
find_library(SUNDIALS_SUNMATRIXDENSE_LIBRARY sundials_sunmatrixdense)
if(NOT SUNDIALS_CVODE_INCLUDE_DIR OR NOT SUNDIALS_CVODE_PROJ_INCLUDE_DIR OR NOT SUNDIALS_CVODE_LIBRARY
   OR NOT SUNDIALS_NVECSERIAL_LIBRARY OR NOT SUNDIALS_SUNLINSOLDENSE_LIBRARY OR NOT SUNDIALS_SUNMATRIXDENSE_LIBRARY)
  modeaudit_missing("SUNDIALS CVODE (>= 6, with the dense linear solver and projection)" "libsundials-dev")
endif()
add_library(modeaudit_cvode INTERFACE)
target_include_directories(modeaudit_cvode SYSTEM INTERFACE ${SUNDIALS_CVODE_INCLUDE_DIR})
target_link_libraries(modeaudit_cvode INTERFACE
  ${SUNDIALS_CVODE_LIBRARY} ${SUNDIALS_SUNLINSOLDENSE_LIBRARY} ${SUNDIALS_SUNMATRIXDENSE_LIBRARY}
  ${SUNDIALS_NVECSERIAL_LIBRARY})
add_library(modeaudit::cvode ALIAS modeaudit_cvode)

# jemalloc: the memory allocator of the modeaudit program and of the
# benchmarks. The analyzer makes millions of small allocations (GiNaC
# nodes, names, instance maps); on the RC ladder at 100,000 cells glibc's
# malloc spent a quarter of the user time consolidating and unlinking free
# chunks, a share that grew with the heap. With jemalloc the same check
# takes about a third less time at every size (tests/bench/README.md). Not with
# the sanitizers, which bring their own allocator, nor with
# -DMODEAUDIT_JEMALLOC=OFF (for heap profilers that replace glibc's malloc,
# such as heaptrack).
option(MODEAUDIT_JEMALLOC "Link the modeaudit program and the benchmarks with jemalloc" ON)
add_library(modeaudit_allocator INTERFACE)
if(MODEAUDIT_JEMALLOC AND NOT MODEAUDIT_SANITIZE AND NOT MODEAUDIT_FUZZ)
  pkg_check_modules(JEMALLOC QUIET IMPORTED_TARGET jemalloc)
  if(NOT JEMALLOC_FOUND)
    modeaudit_missing("jemalloc" "libjemalloc-dev")
  endif()
  target_link_libraries(modeaudit_allocator INTERFACE PkgConfig::JEMALLOC)
endif()
add_library(modeaudit::allocator ALIAS modeaudit_allocator)

# fmt: formatting (GCC 12 has no <format>).
find_package(fmt QUIET)
if(NOT fmt_FOUND)
  modeaudit_missing("fmt" "libfmt-dev")
endif()

# nlohmann/json: JSON and SARIF output, corpus expectations.
find_package(nlohmann_json 3.10 QUIET)
if(NOT nlohmann_json_FOUND)
  modeaudit_missing("nlohmann/json" "nlohmann-json3-dev")
endif()

# CLI11: the command line (subcommands, typed options, --help).
find_package(CLI11 QUIET)
if(NOT CLI11_FOUND)
  modeaudit_missing("CLI11" "libcli11-dev")
endif()

if(MODEAUDIT_BUILD_TESTS)
  find_package(GTest QUIET)
  if(NOT GTest_FOUND)
    modeaudit_missing("GoogleTest and GoogleMock" "libgtest-dev libgmock-dev")
  endif()
endif()

# Report tools are run as programs; found here so the build can tell the
# tests where they are. Their absence is reported at run time (exit 2).
find_program(MODEAUDIT_PANDOC pandoc)
find_program(MODEAUDIT_GNUPLOT gnuplot)
