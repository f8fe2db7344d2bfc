// Shared wording of the restart rules: how a transition is named in notes.
#pragma once

#include <fmt/format.h>

#include <string>

#include "modes/modes.h"
#include "restart/verdict.h"

namespace modeaudit::restart_rules {

inline std::string transition_note(const ModeSet& modes, const Transition& t) {
    return fmt::format("transition {} -> {} is triggered by a {} event (guard {})",
                       modes.modes[static_cast<std::size_t>(t.from)].id, modes.modes[static_cast<std::size_t>(t.to)].id,
                       t.trigger == Transition::Trigger::State ? "state" : "time", t.guard_text);
}

}  // namespace modeaudit::restart_rules
