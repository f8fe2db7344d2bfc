// inner and outer elements (Modelica 3.6, 5.4).
//
// Part of the flatten stage, used while instantiating. An element declared
// `outer x` is no new variable: it denotes the element `x` declared `inner`
// in the nearest enclosing instance (the instance hierarchy, not the class
// nesting: the search starts at the instance holding the outer element's
// instance, and goes up to the model). The flattener gives the outer
// component the inner element's Member (its variables, or its object), so
// that references through it (`world.g`, `T_ambient`) read the inner
// element, whose equations appear once.
//
// `inner outer x` is both: references to x in its own instance go to the
// inner element further up (the outer part), and outer elements below it
// find a new element of its own (the inner part, Instance::inner_parts).
//
// An outer element without an inner one is refused (flatten-undefined-name,
// at the outer declaration): the specification lets a tool add the missing
// inner element with a warning, but a model audited that way would not be
// the model the user runs in a complete system, so modeaudit asks for it.
// An outer declaration takes no modification (5.4), and the inner element's
// type must have every public component of the outer's.
//
// inner_outer.cpp also implements the Flattener's part (flattener_impl.h:
// add_outer, register_inner).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "flatten/instance.h"
#include "flatten/lookup.h"

namespace modeaudit::flat {

// The inner element `name` that an outer element of `inst` refers to: the
// one of the nearest instance above `inst`. `add_pending(up)` is asked, for
// each instance `up` on the way that has not instantiated its element
// `name` yet, to add it if its declaration is inner; it returns whether it
// did. Null when no instance above declares `name` inner.
const InnerElement* find_inner(Instance& inst, const std::string& name,
                               const std::function<bool(Instance&)>& add_pending);

// Why the outer declaration (of the built-in type `base`, or of class
// `outer_class`) cannot refer to `inner`; nullopt when it can.
std::optional<std::string> inner_type_refusal(Lookup& lookup, const std::string& name, bool outer_builtin,
                                              int outer_base, ClassHit outer_class, const std::string& outer_type,
                                              const InnerElement& inner);

}  // namespace modeaudit::flat
