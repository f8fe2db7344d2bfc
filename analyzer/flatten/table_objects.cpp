#include "flatten/table_objects.h"

#include "flatten/flattener_impl.h"

#include <fmt/format.h>

namespace modeaudit::flat {

namespace {

constexpr std::string_view kInitPrefix = "ModelicaStandardTables_CombiTable1D_init";
constexpr std::string_view kGetValue = "ModelicaStandardTables_CombiTable1D_getValue";

bool extends_external_object(const ast::ClassDef& cls) {
    for (const ast::Element& el : cls.elements)
        if (el.kind == ast::Element::Kind::Extends && el.extends->base.dotted() == "ExternalObject") return true;
    return false;
}

// The line through rows i and i + 1 (0-based), at u.
GiNaC::ex segment(const Table1D& t, std::size_t i, std::size_t col, const GiNaC::ex& u) {
    const GiNaC::ex& x0 = t.rows[i][0];
    const GiNaC::ex& x1 = t.rows[i + 1][0];
    const GiNaC::ex& y0 = t.rows[i][col];
    const GiNaC::ex& y1 = t.rows[i + 1][col];
    return y0 + (y1 - y0) / (x1 - x0) * (u - x0);
}

}  // namespace

const ast::ClassDef* external_object_constructor(const ast::ClassDef& cls) {
    for (const ast::Element& el : cls.elements)
        if (el.kind == ast::Element::Kind::Class && el.class_def && el.class_def->name == "constructor")
            return el.class_def.get();
    return nullptr;
}

bool is_table1d_class(const ast::ClassDef& cls) {
    if (!extends_external_object(cls)) return false;
    const ast::ClassDef* ctor = external_object_constructor(cls);
    return ctor && ctor->external_clause && ctor->external_name.starts_with(kInitPrefix);
}

bool is_table1d_value_function(const ast::ClassDef& fn) {
    return fn.kind == ast::ClassKind::Function && fn.external_clause && fn.external_name == kGetValue;
}

std::string table_problem(const Table1D& t) {
    if (t.rows.empty() || t.rows[0].empty()) return "the table is an empty matrix";
    const std::size_t ncols = t.rows[0].size();
    if (t.columns.empty()) return "no table column is selected ('columns' is empty)";
    for (long c : t.columns)
        if (c < 1 || static_cast<std::size_t>(c) > ncols)
            return fmt::format("column {} is selected, but the table has {} column{}", c, ncols, ncols == 1 ? "" : "s");
    if (t.rows.size() == 1) return "";  // a single row: the value is that row's, whatever the interpolation
    std::optional<GiNaC::numeric> previous;
    for (std::size_t i = 0; i < t.rows.size(); ++i) {
        const std::optional<GiNaC::numeric> x = numeric_value(t.rows[i][0]);
        if (!x || !x->is_real())
            return fmt::format("the abscissa table[{}, 1] = {} is not a number known when flattening", i + 1,
                               canonical(t.rows[i][0]));
        if (previous && !(*x > *previous))
            return fmt::format("the abscissa is not strictly increasing: table[{}, 1] = {} follows {}", i + 1,
                               canonical(t.rows[i][0]), canonical(t.rows[i - 1][0]));
        previous = *x;
    }
    if (t.smoothness != "LinearSegments")
        return fmt::format("smoothness = {} is not supported; only LinearSegments (and any smoothness for a table "
                           "of one row)",
                           t.smoothness);
    if (t.extrapolation != "LastTwoPoints" && t.extrapolation != "HoldLastPoint")
        return fmt::format("extrapolation = {} is not supported; only LastTwoPoints and HoldLastPoint",
                           t.extrapolation);
    return "";
}

GiNaC::ex table_value(const Table1D& t, long icol, const GiNaC::ex& u) {
    const auto col = static_cast<std::size_t>(t.columns.at(static_cast<std::size_t>(icol - 1)) - 1);
    const std::size_t n = t.rows.size();
    if (n == 1) return t.rows[0][col];
    // From the last segment down: segment i holds from its left breakpoint
    // on; the first and last segments continue beyond the table.
    GiNaC::ex y = segment(t, n - 2, col, u);
    for (std::size_t i = n - 2; i-- > 0;) y = ma_select_ge(u - t.rows[i + 1][0], y, segment(t, i, col, u));
    if (t.extrapolation == "HoldLastPoint")
        y = ma_select(t.rows[0][0] - u, t.rows[0][col], ma_select(u - t.rows[n - 1][0], t.rows[n - 1][col], y));
    return y;
}

}  // namespace modeaudit::flat

namespace modeaudit::flat_impl {

namespace {

// The inputs a function declares itself, in order (the table functions
// inherit none).
std::vector<std::string> input_names(const ast::ClassDef& fn) {
    std::vector<std::string> out;
    for (const ast::Element& el : fn.elements)
        if (el.kind == ast::Element::Kind::Component && el.component->prefix.input)
            for (const ast::ComponentDecl& decl : el.component->decls) out.push_back(decl.name);
    return out;
}

// The value of a String argument when flattening: a literal, or an
// if-expression whose conditions are decided by parameters.
std::optional<bool> decided(const ast::Expr& e, const std::function<ConditionPtr(const ast::Expr&)>& cond) {
    using K = ast::ExprKind;
    if (e.kind == K::Boolean) return e.boolean;
    if (e.kind == K::Ref) {
        ConditionPtr c = cond(e);
        if (c->kind == Condition::Kind::Constant) return c->value;
        return std::nullopt;
    }
    if (e.kind == K::Unary && e.uop == ast::UnaryOp::Not) {
        auto a = decided(*e.operands[0], cond);
        return a ? std::optional<bool>(!*a) : std::nullopt;
    }
    if (e.kind == K::Binary && (e.bop == ast::BinaryOp::And || e.bop == ast::BinaryOp::Or)) {
        const bool is_and = e.bop == ast::BinaryOp::And;
        auto a = decided(*e.operands[0], cond);
        if (a && *a != is_and) return *a;  // false and ..., true or ...
        auto b = decided(*e.operands[1], cond);
        if (b && *b != is_and) return *b;
        if (a && b) return is_and;
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> Flattener::string_constant(const ast::Expr& e, const Ctx& ctx) {
    if (e.kind == ast::ExprKind::String) return e.text;
    if (e.kind != ast::ExprKind::If) return std::nullopt;
    auto cond = [&](const ast::Expr& c) { return fold(condition(c, ctx)); };
    for (std::size_t k = 0; k + 1 < e.operands.size(); k += 2) {
        std::optional<bool> d = decided(*e.operands[k], cond);
        if (!d) return std::nullopt;
        if (*d) return string_constant(*e.operands[k + 1], ctx);
    }
    return string_constant(*e.operands.back(), ctx);
}

bool Flattener::table_object_member(Member& m, Instance& child, const TypeInfo& type, ModPtr mod,
                                    const ast::ComponentDecl& d) {
    if (!is_table1d_class(*type.cls.cls)) return false;
    m.object = &child;
    child.cls = type.cls.cls;
    child.lex = type.cls.lex;
    tables_[&child] = PendingTable{mod, type.cls, d.range, std::nullopt};
    return true;
}

// The name of literal `position` (1-based) of the enumeration that input
// `input` of the table's constructor has.
std::string Flattener::table_literal(const PendingTable& p, const std::string& input, long position,
                                     SourceRange where) {
    const ast::ClassDef* ctor = external_object_constructor(*p.cls.cls);
    ast::ComponentRef ctor_ref;
    ctor_ref.parts.push_back(ast::NamePart{"constructor", {}, where});
    const ClassHit ctor_hit = lookup_class(ctor_ref, p.cls.lex);
    for (const ast::Element& el : ctor->elements) {
        if (el.kind != ast::Element::Kind::Component) continue;
        for (const ast::ComponentDecl& decl : el.component->decls) {
            if (decl.name != input) continue;
            const ClassHit e = lookup_class(el.component->type_name, ctor_hit.lex);
            if (!e.cls->is_enumeration || position < 1 ||
                static_cast<std::size_t>(position) > e.cls->enumeration_literals.size())
                break;
            return e.cls->enumeration_literals[static_cast<std::size_t>(position - 1)];
        }
    }
    fail(rule::flatten_unsupported_construct, where,
         fmt::format("the table constructor's input '{}' = {} is not a literal of an enumeration", input, position));
}

const Table1D& Flattener::table_of(Instance& object, SourceRange use) {
    PendingTable& p = tables_.at(&object);
    if (p.table) return *p.table;
    if (!p.mod || !p.mod->binding || p.mod->binding->kind != ast::ExprKind::Call)
        fail(rule::flatten_unsupported_construct, p.declaration,
             fmt::format("the table object '{}' is not given by a call of its constructor", object.path),
             {fmt::format("used at {}:{}", use.begin.line, use.begin.column)});
    const ast::Expr& call = *p.mod->binding;
    Ctx bctx;
    bctx.inst = p.mod->binding_scope;
    bctx.lex = p.mod->binding_lex;
    // The constructor's inputs, in order, for positional arguments.
    const std::vector<std::string> inputs = input_names(*external_object_constructor(*p.cls.cls));
    std::map<std::string, const ast::FunctionArg*> args;
    std::size_t pos = 0;
    for (const ast::FunctionArg& a : call.args) {
        const std::string name = a.name.empty() ? (pos < inputs.size() ? inputs[pos++] : std::string()) : a.name;
        if (name.empty())
            fail(rule::flatten_type_mismatch, a.range,
                 fmt::format("too many arguments for the constructor of '{}'", p.cls.cls->name));
        args[name] = &a;
    }
    auto need = [&](const char* name) -> const ast::Expr& {
        auto it = args.find(name);
        if (it == args.end())
            fail(rule::flatten_type_mismatch, call.range,
                 fmt::format("the table object '{}' is constructed without its input '{}'", object.path, name));
        return *it->second->value;
    };
    if (auto it = args.find("fileName"); it != args.end()) {
        const std::optional<std::string> file = string_constant(*it->second->value, bctx);
        if (!file)
            fail(rule::flatten_unsupported_construct, it->second->range,
                 fmt::format("the file name of table '{}' is not a string known when flattening", object.path));
        if (!file->empty() && *file != "NoName")
            fail(rule::flatten_unsupported_construct, it->second->range,
                 fmt::format("table '{}' is read from the file \"{}\"; tables read from files are not supported",
                             object.path, *file),
                 {"give the table as a matrix (the table parameter) and leave fileName = \"NoName\""});
    }
    Table1D t;
    const Value table = value(need("table"), bctx);
    if (table.dims.size() != 2)
        fail(rule::flatten_type_mismatch, need("table").range,
             fmt::format("the table of '{}' must be a matrix; it has shape {}", object.path, table.shape()));
    for (std::size_t i = 0; i < table.dims[0]; ++i)
        t.rows.emplace_back(table.elems.begin() + static_cast<long>(i * table.dims[1]),
                            table.elems.begin() + static_cast<long>((i + 1) * table.dims[1]));
    const Value columns = value(need("columns"), bctx);
    for (const ex& c : columns.elems) {
        const std::optional<GiNaC::numeric> n = numeric_value(c);
        if (!n || !n->is_integer())
            fail(rule::flatten_type_mismatch, need("columns").range,
                 fmt::format("the columns of table '{}' must be integers known when flattening", object.path));
        t.columns.push_back(n->to_long());
    }
    if (args.count("smoothness"))
        t.smoothness = table_literal(p, "smoothness", integer(need("smoothness"), bctx, "the table's smoothness"),
                                     need("smoothness").range);
    if (args.count("extrapolation"))
        t.extrapolation = table_literal(p, "extrapolation",
                                        integer(need("extrapolation"), bctx, "the table's extrapolation"),
                                        need("extrapolation").range);
    if (const std::string problem = table_problem(t); !problem.empty())
        fail(rule::flatten_unsupported_construct, call.range, fmt::format("table '{}': {}", object.path, problem),
             {fmt::format("used at {}:{}", use.begin.line, use.begin.column)});
    p.table = std::move(t);
    return *p.table;
}

Flattener::Output Flattener::table_call(const ast::ClassDef& fn, const ast::Expr& call, const Ctx& ctx) {
    // The value function's inputs are (tableID, icol, u).
    const std::vector<std::string> inputs = input_names(fn);
    if (inputs.size() != 3)
        fail(rule::flatten_unsupported_construct, call.range,
             fmt::format("'{}' reads a table but does not have the inputs (table, column, abscissa)", fn.name));
    std::vector<const ast::Expr*> given(3, nullptr);
    std::size_t pos = 0;
    for (const ast::FunctionArg& a : call.args) {
        std::size_t k = pos;
        if (a.name.empty()) ++pos;
        else k = static_cast<std::size_t>(std::find(inputs.begin(), inputs.end(), a.name) - inputs.begin());
        if (k >= 3) fail(rule::flatten_type_mismatch, a.range, fmt::format("'{}' takes 3 arguments", fn.name));
        given[k] = a.value.get();
    }
    for (std::size_t k = 0; k < 3; ++k)
        if (!given[k])
            fail(rule::flatten_type_mismatch, call.range, fmt::format("'{}' needs its input '{}'", fn.name, inputs[k]));
    Instance* object = nullptr;
    if (given[0]->kind == ast::ExprKind::Ref) {
        Resolved r = resolve(given[0]->ref, ctx);
        if (r.member && r.member->kind == Member::Kind::Object && tables_.count(r.member->object))
            object = r.member->object;
    }
    if (!object)
        fail(rule::flatten_unsupported_construct, given[0]->range,
             fmt::format("'{}' is not a table object declared in the model", ast::to_modelica(*given[0])));
    const Table1D& t = table_of(*object, call.range);
    const long icol = integer(*given[1], ctx, "the table column");
    if (icol < 1 || static_cast<std::size_t>(icol) > t.columns.size())
        fail(rule::flatten_invalid_value, given[1]->range,
             fmt::format("column {} of table '{}' is read, but it has {} output column{}", icol, object->path,
                         t.columns.size(), t.columns.size() == 1 ? "" : "s"));
    Output out;
    out.value = Value::scalar(table_value(t, icol, scalar(*given[2], ctx, "the table's abscissa")));
    return out;
}

}  // namespace modeaudit::flat_impl
