// The schema of the documents the report reads (report stage).
//
// The report is rendered from the check document (`check --format json`)
// and the simulation document (`simulate --format json`), whose required
// members are those of output-contract.md plus the ones the report's
// sections rely on. The renderer itself is tolerant (a document written by
// hand, or by an older modeaudit, renders with "n/a" where a member is
// missing), so that a missing member would pass unnoticed; this schema is
// what the tests hold the pipeline's documents to (tests/unit/report/
// document_schema_test.cpp: the golden reports' JSON, every corpus model's
// report in the ctest report.schema_*): there a missing or mistyped member
// is an error naming its path, never a silent "n/a".
//
// Required (types: s string, n number, i integer, b boolean, a array, o object):
//   check:       tool{name s, version s}, model s, modes a, transitions a, diagnostics a, stages_run a
//   check.modes[]:       id s, status s, equations i, unknowns i, index i, dof i, states a, consistency a
//     (a mode the structure stage could not analyse has status only: then the numbers may be absent)
//   check.transitions[]: from s, to s, trigger s, guard s, verdict s, impulse_orders o, restart a,
//                        undetermined a, conserved a
//   check.diagnostics[]: rule s, severity s, message s, notes a
//   simulation:  model s, stop_time n, end_time n, stopped_because s, events a, final o, segments a,
//                diagnostics a; sensitivity o when present
//   simulation.events[]: time n, from s, to s, verdict s, before o, after o; impulses o when present
//   simulation.segments[]: mode s, begin n, end n, steps i, rhs_evaluations i, jacobian_evaluations i,
//                          max_constraint_drift n, asserts a; algebraic b when present (a mode
//                          without states: steps are the output points solved)
//   simulation.segments[].asserts[]: message s, violated b, min_margin n
//   simulation.sensitivity: rtol n, same_events b, max_event_shift n, max_final_difference n
#pragma once

#include <string>
#include <vector>

#include "common/json_output.h"

namespace modeaudit {

// The problems of a check document and (optionally) a simulation document
// against the schema, one line each ("check.modes[1].dof: missing");
// empty when both conform. The simulation may also be the `simulation`
// member of a report's JSON.
std::vector<std::string> document_schema_problems(const Json& check, const Json* simulation);

}  // namespace modeaudit
