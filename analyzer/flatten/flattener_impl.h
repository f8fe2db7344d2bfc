// Internal to the flatten stage: the Flattener's state and its methods
// (declarations), shared by the files that implement it, one concept each
// (flattener.cpp lists them).
//
// Not an interface: flattener.h is the stage's entry point. The class is
// here only so that one concept's methods can live in the file of that
// concept.
#pragma once

#include <fmt/format.h>

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "flatten/condition_semantics.h"
#include "flatten/connections.h"
#include "flatten/expression_builder.h"
#include "flatten/final_modifiers.h"
#include "flatten/flatten_error.h"
#include "flatten/flattener.h"
#include "flatten/function_compiler.h"
#include "flatten/implicit_ranges.h"
#include "flatten/initial_pre.h"
#include "flatten/inner_outer.h"
#include "flatten/instance.h"
#include "flatten/lookup.h"
#include "flatten/records.h"
#include "flatten/redeclaration.h"
#include "flatten/table_objects.h"
#include "parse/ast_print.h"

namespace modeaudit::flat_impl {

using namespace flat;
using GiNaC::ex;

struct TypeInfo {
    bool builtin = false;
    BaseType base = BaseType::Real;
    const ast::ClassDef* enumeration = nullptr;  // builtin Integer standing for this enumeration type
    ClassHit cls;                  // structured classes
    ModPtr mod;                    // accumulated through short class definitions
    std::vector<long> dims;        // from short class definitions (`type V3 = Real[3]`)
    ast::TypePrefix prefix;        // from short class definitions (`= input Real`)
    bool is_connector = false;
};

// A lazily evaluated parameter/constant value.
struct ParamState {
    enum class State { Pending, InProgress, Done } state = State::Pending;
    const ast::Expr* binding = nullptr;
    Instance* scope = nullptr;
    std::vector<Selector> path;      // the part of the binding's value taken
    const LexScope* lex = nullptr;   // where the binding is written
    ex value;
    bool has_value = false;
    SourceRange range;
};

// Expression context: where names are looked up, and iterator/local values.
struct Ctx {
    Instance* inst = nullptr;
    const std::map<std::string, Value>* locals = nullptr;
    const std::map<std::string, ConditionPtr>* bool_locals = nullptr;  // Boolean function variables
    bool in_when = false;        // inside a when-clause body
    bool pre_for_state = false;  // reinit values: variables denote left limits
    bool no_event = false;       // inside noEvent(...): relations are taken literally
    const LexScope* lex = nullptr;  // where the expression is written; null: the instance's class
};

// Of what type an expression is, where that is evident from its form: a
// number, a given enumeration's value, or not known (Boolean, String,
// records, calls) and then not checked (enumeration_types.cpp).
struct ValueType {
    enum class Kind { Unknown, Number, Enumeration } kind = Kind::Unknown;
    const ast::ClassDef* enumeration = nullptr;
};

struct Resolved {
    const Member* member = nullptr;   // a component (possibly array or object)
    std::optional<Value> local;       // an iterator or function local
    std::string name;                 // flat name for messages
    std::vector<Member> selection;    // array slice built from subscripts
    // In connect(): the last part names no declared element of an
    // expandable connector, which the connection then adds (Modelica 3.6,
    // 9.1.3); member is null and this holds the connector instance's path.
    std::optional<std::string> expandable_in;
    std::string element;              // the element's name
};

class Flattener {
public:
    Flattener(const ast::StoredDefinition& tree, const SourceManager& sm, DiagnosticSink& sink,
              const FlattenOptions& options, library::ClassLoader* loader)
        : tree_(tree), sm_(sm), sink_(sink), options_(options), lookup_(tree, loader, sink) {}

    std::unique_ptr<FlatModel> run();

private:
    const ast::StoredDefinition& tree_;
    const SourceManager& sm_;
    DiagnosticSink& sink_;
    const FlattenOptions& options_;
    std::unique_ptr<FlatModel> model_;
    Lookup lookup_;
    std::deque<Instance> instances_;
    std::map<const ast::ClassDef*, Instance*> package_instances_;  // holders of package constants
    std::set<const ast::ClassDef*> checked_classes_;               // refused constructs looked for
    struct DeferredComponent {                                     // conditional: after all other elements
        const LexScope* lex;
        const ast::ComponentClause* clause;
        const ast::ComponentDecl* decl;
        ModPtr mod;
        bool is_protected;
    };
    std::map<Instance*, std::vector<DeferredComponent>> deferred_;
    // Components of an instance not added yet, by name: an array size or a
    // ':' binding that uses one declared further down adds it on demand
    // (declaration order does not matter, Modelica 3.6, 5.3).
    struct Later {
        std::map<std::string, DeferredComponent> pending;
        std::vector<const ast::ClassDef*> stack;  // the instantiation stack of the instance's elements
    };
    std::map<Instance*, Later> later_;
    std::set<std::pair<Instance*, std::string>> adding_;  // components being added
    // Adds a component of `inst` still waiting in later_; false when none.
    bool add_on_demand(Instance& inst, const std::string& name, SourceRange use) {
        auto it = later_.find(&inst);
        auto c = it == later_.end() ? std::map<std::string, DeferredComponent>::iterator{} : it->second.pending.find(name);
        if (it == later_.end() || c == it->second.pending.end()) {
            if (adding_.count({&inst, name}))
                fail(rule::flatten_recursive_class, use,
                     fmt::format("the declaration of '{}' needs its own size or value (through the sizes of other "
                                 "components)",
                                 inst.qualify(name)));
            return false;
        }
        DeferredComponent dc = c->second;
        it->second.pending.erase(c);
        std::vector<const ast::ClassDef*> stack = it->second.stack;
        add_component(inst, dc.lex, *dc.clause, *dc.decl, dc.mod, dc.is_protected, stack);
        return true;
    }
    std::deque<ParamState> params_;    // per flat variable (a deque: references stay valid as it grows)
    std::vector<int> param_stack_;     // parameters being evaluated, outermost first
    std::vector<Instance*> order_;     // instances in creation (pre-)order
    struct PendingSection {
        Instance* inst;
        const ast::EquationSection* eqs = nullptr;
        const ast::AlgorithmSection* alg = nullptr;
        const LexScope* lex = nullptr;  // the class the section is written in
    };
    std::map<Instance*, std::vector<PendingSection>> sections_;
    struct PendingBinding {
        int variable;
        const ast::Expr* expr;
        Instance* scope;
        std::vector<Selector> path;
        SourceRange range;
        const LexScope* lex;
    };
    std::vector<PendingBinding> bindings_;
    struct PendingAttributes {
        int variable;
        ModPtr mod;
        const ast::ComponentDecl* decl;
        const ast::ComponentClause* clause;
        Instance* inst;
    };
    std::vector<PendingAttributes> attributes_;
    std::size_t attributes_done_ = 0;   // attributes_ handled by finish_attributes
    bool attributes_started_ = false;
    bool in_attributes_ = false;        // inside finish_attributes
    std::vector<ConnectRecord> connects_;
    int when_chain_ = 0;
    std::size_t counted_ = 0;  // scalar equations so far, counting one branch per dynamic if-equation
    std::vector<const ast::ClassDef*> function_stack_;
    std::vector<std::string> call_notes_;  // "in the call f(1, 0) at 12:5", innermost last
    std::size_t inline_steps_ = 0;         // loop iterations of the outermost symbolic inlining
    // Inlined calls and their loop iterations over the whole model: the
    // per-call caps above bound one call, not a chain of functions each
    // calling the previous twice (2^30 calls, each within the caps).
    std::size_t function_work_ = 0;
    // One unit of that work (a call entered or a loop iteration), or
    // LimitExceeded past FlattenOptions::max_function_work.
    void count_function_work(const ast::ClassDef& f, SourceRange where);
    // flatten-invalid-value at `range` when `value` is a number outside the
    // range of an IEEE double (values.cpp); `what` names it in the message.
    void check_double_range(const ex& value, SourceRange range, const std::string& what);
    // x^y; for two exact numbers whose exact power would be huge, its double.
    ex power_value(const ex& x, const ex& y, const ast::Expr& e);

    // The flattener's services for the function compiler (function_compiler.h).
    class Host : public FunctionHost {
    public:
        explicit Host(Flattener& f) : f_(f) {}
        [[noreturn]] void refuse(const Rule& r, SourceRange where, std::string msg) override {
            f_.fail(r, where, std::move(msg));
        }
        ClassHit find_class(const ast::ComponentRef& ref, const LexScope* from) override {
            return f_.lookup_class(ref, from);
        }
        double constant(const ast::Expr& ref, const LexScope* from) override {
            Ctx c;
            c.lex = from;
            ex v = f_.scalar(ref, c, "a name in a function");
            auto n = numeric_value(v);
            if (!n || !n->is_real())
                f_.fail(rule::flatten_unsupported_construct, ref.range,
                        fmt::format("'{}' in a function is not a variable of the function nor a constant with a value",
                                    ast::to_modelica(ref)));
            return n->to_double();
        }
        void check_class(const ast::ClassDef& cls) override { f_.refuse_unsupported_in(cls); }
        std::vector<RecordLeaf> record_leaves(ClassHit record, SourceRange where) override {
            return f_.record_leaves(record, where);
        }

    private:
        Flattener& f_;
    };
    Host host_{*this};

    // ---- diagnostics
    [[noreturn]] void fail(const Rule& r, SourceRange where, std::string msg,
                           std::vector<std::string> notes = {}) {
        // The calls being inlined, innermost first; a deep chain (recursion)
        // shows its innermost calls and the outermost one.
        const std::size_t n = call_notes_.size();
        for (std::size_t k = 0; k < n; ++k) {
            if (n > 6 && k == 4) {
                notes.push_back(fmt::format("... {} more calls", n - 5));
                k = n - 1;
            }
            notes.push_back(call_notes_[n - 1 - k]);
        }
        flat::fail(sink_, r, where, std::move(msg), std::move(notes));
    }

    // ---- classes (lookup.h)
    const LexScope* top_scope() { return lookup_.top_scope(); }
    std::optional<ClassHit> lookup_first(const std::string& name, const LexScope* from) {
        return lookup_.lookup_first(name, from);
    }
    ClassHit lookup_class(const ast::ComponentRef& ref, const LexScope* from) { return lookup_.lookup_class(ref, from); }
    // Where names of an expression are looked up.
    const LexScope* lex_of(const Ctx& ctx) {
        if (ctx.lex) return ctx.lex;
        if (ctx.inst && ctx.inst->lex) return ctx.inst->lex;
        return lookup_.file_scope();
    }
    void check_enumeration_literals(const ast::ClassDef& e);
    TypeInfo resolve_type(const ast::ComponentRef& ref, const LexScope* from,
                          std::vector<const ast::ClassDef*>& stack, SourceRange where);
    ModPtr to_mod(const ast::Modification* m, Instance* scope, const LexScope* lex = nullptr);
    // Refuses, with their locations, the constructs outside the subset
    // written in this class (its nested classes excluded), once: called
    // when the model uses the class.
    void refuse_unsupported_in(const ast::ClassDef& cls);
    // The instance holding the constants of a package (or of another class
    // whose constants are used from outside it), created on first use; its
    // constants are added one by one as they are used.
    Instance* package_instance(const ClassHit& pkg);
    const Member& package_member(const NameHit& hit, SourceRange use);

    // ---- instantiation
    void instantiate(Instance& inst, ClassHit hit, ModPtr mod, std::vector<const ast::ClassDef*>& stack,
                     SourceRange where);
    void add_elements(Instance& inst, ClassHit hit, ModPtr mod, std::vector<const ast::ClassDef*>& stack,
                      SourceRange where);
    void add_component(Instance& inst, const LexScope* lex, const ast::ComponentClause& cc,
                       const ast::ComponentDecl& d, ModPtr outer, bool is_protected,
                       std::vector<const ast::ClassDef*>& stack);
    // A redeclared component's class against its constraining type (redeclaration.h).
    void check_replacement(Instance& inst, const ast::ComponentClause& original, const ast::ComponentDecl& d,
                           const LexScope* lex, const Redeclaration& redecl, const TypeInfo& t);
    // An outer modification of what is final (7.2.6).
    [[noreturn]] void refuse_final(const std::string& element, const FinalViolation& v) {
        std::string what = v.path.empty() ? element : element.empty() ? v.path : element + "." + v.path;
        fail(rule::flatten_type_mismatch, v.modified.valid() ? v.modified : v.final_at,
             fmt::format("'{}' is final and cannot be modified here (Modelica 3.6, 7.2.6)", what),
             {fmt::format("made final at {}:{}", v.final_at.begin.line, v.final_at.begin.column)});
    }
    // Conditional components (4.4.5): each condition is evaluated once the
    // instance's other elements exist; a false one leaves the component out.
    void add_conditional_components(Instance& inst, std::vector<const ast::ClassDef*>& stack);
    // True when a reference goes through a conditional component that is absent.
    bool through_absent(const ast::ComponentRef& ref, const Ctx& ctx);
    Member make_member(Instance& inst, const std::string& name, const std::vector<long>& dims,
                       std::size_t level, const TypeInfo& type, ModPtr mod, const ast::TypePrefix& prefix,
                       const ast::ComponentClause& cc, const ast::ComponentDecl& d, bool is_protected,
                       std::vector<const ast::ClassDef*>& stack);
    int make_variable(Instance& inst, const std::string& name, const TypeInfo& type, ModPtr mod,
                      const ast::TypePrefix& prefix, const ast::ComponentClause& cc,
                      const ast::ComponentDecl& d, bool is_protected);

    // ---- inner and outer (inner_outer.h)
    // An `outer` component: the Member of the inner element it refers to.
    // `inner outer`: the modifiers are the inner part's (`modifiable`).
    void add_outer(Instance& inst, const LexScope* lex, const ast::ComponentClause& cc, const ast::ComponentDecl& d,
                   ModPtr outer, std::vector<const ast::ClassDef*>& stack, bool modifiable = false);
    // Makes the component just added (`inner x`, or `inner outer x`) the
    // inner element of `inst` for the outer elements below it.
    void register_inner(Instance& inst, const LexScope* lex, const ast::ComponentClause& cc,
                        const ast::ComponentDecl& d, const TypeInfo& t, std::vector<const ast::ClassDef*>& stack);

    // ---- records (records.h)
    // The scalar fields of a record class, for a record input of a function.
    std::vector<RecordLeaf> record_leaves(ClassHit record, SourceRange where);
    // The class a call constructs when it is a record constructor (12.6).
    std::optional<TypeInfo> record_constructor(const ast::Expr& call, const Ctx& ctx);
    // A binding of a whole record component, as modifiers of its fields.
    ModPtr record_binding_mods(const ModPtr& mod, ClassHit cls, const std::string& target);
    // Where the selectors path[from..] lead from the value of `e`: a
    // component (through a reference), or an expression whose value still
    // takes the index selectors `rest`.
    struct Reached {
        const Member* member = nullptr;
        std::string name;
        const ast::Expr* expr = nullptr;
        Ctx ctx;
        std::vector<Selector> rest;
    };
    Reached reach(const ast::Expr& e, const Ctx& ctx, const std::vector<Selector>& path, std::size_t from,
                  SourceRange where);
    // The same from a record constructed by the constructor of `rec` with
    // the arguments `args` (written in `actx`) and the short class
    // modifiers `defaults`: path[from] names one of its fields.
    Reached reach_constructed(ClassHit rec, const std::map<std::string, const ast::Expr*>& args, const Ctx& actx,
                              const ModPtr& defaults, const std::vector<Selector>& path, std::size_t from,
                              SourceRange where, const std::string& what);
    // The part `path` of the value of a binding, a number (or array) or a condition.
    Value selected_value(const ast::Expr& e, const Ctx& ctx, const std::vector<Selector>& path, SourceRange where,
                         const std::string& target);
    ConditionPtr selected_condition(const ast::Expr& e, const Ctx& ctx, const std::vector<Selector>& path,
                                    SourceRange where, const std::string& target);
    // The condition a Boolean variable stands for (a constant for a parameter).
    ConditionPtr variable_condition(int v, SourceRange use);
    // Whether an expression has a record value (a record component, a constructor call).
    bool record_valued(const ast::Expr& e, const Ctx& ctx);
    std::deque<std::map<std::string, Value>> record_locals_;  // a constructor's fields, for its defaults

    // A conditional component of the instance still waiting for its condition.
    bool redeclared_conditional(Instance& inst, const std::string& name) {
        auto it = deferred_.find(&inst);
        if (it == deferred_.end()) return false;
        for (const DeferredComponent& dc : it->second)
            if (dc.decl->name == name) return true;
        return false;
    }

    // Every argument of a modification must name a component of the instance.
    void check_modifier_names(Instance& inst, const ModPtr& mod) {
        if (!mod) return;
        for (const std::string& name : mod->arg_order)
            if (!inst.members.count(name) && !inst.absent().count(name) && !redeclared_conditional(inst, name))
                fail(rule::flatten_undefined_name, mod->args.at(name)->range,
                     fmt::format("'{}' has no component '{}' to modify", inst.cls ? inst.cls->name : inst.path, name));
    }

    // ---- values
    ex param_value(int v, SourceRange use);
    void initial_parameter(int v, const ast::Statement& s, const Ctx& ctx, GiNaC::exmap& current);
    void initial_discrete(int v, const ast::Statement& s, const Ctx& ctx, GiNaC::exmap& current);
    // The start value `e` gives a discrete variable of `type` (Boolean or
    // Integer) when it is known when flattening (an Integer's after `subs`):
    // 1 or 0, or the integer; nullopt otherwise, with `got` what an
    // Integer's value came to.
    std::optional<ex> known_discrete_start(BaseType type, const ast::Expr& e, const Ctx& ctx,
                                           const GiNaC::exmap& subs, ex& got);
    ex variable_ex(int v, const Ctx& ctx, SourceRange use);
    Resolved resolve(const ast::ComponentRef& ref, const Ctx& ctx);
    Value member_value(const Member& m, const Ctx& ctx, SourceRange use, const std::string& name);
    Value value(const ast::Expr& e, const Ctx& ctx);
    ex scalar(const ast::Expr& e, const Ctx& ctx, const char* what);
    long integer(const ast::Expr& e, const Ctx& ctx, const char* what);
    Value call_value(const ast::Expr& e, const Ctx& ctx);
    // cat(k, A, B, ...) (array_concatenation.h).
    Value concatenation(const ast::Expr& e, const Ctx& ctx);
    // One output of a user function: a number (or array) or a Boolean condition.
    struct Output {
        std::optional<Value> value;
        ConditionPtr condition;
    };
    // Every output of a user function call, inlined symbolically where the
    // body's control flow is decided when flattening, otherwise as a call
    // of the compiled function (function_call.h).
    std::vector<Output> function_outputs(const ast::Expr& call, const Ctx& ctx);
    std::vector<Output> inline_function(const ClassHit& fn, const ast::Expr& call, const Ctx& ctx);
    std::vector<Output> numeric_call(const ClassHit& fn, const FunctionParts& parts, const std::vector<Output>& inputs,
                                     const ast::Expr& call);
    // ---- enumeration types (enumeration_types.cpp)
    std::vector<const ast::ClassDef*> variable_enumeration_;  // per flat variable; null: not an enumeration
    ValueType value_type(const ast::Expr& e, const Ctx& ctx);
    ValueType variable_type(int v);
    // Modelica 3.6, 4.8.5: an enumeration value is not a number, and the
    // values of two enumeration types do not mix: a binding of another
    // type, or a comparison across types, is an error.
    void check_binding_type(int v);
    void check_comparison_types(const ast::Expr& relation, const Ctx& ctx);
    // ---- table objects (table_objects.h)
    struct PendingTable {
        ModPtr mod;                   // the declaration's modification: its binding calls the constructor
        ClassHit cls;                 // the external object class
        SourceRange declaration;
        std::optional<Table1D> table; // read on first use
    };
    std::map<const Instance*, PendingTable> tables_;
    // A component of a table object class: recorded (its constructor's
    // arguments are read on first use); false for another class.
    bool table_object_member(Member& m, Instance& child, const TypeInfo& type, ModPtr mod, const ast::ComponentDecl& d);
    std::string table_literal(const PendingTable& p, const std::string& input, long position, SourceRange where);
    const Table1D& table_of(Instance& object, SourceRange use);
    // A call of the table's value function: the interpolation at its abscissa.
    Output table_call(const ast::ClassDef& fn, const ast::Expr& call, const Ctx& ctx);
    // A String argument known when flattening (a literal, or an
    // if-expression decided by parameters); nullopt otherwise.
    std::optional<std::string> string_constant(const ast::Expr& e, const Ctx& ctx);
    // A user function's class, if `call` calls one (not a built-in).
    std::optional<ClassHit> user_function(const ast::Expr& call, const Ctx& ctx);
    ConditionPtr condition(const ast::Expr& e, const Ctx& ctx);
    ConditionPtr fold(ConditionPtr c);
    ex total_derivative(const ex& e, SourceRange where);
    std::vector<long> range_values(const ast::Expr& e, const Ctx& ctx);
    // The number of literals when `e` names an enumeration type (an array
    // dimension `x[E]`, a range `for e in E`), nullopt otherwise.
    std::optional<long> enumeration_extent(const ast::Expr& e, const Ctx& ctx);
    // The body of a loop or comprehension, where an implicit range
    // (`for i loop`, implicit_ranges.h) is deduced from.
    struct LoopBody {
        const std::vector<ast::Equation>* equations = nullptr;
        const std::vector<ast::Statement>* statements = nullptr;
        const ast::Expr* expr = nullptr;
    };
    std::vector<std::map<std::string, Value>> iterations(const std::vector<ast::ForIterator>& its,
                                                         const Ctx& ctx, const LoopBody& body);
    // The values of `it` in its loop: its range, or the one its uses as
    // subscripts in `body` imply.
    std::vector<long> iterator_values(const ast::ForIterator& it, const LoopBody& body, const Ctx& ctx);
    // The size of the dimension an implicit iterator subscripts in one use.
    long subscripted_extent(const IteratorUse& use, const Ctx& ctx);
    int new_condition(ConditionPtr c, SourceRange where);
    // An Integer discrete variable defined by an equation outside when
    // (`mode = if ... then Forward else Stuck;`): recorded as an
    // IntegerDefinition when its value reads only discrete quantities and
    // conditions.
    void define_integer(int variable, const ast::Expr& rhs, const Ctx& ctx, SourceRange where);
    // The body an if-equation or if-statement selects when its conditions
    // are parameter expressions; `refusal` when one is not. Null when no
    // branch holds.
    template <typename Body>
    const std::vector<Body>* static_branch(const std::vector<ast::Branch<Body>>& branches, const Ctx& ctx,
                                           const std::string& refusal) {
        for (const auto& br : branches) {
            if (!br.condition) return &br.body;
            ConditionPtr c = fold(condition(*br.condition, ctx));
            if (c->kind != Condition::Kind::Constant) fail(rule::flatten_unsupported_construct, br.condition->range, refusal);
            if (c->value) return &br.body;
        }
        return nullptr;
    }

    // Runs `body` once per iteration of `for i in r, j in q`, with the
    // iterators bound in the context it gets.
    void for_each_iteration(const std::vector<ast::ForIterator>& its, const LoopBody& loop, const Ctx& ctx,
                            const std::function<void(const Ctx&)>& body) {
        for (const auto& env : iterations(its, ctx, loop)) {
            std::map<std::string, Value> locals = ctx.locals ? *ctx.locals : std::map<std::string, Value>{};
            for (const auto& [k, v] : env) locals[k] = v;
            Ctx inner = ctx;
            inner.locals = &locals;
            body(inner);
        }
    }

    // ---- equations
    struct EqCtx {
        Ctx ctx;
        std::vector<std::pair<int, bool>> active;
        bool initial = false;
    };
    void equations(const std::vector<ast::Equation>& eqs, const EqCtx& ec);
    void equation(const ast::Equation& eq, const EqCtx& ec);
    // `r1 = r2`, `r = R(...)`: one equation per scalar field.
    void record_equation(const ast::Equation& eq, const EqCtx& ec);
    // An Integer discrete variable defined by a value (define_integer).
    void define_integer_value(int variable, const ex& value, SourceRange where);
    // `(a, b) = f(x)`: one equation per named output.
    void tuple_equation(const ast::Expr& lhs, const ast::Expr& rhs, const ast::Equation* src, SourceRange where,
                        const EqCtx& ec);
    void add_equation(const Value& l, const Value& r, const ast::Equation* src, SourceRange where,
                      const EqCtx& ec, const std::string& origin);
    // `pre(y) = e` in an initial equation, y a discrete Boolean or Integer:
    // sets y's start (initial_pre.h); false when y is of another kind.
    bool initial_pre(const InitialPre& ip, const ast::Equation& eq, const Ctx& ctx);
    void when_clause(const std::vector<ast::Branch<ast::Equation>>* eqb,
                     const std::vector<ast::Branch<ast::Statement>>* stb, const EqCtx& ec,
                     SourceRange where);
    void when_equations(const std::vector<ast::Equation>& body, FlatWhen& w, const Ctx& ctx);
    // `v = e` in a when-clause with v a Real variable not declared discrete:
    // a discrete assignment or a restart constraint, decided at the end.
    struct WhenAssignedReal {
        std::size_t when, action;
        int variable;
    };
    std::vector<WhenAssignedReal> when_assigned_reals_;
    void settle_when_assigned_reals();
    void report_restart_constraint(SourceRange where);
    void when_statements(const std::vector<ast::Statement>& body, FlatWhen& w, const Ctx& ctx);
    void reinit_action(const ast::Expr& call, FlatWhen& w, const Ctx& ctx);
    void when_call(const ast::Expr& call, SourceRange where, FlatWhen& w, const Ctx& ctx);
    void assert_action(const ast::Expr& call, FlatWhen* w, const EqCtx& ec);
    void algorithm(const ast::AlgorithmSection& sec, Instance* inst, const LexScope* lex);
    void connect(const ast::Equation& eq, const EqCtx& ec);
    bool connecting_ = false;  // inside connect(): a conditional component may be named
    std::vector<std::string> suppressions(const ast::Modification* annotation, const Ctx& ctx);

    // ---- finishing
    void finish_attributes();
    void process_attributes();  // the attributes not handled yet
    void finish_bindings();
    void read_model_annotations(const ast::ClassDef& cls, Instance* inst);
    void walk_sections(Instance* inst);
};

}  // namespace modeaudit::flat_impl
