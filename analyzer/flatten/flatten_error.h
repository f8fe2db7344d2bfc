// How the flatten stage stops on an input error: the finding goes into the
// sink, then FlattenAbort unwinds to flatten() (flattener.h), which returns
// null. Shared by the files of the stage (lookup, flattener); never leaves
// the stage.
#pragma once

#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "common/rules.h"
#include "common/source.h"

namespace modeaudit::flat {

struct FlattenAbort {};

[[noreturn]] inline void fail(DiagnosticSink& sink, const Rule& r, SourceRange where, std::string msg,
                              std::vector<std::string> notes = {}) {
    sink.report(r, where, std::move(msg), std::move(notes));
    throw FlattenAbort{};
}

}  // namespace modeaudit::flat
