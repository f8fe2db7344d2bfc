// Unit tests of the parser (analyzer/parse/parser.h) and of the AST printer
// (analyzer/parse/ast_print.h).
//
// Tree shapes are checked through shape(), an S-expression written here
// independently of to_modelica(), so that a precedence bug cannot hide behind
// a printer with the same bug. to_modelica() is checked separately, by exact
// text and by the round trip print -> parse -> same shape.
#include "parse/parser.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "parse/ast_print.h"

namespace modeaudit {
namespace {

using namespace ast;

// ---------------------------------------------------------------- helpers

std::string shape(const Expr* e);

std::string shape_ref(const ComponentRef& r) {
    std::string s = r.global ? "." : "";
    for (std::size_t i = 0; i < r.parts.size(); ++i) {
        if (i > 0) s += ".";
        s += r.parts[i].ident;
        if (!r.parts[i].subscripts.empty()) {
            s += "[";
            for (std::size_t k = 0; k < r.parts[i].subscripts.size(); ++k)
                s += (k > 0 ? " " : "") + shape(r.parts[i].subscripts[k].get());
            s += "]";
        }
    }
    return s;
}

const char* op_name(BinaryOp op) {
    switch (op) {
        case BinaryOp::Add: return "+";
        case BinaryOp::Sub: return "-";
        case BinaryOp::Mul: return "*";
        case BinaryOp::Div: return "/";
        case BinaryOp::Pow: return "^";
        case BinaryOp::ElemAdd: return ".+";
        case BinaryOp::ElemSub: return ".-";
        case BinaryOp::ElemMul: return ".*";
        case BinaryOp::ElemDiv: return "./";
        case BinaryOp::ElemPow: return ".^";
        case BinaryOp::Lt: return "<";
        case BinaryOp::Le: return "<=";
        case BinaryOp::Gt: return ">";
        case BinaryOp::Ge: return ">=";
        case BinaryOp::Eq: return "==";
        case BinaryOp::Ne: return "<>";
        case BinaryOp::And: return "and";
        case BinaryOp::Or: return "or";
    }
    return "?";
}

const char* uop_name(UnaryOp op) {
    switch (op) {
        case UnaryOp::Minus: return "neg";
        case UnaryOp::Plus: return "pos";
        case UnaryOp::Not: return "not";
        case UnaryOp::ElemMinus: return ".neg";
        case UnaryOp::ElemPlus: return ".pos";
    }
    return "?";
}

std::string shape_list(const char* head, const std::vector<ExprPtr>& ops) {
    std::string s = std::string("(") + head;
    for (const ExprPtr& o : ops) s += " " + shape(o.get());
    return s + ")";
}

std::string shape(const Expr* e) {
    if (!e) return "_";
    switch (e->kind) {
        case ExprKind::Integer:
        case ExprKind::Real: return e->text;
        case ExprKind::String: return "\"" + e->text + "\"";
        case ExprKind::Boolean: return e->boolean ? "true" : "false";
        case ExprKind::Ref: return shape_ref(e->ref);
        case ExprKind::Colon: return ":";
        case ExprKind::End: return "end";
        case ExprKind::Unary: return shape_list(uop_name(e->uop), e->operands);
        case ExprKind::Binary: return shape_list(op_name(e->bop), e->operands);
        case ExprKind::If: return shape_list("if", e->operands);
        case ExprKind::Range: return shape_list(e->has_step ? "range3" : "range", e->operands);
        case ExprKind::Matrix: return shape_list("matrix", e->operands);
        case ExprKind::Tuple: return shape_list("tuple", e->operands);
        case ExprKind::Array: {
            std::string s = shape_list("array", e->operands);
            for (const ForIterator& it : e->iterators)
                s.insert(s.size() - 1, " for " + it.name + " " + shape(it.range.get()));
            return s;
        }
        case ExprKind::Call: {
            std::string s = "(call " + shape_ref(e->ref);
            for (const FunctionArg& a : e->args)
                s += " " + (a.name.empty() ? "" : a.name + "=") + shape(a.value.get());
            for (const ForIterator& it : e->iterators) s += " for " + it.name + " " + shape(it.range.get());
            return s + ")";
        }
    }
    return "?";
}

class ParseTest : public ::testing::Test {
protected:
    SourceManager sm;
    DiagnosticSink sink;
    std::unique_ptr<StoredDefinition> tree;

    // Each parse starts with an empty sink, so a test may parse several texts.
    const StoredDefinition& parse(std::string text, ParseLimits limits = {}) {
        sink = DiagnosticSink{};
        std::uint32_t id = sm.add("test.mo", std::move(text));
        tree = parse_file(sm, id, sink, limits);
        return *tree;
    }

    // All diagnostics, formatted, for failure messages.
    std::string diags() const {
        std::string s;
        for (const Diagnostic& d : sink.all()) s += format_diagnostic(d, sm);
        return s;
    }

    // The binding of `x` in `model M Real x = <text>; end M;`, or null.
    const Expr* expr(const std::string& text) {
        parse("model M\n  Real x = " + text + ";\nend M;\n");
        if (tree->classes.size() != 1 || tree->classes[0]->elements.size() != 1) return nullptr;
        const Element& el = tree->classes[0]->elements[0];
        if (!el.component || el.component->decls.size() != 1 || !el.component->decls[0].mod) return nullptr;
        return el.component->decls[0].mod->binding.get();
    }

    std::string expr_shape(const std::string& text) {
        const Expr* e = expr(text);
        EXPECT_TRUE(sink.all().empty()) << text << "\n" << diags();
        return e ? shape(e) : "<no expression>";
    }

    // "rule@line:col" of every diagnostic.
    std::vector<std::string> where() const {
        std::vector<std::string> w;
        for (const Diagnostic& d : sink.all())
            w.push_back(d.rule + "@" + std::to_string(d.range.begin.line) + ":" +
                        std::to_string(d.range.begin.column));
        return w;
    }
};

// ---------------------------------------------------------------- BouncingBall

const char* kBouncingBall = R"(model BouncingBall "The bouncing ball model with an algorithm"
  constant Real g = 9.81; // Gravitational acceleration
  parameter Real c = 0.9; // Elasticity constant of ball
  Real height(start = 1,fixed=true); // height above ground of ball center
  Real velocity(start = 10,fixed=true); // Velocity of the ball
equation
  der(height) = velocity;
  der(velocity) = -g;
algorithm
  when height <= 0 then
    reinit(velocity, -c*velocity);
  end when;
end BouncingBall;
)";

TEST_F(ParseTest, BouncingBallParsesWithoutDiagnostics) {
    const StoredDefinition& t = parse(kBouncingBall);
    ASSERT_TRUE(sink.all().empty()) << diags();
    ASSERT_EQ(t.classes.size(), 1u);
    const ClassDef& c = *t.classes[0];
    EXPECT_EQ(c.name, "BouncingBall");
    EXPECT_EQ(c.kind, ClassKind::Model);
    EXPECT_EQ(c.description, "The bouncing ball model with an algorithm");
    EXPECT_EQ(c.range.begin.line, 1u);
    EXPECT_EQ(c.range.end.line, 13u);
    EXPECT_EQ(c.name_range.begin.column, 7u);

    // Components, with prefixes and modifications.
    ASSERT_EQ(c.elements.size(), 4u);
    const char* names[] = {"g", "c", "height", "velocity"};
    for (std::size_t i = 0; i < 4; ++i) {
        ASSERT_EQ(c.elements[i].kind, Element::Kind::Component);
        const ComponentClause& cc = *c.elements[i].component;
        EXPECT_EQ(cc.type_name.dotted(), "Real");
        ASSERT_EQ(cc.decls.size(), 1u);
        EXPECT_EQ(cc.decls[0].name, names[i]);
        EXPECT_EQ(cc.decls[0].name_range.begin.line, i + 2);
    }
    EXPECT_TRUE(c.elements[0].component->prefix.constant);
    EXPECT_TRUE(c.elements[1].component->prefix.parameter);
    EXPECT_FALSE(c.elements[2].component->prefix.parameter);
    const ComponentDecl& g = c.elements[0].component->decls[0];
    ASSERT_TRUE(g.mod && g.mod->binding);
    EXPECT_EQ(g.mod->binding->kind, ExprKind::Real);
    EXPECT_EQ(g.mod->binding->text, "9.81");
    const ComponentDecl& h = c.elements[2].component->decls[0];
    ASSERT_TRUE(h.mod);
    EXPECT_EQ(h.mod->binding, nullptr);
    ASSERT_EQ(h.mod->arguments.size(), 2u);
    EXPECT_EQ(h.mod->arguments[0].name.dotted(), "start");
    EXPECT_EQ(shape(h.mod->arguments[0].mod->binding.get()), "1");
    EXPECT_EQ(h.mod->arguments[1].name.dotted(), "fixed");
    EXPECT_EQ(shape(h.mod->arguments[1].mod->binding.get()), "true");

    // Equations.
    ASSERT_EQ(c.equation_sections.size(), 1u);
    EXPECT_FALSE(c.equation_sections[0].initial);
    const auto& eqs = c.equation_sections[0].equations;
    ASSERT_EQ(eqs.size(), 2u);
    EXPECT_EQ(eqs[0].kind, EquationKind::Simple);
    EXPECT_EQ(shape(eqs[0].lhs.get()), "(call der height)");
    EXPECT_EQ(shape(eqs[0].rhs.get()), "velocity");
    EXPECT_EQ(shape(eqs[1].lhs.get()), "(call der velocity)");
    EXPECT_EQ(shape(eqs[1].rhs.get()), "(neg g)");
    EXPECT_EQ(eqs[1].range.begin.line, 8u);
    EXPECT_EQ(eqs[1].range.begin.column, 3u);

    // The algorithm: one when-statement holding the reinit call.
    ASSERT_EQ(c.algorithm_sections.size(), 1u);
    const auto& sts = c.algorithm_sections[0].statements;
    ASSERT_EQ(sts.size(), 1u);
    EXPECT_EQ(sts[0].kind, StatementKind::When);
    EXPECT_EQ(sts[0].range.begin.line, 10u);
    ASSERT_EQ(sts[0].branches.size(), 1u);
    EXPECT_EQ(shape(sts[0].branches[0].condition.get()), "(<= height 0)");
    ASSERT_EQ(sts[0].branches[0].body.size(), 1u);
    const Statement& reinit = sts[0].branches[0].body[0];
    EXPECT_EQ(reinit.kind, StatementKind::Call);
    ASSERT_TRUE(reinit.call);
    EXPECT_EQ(reinit.call->kind, ExprKind::Call);
    EXPECT_EQ(reinit.call->ref.dotted(), "reinit");
    // `-c*velocity` is -(c*velocity): the sign applies to the whole first term.
    EXPECT_EQ(shape(reinit.call.get()), "(call reinit velocity (neg (* c velocity)))");
    EXPECT_EQ(to_modelica(*reinit.call), "reinit(velocity, -c * velocity)");
    EXPECT_EQ(reinit.range.begin.line, 11u);
    EXPECT_EQ(reinit.range.begin.column, 5u);
    EXPECT_TRUE(t.unsupported.empty());
}

TEST_F(ParseTest, DumpIsDeterministicAndComplete) {
    parse(kBouncingBall);
    std::ostringstream a;
    dump(*tree, a);
    const char* expected = R"(stored-definition
  class model BouncingBall "The bouncing ball model with an algorithm" @1:1
    component constant Real @2:3
      decl g = 9.81 @2:17
    component parameter Real @3:3
      decl c = 0.9 @3:18
    component Real @4:3
      decl height(start = 1, fixed = true) @4:8
    component Real @5:3
      decl velocity(start = 10, fixed = true) @5:8
    equation @6:1
      eq der(height) = velocity @7:3
      eq der(velocity) = -g @8:3
    algorithm @9:1
      when @10:3
        branch height <= 0 @10:3
          call reinit(velocity, -c * velocity) @11:5
)";
    EXPECT_EQ(a.str(), expected);
    // A second parse of the same text dumps the same.
    SourceManager sm2;
    DiagnosticSink sink2;
    auto t2 = parse_file(sm2, sm2.add("test.mo", kBouncingBall), sink2);
    std::ostringstream b;
    dump(*t2, b);
    EXPECT_EQ(a.str(), b.str());
}

// ---------------------------------------------------------------- expressions

TEST_F(ParseTest, ArithmeticPrecedence) {
    EXPECT_EQ(expr_shape("a + b*c^2"), "(+ a (* b (^ c 2)))");
    EXPECT_EQ(expr_shape("a*b + c"), "(+ (* a b) c)");
    EXPECT_EQ(expr_shape("a - b - c"), "(- (- a b) c)");
    EXPECT_EQ(expr_shape("a / b * c"), "(* (/ a b) c)");
    EXPECT_EQ(expr_shape("(a + b)*c"), "(* (+ a b) c)");
    EXPECT_EQ(expr_shape("a .* b .+ c ./ d .^ 2"), "(.+ (.* a b) (./ c (.^ d 2)))");
}

TEST_F(ParseTest, LeadingMinusAppliesToTheFirstTerm) {
    EXPECT_EQ(expr_shape("-a^2"), "(neg (^ a 2))");
    EXPECT_EQ(expr_shape("-a*b"), "(neg (* a b))");
    EXPECT_EQ(expr_shape("-a + b"), "(+ (neg a) b)");
    EXPECT_EQ(expr_shape("-(a + b)"), "(neg (+ a b))");
    // Not strict Modelica, accepted like most tools do: the sign binds to the factor.
    EXPECT_EQ(expr_shape("2*-3"), "(* 2 (neg 3))");
    EXPECT_EQ(expr_shape("x^-1"), "(^ x (neg 1))");
}

TEST_F(ParseTest, LogicalAndRelationalPrecedence) {
    EXPECT_EQ(expr_shape("a or b and not c < d + 1"),
              "(or a (and b (not (< c (+ d 1)))))");
    EXPECT_EQ(expr_shape("a and b or c"), "(or (and a b) c)");
}

TEST_F(ParseTest, ChainedComparisonIsAnErrorThatKeepsParsing) {
    expr("a < b < c");
    ASSERT_EQ(sink.all().size(), 1u) << diags();
    EXPECT_EQ(sink.all()[0].rule, "parse-syntax-error");
    EXPECT_EQ(sink.all()[0].range.begin.column, 18u);  // the second '<'
    EXPECT_NE(sink.all()[0].message.find("do not chain"), std::string::npos);
    ASSERT_EQ(tree->classes.size(), 1u);
    EXPECT_EQ(tree->classes[0]->elements.size(), 1u);
}

TEST_F(ParseTest, PowerDoesNotAssociate) {
    expr("a^b^c");
    ASSERT_EQ(sink.all().size(), 1u) << diags();
    EXPECT_NE(sink.all()[0].message.find("(a^b)^c or a^(b^c)"), std::string::npos);
    EXPECT_EQ(expr_shape("(a^b)^c"), "(^ (^ a b) c)");
    EXPECT_EQ(expr_shape("a^(b^c)"), "(^ a (^ b c))");
}

TEST_F(ParseTest, RangesAndTheirPrecedence) {
    EXPECT_EQ(expr_shape("1:n"), "(range 1 n)");
    EXPECT_EQ(expr_shape("1:2:n + 1"), "(range3 1 2 (+ n 1))");
    EXPECT_EQ(expr_shape("a or b:c"), "(range (or a b) c)");
}

TEST_F(ParseTest, IfExpressionElseifChainsAreFlattened) {
    EXPECT_EQ(expr_shape("if a then 1 elseif b then 2 elseif c then 3 else 4"),
              "(if a 1 b 2 c 3 4)");
    EXPECT_EQ(expr_shape("if a then 1 else if b then 2 else 3"), "(if a 1 (if b 2 3))");
    EXPECT_EQ(expr_shape("1 + (if a then b else c)"), "(+ 1 (if a b c))");
    EXPECT_EQ(expr_shape("if x > 0 then x + 1 else -x"), "(if (> x 0) (+ x 1) (neg x))");
}

TEST_F(ParseTest, IfExpressionWithoutElseIsAnError) {
    expr("if a then 1");
    ASSERT_FALSE(sink.all().empty());
    EXPECT_EQ(sink.all()[0].message,
              "expected 'else' in the if-expression, found ';'; an if-expression must have an "
              "'else' branch");
}

TEST_F(ParseTest, ComponentReferences) {
    EXPECT_EQ(expr_shape("a.b[i, :].c"), "a.b[i :].c");
    EXPECT_EQ(expr_shape("x[end - 1]"), "x[(- end 1)]");
    EXPECT_EQ(expr_shape("x[min(end, 3)]"), "x[(call min end 3)]");
    EXPECT_EQ(expr_shape(".Modelica.Constants.pi"), ".Modelica.Constants.pi");
    EXPECT_EQ(expr_shape("'my var'.x"), "'my var'.x");
    const Expr* e = expr("a.b[i, :].c");
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->ref.dotted(), "a.b.c");
    EXPECT_FALSE(e->ref.simple());
    EXPECT_EQ(e->ref.parts[1].subscripts[1]->kind, ExprKind::Colon);
    EXPECT_EQ(to_modelica(e->ref), "a.b[i, :].c");
    const Expr* g = expr(".A.b");
    ASSERT_NE(g, nullptr);
    EXPECT_TRUE(g->ref.global);
    EXPECT_EQ(g->ref.dotted(), ".A.b");
}

TEST_F(ParseTest, EndOutsideSubscriptsIsAnError) {
    expr("end + 1");
    ASSERT_FALSE(sink.all().empty());
    EXPECT_EQ(sink.all()[0].message, "expected an expression, found 'end'");
}

TEST_F(ParseTest, FunctionCalls) {
    EXPECT_EQ(expr_shape("der(x)"), "(call der x)");
    EXPECT_EQ(expr_shape("pre(x) + sin(2*time)"), "(+ (call pre x) (call sin (* 2 time)))");
    EXPECT_EQ(expr_shape("f()"), "(call f)");
    EXPECT_EQ(expr_shape("f(a, b = 2, c = {1, 2})"), "(call f a b=2 c=(array 1 2))");
    EXPECT_EQ(expr_shape("sum(x[i]*w[i] for i in 1:n)"), "(call sum (* x[i] w[i]) for i (range 1 n))");
    EXPECT_EQ(expr_shape("Modelica.Math.sin(x)"), "(call Modelica.Math.sin x)");
    // `initial` is a keyword, and also a built-in function.
    const Expr* e = expr("initial() and not terminal()");
    ASSERT_NE(e, nullptr) << diags();
    EXPECT_TRUE(sink.all().empty()) << diags();
    EXPECT_EQ(shape(e), "(and (call initial) (not (call terminal)))");
    EXPECT_EQ(e->operands[0]->kind, ExprKind::Call);
    EXPECT_EQ(e->operands[0]->ref.dotted(), "initial");
}

TEST_F(ParseTest, PositionalAfterNamedArgumentIsAnError) {
    expr("f(a = 1, 2)");
    ASSERT_EQ(sink.all().size(), 1u) << diags();
    EXPECT_NE(sink.all()[0].message.find("positional argument after a named argument"),
              std::string::npos);
}

TEST_F(ParseTest, ArraysMatricesAndTuples) {
    EXPECT_EQ(expr_shape("{1, 2.5, -3}"), "(array 1 2.5 (neg 3))");
    EXPECT_EQ(expr_shape("{{1, 2}, {3, 4}}"), "(array (array 1 2) (array 3 4))");
    EXPECT_EQ(expr_shape("{i^2 for i in 1:3}"), "(array (^ i 2) for i (range 1 3))");
    EXPECT_EQ(expr_shape("[1, 2; 3, 4]"), "(matrix (array 1 2) (array 3 4))");
    EXPECT_EQ(expr_shape("[a; b]"), "(matrix (array a) (array b))");
    EXPECT_EQ(expr_shape("{}"), "(array)");
    EXPECT_EQ(expr_shape("\"a\" + \"b\\n\""), "(+ \"a\" \"b\n\")");
    EXPECT_EQ(expr_shape("true and false"), "(and true false)");
}

TEST_F(ParseTest, LiteralsKeepTheirText) {
    const Expr* e = expr("1.5e-3 + 007 + 2.");
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(shape(e), "(+ (+ 1.5e-3 007) 2.)");
    EXPECT_EQ(to_modelica(*e), "1.5e-3 + 007 + 2.");
    EXPECT_EQ(e->operands[1]->kind, ExprKind::Real);
    EXPECT_EQ(e->operands[0]->operands[1]->kind, ExprKind::Integer);
}

TEST_F(ParseTest, ExpressionRangesCoverTheirText) {
    const Expr* e = expr("a + b*c");
    ASSERT_NE(e, nullptr);
    // "  Real x = a + b*c;" : a at column 12, c ends at column 19.
    EXPECT_EQ(e->range.begin.line, 2u);
    EXPECT_EQ(e->range.begin.column, 12u);
    EXPECT_EQ(e->range.end.column, 19u);
    EXPECT_EQ(e->operands[1]->range.begin.column, 16u);
}

// ---------------------------------------------------------------- to_modelica

TEST_F(ParseTest, ToModelicaUsesMinimalParentheses) {
    struct Case {
        const char* in;
        const char* out;
    } cases[] = {
        {"a + b*c^2", "a + b * c^2"},
        {"(a + b)*c", "(a + b) * c"},
        {"a - (b - c)", "a - (b - c)"},
        {"(a - b) - c", "a - b - c"},
        {"a + (b + c)", "a + (b + c)"},
        {"-a^2", "-a^2"},
        {"(-a)^2", "(-a)^2"},
        {"-(a*b)", "-a * b"},
        {"(-a)*b", "(-a) * b"},
        {"-(a + b)", "-(a + b)"},
        {"a + (-b)", "a + (-b)"},
        {"2*-3", "2 * (-3)"},
        {"a^(b^c)", "a^(b^c)"},
        {"(a < b) == c", "(a < b) == c"},
        {"not (a and b)", "not (a and b)"},
        {"not a and b", "not a and b"},
        {"(a or b) and c", "(a or b) and c"},
        {"a or (b or c)", "a or (b or c)"},
        {"(if c then 1 else 2) + 1", "(if c then 1 else 2) + 1"},
        {"if a then 1 elseif b then 2 else 3", "if a then 1 elseif b then 2 else 3"},
        {"(1:3):2", "(1:3):2"},
        {"x[i + 1, :].b[end]", "x[i + 1, :].b[end]"},
        {"f(a, n = -1)", "f(a, n = -1)"},
        {"{x for x in 1:3}", "{x for x in 1:3}"},
        {"[1, 2; 3, 4]", "[1, 2; 3, 4]"},
        {"\"say \\\"hi\\\"\"", "\"say \\\"hi\\\"\""},
        {"a .^ 2 ./ b", "a.^2 ./ b"},
    };
    for (const Case& c : cases) {
        const Expr* e = expr(c.in);
        ASSERT_NE(e, nullptr) << c.in << "\n" << diags();
        EXPECT_EQ(to_modelica(*e), c.out) << c.in;
    }
}

TEST_F(ParseTest, ToModelicaRoundTripsToTheSameTree) {
    const char* inputs[] = {
        "a + b*c^2 - d/(e - f)",
        "-(a - b)^2 + (-c)*d",
        "if x > 0 and not y then {1, 2} elseif z then -1 else f(x, k = 2)",
        "(a or b) and (c or not d)",
        "a - (b + c) - (d - e)",
        "x[end, :] .* y ./ (z .- 1)",
        "1:2:(n + 1)",
        "sum(i^2 for i in 1:n) / (1 + (if b then 1 else 2))",
        "(a < b) == (c >= d)",
    };
    for (const char* in : inputs) {
        const Expr* e = expr(in);
        ASSERT_NE(e, nullptr) << in << "\n" << diags();
        std::string s1 = shape(e);
        std::string printed = to_modelica(*e);
        const Expr* again = expr(printed);
        ASSERT_NE(again, nullptr) << printed << "\n" << diags();
        EXPECT_TRUE(sink.all().empty()) << printed << "\n" << diags();
        EXPECT_EQ(shape(again), s1) << in << " printed as " << printed;
    }
}

// ---------------------------------------------------------------- classes and elements

TEST_F(ParseTest, ShortClassDefinitions) {
    const StoredDefinition& t = parse(R"(package P
  type V = Real(unit = "V") "voltage";
  type A = Real[3];
  connector Pin2 = input Pin;
  type E = enumeration(on "switched on", off);
end P;
)");
    ASSERT_TRUE(sink.all().empty()) << diags();
    const ClassDef& p = *t.classes[0];
    EXPECT_EQ(p.kind, ClassKind::Package);
    ASSERT_EQ(p.elements.size(), 4u);
    const ClassDef& v = *p.elements[0].class_def;
    EXPECT_TRUE(v.is_short);
    EXPECT_EQ(v.kind, ClassKind::Type);
    EXPECT_EQ(v.short_base.dotted(), "Real");
    ASSERT_TRUE(v.short_mod);
    EXPECT_EQ(v.short_mod->arguments[0].name.dotted(), "unit");
    EXPECT_EQ(shape(v.short_mod->arguments[0].mod->binding.get()), "\"V\"");
    EXPECT_EQ(v.description, "voltage");
    const ClassDef& a = *p.elements[1].class_def;
    ASSERT_EQ(a.short_dims.size(), 1u);
    EXPECT_EQ(shape(a.short_dims[0].get()), "3");
    const ClassDef& pin2 = *p.elements[2].class_def;
    EXPECT_EQ(pin2.kind, ClassKind::Connector);
    EXPECT_TRUE(pin2.short_prefix.input);
    EXPECT_EQ(pin2.short_base.dotted(), "Pin");
    const ClassDef& e = *p.elements[3].class_def;
    EXPECT_TRUE(e.is_enumeration);
    EXPECT_EQ(e.enumeration_literals, (std::vector<std::string>{"on", "off"}));
    EXPECT_TRUE(t.unsupported.empty());  // enumerations are in the subset (flatten: Integer 1..n)
}

TEST(ParseEnumeration, UnspecifiedLiteralsAreRecorded) {
    SourceManager sm;
    DiagnosticSink sink;
    auto t = parse_file(sm, sm.add("e.mo", "package P\n  type E = enumeration(:);\nend P;\n"), sink);
    EXPECT_FALSE(sink.has_errors());
    ASSERT_EQ(t->unsupported.size(), 1u);
    EXPECT_EQ(t->unsupported[0].what, "enumeration(:)");
    EXPECT_EQ(t->unsupported[0].range.begin.line, 2u);
}

TEST_F(ParseTest, ClassPrefixesAndKinds) {
    const StoredDefinition& t = parse(R"(within Lib.Sub;
encapsulated partial model A end A;
final block B end B;
expandable connector C end C;
record R end R;
pure function F end F;
impure function G end G;
operator record O end O;
class K end K;
)");
    ASSERT_TRUE(sink.all().empty()) << diags();
    ASSERT_TRUE(t.within);
    EXPECT_EQ(t.within->dotted(), "Lib.Sub");
    ASSERT_EQ(t.classes.size(), 8u);
    EXPECT_TRUE(t.classes[0]->encapsulated);
    EXPECT_TRUE(t.classes[0]->partial);
    EXPECT_EQ(t.classes[1]->kind, ClassKind::Block);
    EXPECT_TRUE(t.classes[1]->final);
    EXPECT_EQ(t.classes[2]->kind, ClassKind::Connector);
    EXPECT_TRUE(t.classes[2]->expandable);
    EXPECT_EQ(t.classes[3]->kind, ClassKind::Record);
    EXPECT_EQ(t.classes[4]->kind, ClassKind::Function);
    EXPECT_TRUE(t.classes[4]->pure);
    EXPECT_TRUE(t.classes[5]->impure);
    EXPECT_EQ(t.classes[6]->kind, ClassKind::Record);
    EXPECT_EQ(t.classes[7]->kind, ClassKind::Class);
    ASSERT_EQ(t.unsupported.size(), 1u);
    EXPECT_EQ(t.unsupported[0].what, "operator record");
}

TEST_F(ParseTest, ElementsOfAModel) {
    const StoredDefinition& t = parse(R"(model M "first" + " second"
  import SI = Modelica.SIunits;
  import Modelica.Math.*;
  import Modelica.Math.{sin, cos};
  import Modelica.Constants.pi;
  extends Base(p(v(start = 0)), final n.v = 2) annotation(Icon);
  parameter Real k[2, 3] = [1, 2, 3; 4, 5, 6];
  Real[3] x(each start = 1, each final fixed = true) "position", v;
  Real y if k[1, 1] > 0 "conditional";
  flow discrete output Real z;
protected
  Real w := 2;
public
  Real u;
end M;
)");
    ASSERT_TRUE(sink.all().empty()) << diags();
    const ClassDef& m = *t.classes[0];
    EXPECT_EQ(m.description, "first second");
    ASSERT_EQ(m.elements.size(), 11u);

    const ImportClause& i0 = *m.elements[0].import;
    EXPECT_EQ(i0.alias, "SI");
    EXPECT_EQ(i0.name.dotted(), "Modelica.SIunits");
    EXPECT_TRUE(m.elements[1].import->wildcard);
    EXPECT_EQ(m.elements[1].import->name.dotted(), "Modelica.Math");
    EXPECT_EQ(m.elements[2].import->only, (std::vector<std::string>{"sin", "cos"}));
    EXPECT_EQ(m.elements[3].import->name.dotted(), "Modelica.Constants.pi");
    EXPECT_FALSE(m.elements[3].import->wildcard);

    ASSERT_EQ(m.elements[4].kind, Element::Kind::Extends);
    const ExtendsClause& ext = *m.elements[4].extends;
    EXPECT_EQ(ext.base.dotted(), "Base");
    ASSERT_TRUE(ext.mod);
    ASSERT_EQ(ext.mod->arguments.size(), 2u);
    const ElementModification& pv = ext.mod->arguments[0];
    EXPECT_EQ(pv.name.dotted(), "p");
    ASSERT_TRUE(pv.mod);
    EXPECT_EQ(pv.mod->arguments[0].name.dotted(), "v");
    EXPECT_EQ(pv.mod->arguments[0].mod->arguments[0].name.dotted(), "start");
    const ElementModification& nv = ext.mod->arguments[1];
    EXPECT_TRUE(nv.final);
    EXPECT_EQ(nv.name.dotted(), "n.v");
    EXPECT_EQ(shape(nv.mod->binding.get()), "2");
    ASSERT_TRUE(ext.annotation);
    EXPECT_EQ(ext.annotation->arguments[0].name.dotted(), "Icon");
    EXPECT_EQ(ext.annotation->arguments[0].mod, nullptr);  // a bare name

    const ComponentDecl& k = m.elements[5].component->decls[0];
    EXPECT_EQ(k.dims.size(), 2u);
    EXPECT_EQ(shape(k.mod->binding.get()), "(matrix (array 1 2 3) (array 4 5 6))");

    const ComponentClause& x = *m.elements[6].component;
    ASSERT_EQ(x.type_dims.size(), 1u);
    ASSERT_EQ(x.decls.size(), 2u);
    EXPECT_EQ(x.decls[0].name, "x");
    EXPECT_EQ(x.decls[0].description, "position");
    EXPECT_TRUE(x.decls[0].mod->arguments[0].each);
    EXPECT_TRUE(x.decls[0].mod->arguments[1].each);
    EXPECT_TRUE(x.decls[0].mod->arguments[1].final);
    EXPECT_EQ(x.decls[1].name, "v");
    EXPECT_EQ(x.decls[1].mod, nullptr);

    const ComponentDecl& y = m.elements[7].component->decls[0];
    ASSERT_TRUE(y.condition);
    EXPECT_EQ(shape(y.condition.get()), "(> k[1 1] 0)");
    EXPECT_EQ(y.description, "conditional");

    const TypePrefix& z = m.elements[8].component->prefix;
    EXPECT_TRUE(z.flow && z.discrete && z.output);
    EXPECT_FALSE(z.input || z.parameter || z.stream);

    EXPECT_FALSE(m.elements[8].is_protected);
    EXPECT_TRUE(m.elements[9].is_protected);
    EXPECT_EQ(shape(m.elements[9].component->decls[0].mod->binding.get()), "2");  // `:=` binding
    EXPECT_FALSE(m.elements[10].is_protected);
}

TEST_F(ParseTest, ElementPrefixesOutsideTheSubsetAreRecorded) {
    const StoredDefinition& t = parse(R"(model M
  replaceable Real a constrainedby Real;
  inner Real b;
  outer Real c;
  redeclare Real d;
  final Real e = 1;
  Base f(redeclare Real g);
  redeclare model H = K;
  Base i(redeclare package P = Q);
  inner outer model W end W;
end M;
)");
    ASSERT_TRUE(sink.all().empty()) << diags();
    const ClassDef& m = *t.classes[0];
    EXPECT_TRUE(m.elements[0].component->replaceable);
    ASSERT_TRUE(m.elements[0].component->constraining);
    EXPECT_EQ(m.elements[0].component->constraining->name.dotted(), "Real");
    EXPECT_TRUE(m.elements[1].component->inner);
    EXPECT_TRUE(m.elements[2].component->outer);
    EXPECT_TRUE(m.elements[3].component->redeclare);
    EXPECT_TRUE(m.elements[4].component->final);
    EXPECT_TRUE(m.elements[6].redeclare);
    EXPECT_TRUE(m.elements[1].component->inner && !m.elements[1].component->outer);
    // Component redeclarations and inner/outer components are in the subset
    // now; class redeclarations and inner/outer classes are recorded where
    // they are written.
    std::vector<std::string> what;
    for (const UnsupportedUse& u : t.unsupported)
        what.push_back(u.what + "@" + std::to_string(u.range.begin.line) + ":" +
                       std::to_string(u.range.begin.column));
    EXPECT_EQ(what, (std::vector<std::string>{"redeclaration of a class@8:3", "redeclaration of a class@9:10",
                                              "an inner outer class definition@10:3"}));
}

// `redeclare [each] [final] [replaceable] T x(mods) [constrainedby C(mods)]`
// in a modification keeps the new declaration, and the comma after it still
// separates the arguments.
TEST_F(ParseTest, ComponentRedeclarationsInModificationsAreKept) {
    const StoredDefinition& t = parse(R"(model M
  extends Base(redeclare Lib.Sine source(final amplitude = V, f = 2) "the wave", k = 3);
  Holder h(redeclare final replaceable Lib.Step s[2] constrainedby Lib.Source(offset = 1));
  replaceable model Law = Linear constrainedby Partial;
end M;
)");
    ASSERT_TRUE(sink.all().empty()) << diags();
    const ClassDef& m = *t.classes[0];
    const auto& args = m.elements[0].extends->mod->arguments;
    ASSERT_EQ(args.size(), 2u);
    EXPECT_TRUE(args[0].redeclare);
    ASSERT_TRUE(args[0].component);
    EXPECT_EQ(args[0].name.dotted(), "source");
    EXPECT_EQ(args[0].component->type_name.dotted(), "Lib.Sine");
    EXPECT_EQ(args[0].component->decls.size(), 1u);
    EXPECT_EQ(args[0].component->decls[0].mod->arguments.size(), 2u);
    EXPECT_TRUE(args[0].component->decls[0].mod->arguments[0].final);
    EXPECT_EQ(args[0].description, "the wave");
    EXPECT_EQ(args[1].name.dotted(), "k");
    const auto& h = m.elements[1].component->decls[0].mod->arguments;
    ASSERT_EQ(h.size(), 1u);
    EXPECT_TRUE(h[0].final && h[0].replaceable && h[0].redeclare);
    EXPECT_EQ(h[0].component->decls[0].dims.size(), 1u);
    ASSERT_TRUE(h[0].constraining);
    EXPECT_EQ(h[0].constraining->name.dotted(), "Lib.Source");
    ASSERT_TRUE(h[0].constraining->mod);
    EXPECT_TRUE(m.elements[2].replaceable);
    ASSERT_TRUE(m.elements[2].constraining);
    EXPECT_EQ(m.elements[2].constraining->name.dotted(), "Partial");
    EXPECT_TRUE(t.unsupported.empty());
}

// `.sin(x)`: a global built-in function name is the built-in itself.
TEST_F(ParseTest, GlobalBuiltinFunctionNamesLoseTheirDot) {
    const StoredDefinition& t = parse("model M Real y = .sin(time) + .Lib.f(time); end M;\n");
    ASSERT_TRUE(sink.all().empty()) << diags();
    const Expr& sum = *t.classes[0]->elements[0].component->decls[0].mod->binding;
    EXPECT_FALSE(sum.operands[0]->ref.global);
    EXPECT_EQ(sum.operands[0]->ref.dotted(), "sin");
    EXPECT_TRUE(sum.operands[1]->ref.global);
}

// While loops are part of function bodies; an external clause is kept with
// its language and function name (the flattener maps Modelica.Math's to
// built-ins and refuses the others where they are called).
TEST_F(ParseTest, WhileLoopAndExternalClauseAreParsed) {
    const StoredDefinition& t = parse(R"(package P
  function f
    input Real a;
    output Real b;
  algorithm
    b := a;
    while b > 1 loop
      b := b / 2;
    end while;
  end f;
  function g
    input Real a;
    output Real b;
  external "C" b = cg(a) annotation(Library = "m");
  end g;
end P;
)");
    ASSERT_TRUE(sink.all().empty()) << diags();
    EXPECT_TRUE(t.unsupported.empty());

    const ClassDef& f = *t.classes[0]->elements[0].class_def;
    const Statement& w = f.algorithm_sections[0].statements[1];
    EXPECT_EQ(w.kind, StatementKind::While);
    ASSERT_EQ(w.branches.size(), 1u);
    EXPECT_EQ(shape(w.branches[0].condition.get()), "(> b 1)");
    EXPECT_EQ(w.branches[0].body.size(), 1u);
    const ClassDef& g = *t.classes[0]->elements[1].class_def;
    ASSERT_TRUE(g.external_clause);
    EXPECT_EQ(g.external_clause->begin.line, 14u);
    EXPECT_EQ(g.external_clause->begin.column, 3u);
    EXPECT_EQ(g.external_language, "C");
    EXPECT_EQ(g.external_name, "cg");
    EXPECT_EQ(g.elements.size(), 2u);
}

// ---------------------------------------------------------------- annotations

TEST_F(ParseTest, AnnotationsBecomeModificationTrees) {
    const StoredDefinition& t = parse(R"(model M
  Real E = 0.5*v^2 annotation(__ModeAudit(rate = 0, atEvents = "nonincreasing"));
  Real v;
equation
  der(v) = -1 "falling" annotation(__ModeAudit(suppress = {"modes-unbalanced"}));
  annotation(experiment(StopTime = 20), Documentation(info = "<html></html>"));
end M;
)");
    ASSERT_TRUE(sink.all().empty()) << diags();
    const ClassDef& m = *t.classes[0];
    const ComponentDecl& e = m.elements[0].component->decls[0];
    ASSERT_TRUE(e.annotation);
    ASSERT_EQ(e.annotation->arguments.size(), 1u);
    const ElementModification& ma = e.annotation->arguments[0];
    EXPECT_EQ(ma.name.dotted(), "__ModeAudit");
    ASSERT_TRUE(ma.mod);
    EXPECT_EQ(ma.mod->binding, nullptr);
    ASSERT_EQ(ma.mod->arguments.size(), 2u);
    EXPECT_EQ(ma.mod->arguments[0].name.dotted(), "rate");
    EXPECT_EQ(ma.mod->arguments[0].mod->binding->kind, ExprKind::Integer);
    EXPECT_EQ(ma.mod->arguments[0].mod->binding->text, "0");
    EXPECT_EQ(ma.mod->arguments[1].name.dotted(), "atEvents");
    EXPECT_EQ(ma.mod->arguments[1].mod->binding->kind, ExprKind::String);
    EXPECT_EQ(ma.mod->arguments[1].mod->binding->text, "nonincreasing");
    EXPECT_EQ(e.annotation->range.begin.column, 20u);  // from the keyword
    EXPECT_EQ(shape(e.mod->binding.get()), "(* 0.5 (^ v 2))");

    const Equation& eq = m.equation_sections[0].equations[0];
    EXPECT_EQ(eq.description, "falling");
    ASSERT_TRUE(eq.annotation);
    EXPECT_EQ(shape(eq.annotation->arguments[0].mod->arguments[0].mod->binding.get()),
              "(array \"modes-unbalanced\")");

    ASSERT_EQ(m.annotations.size(), 1u);
    const Modification& ca = *m.annotations[0];
    ASSERT_EQ(ca.arguments.size(), 2u);
    EXPECT_EQ(ca.arguments[0].name.dotted(), "experiment");
    EXPECT_EQ(ca.arguments[0].mod->arguments[0].name.dotted(), "StopTime");
    EXPECT_EQ(shape(ca.arguments[0].mod->arguments[0].mod->binding.get()), "20");
    EXPECT_EQ(ca.arguments[1].name.dotted(), "Documentation");
}

TEST_F(ParseTest, GraphicalAnnotationsParse) {
    parse(R"(model M
  Pin p annotation(Placement(transformation(extent = {{-110, -10}, {-90, 10}})));
equation
  connect(p, q.n[2]) annotation(Line(points = {{-10, 0}, {10, 0}}, color = {0, 0, 255}));
  annotation(Icon(graphics = {Rectangle(extent = {{-100, 100}, {100, -100}}, lineColor = {0, 0, 0})}));
end M;
)");
    ASSERT_TRUE(sink.all().empty()) << diags();
    const Equation& c = tree->classes[0]->equation_sections[0].equations[0];
    EXPECT_EQ(c.kind, EquationKind::Connect);
    EXPECT_EQ(shape(c.lhs.get()), "p");
    EXPECT_EQ(shape(c.rhs.get()), "q.n[2]");
    ASSERT_TRUE(c.annotation);
    EXPECT_EQ(c.annotation->arguments[0].name.dotted(), "Line");
}

// ---------------------------------------------------------------- equations and statements

TEST_F(ParseTest, EquationKinds) {
    const StoredDefinition& t = parse(R"(model M
initial equation
  x = 0;
equation
  connect(a.p, b.n);
  for i in 1:n, j in 1:m loop
    A[i, j] = i + j;
  end for;
  if mode == 1 then
    y = 1;
  elseif mode == 2 then
    y = 2;
  else
    y = 3;
  end if;
  when {x > 1, time > 2} then
    m = pre(m) + 1;
  elsewhen initial() then
    reinit(x, 0);
  end when;
  assert(y >= 0, "negative", AssertionLevel.warning);
  terminate("done");
  (a, b) = f(x);
end M;
)");
    ASSERT_TRUE(sink.all().empty()) << diags();
    const ClassDef& m = *t.classes[0];
    ASSERT_EQ(m.equation_sections.size(), 2u);
    EXPECT_TRUE(m.equation_sections[0].initial);
    EXPECT_FALSE(m.equation_sections[1].initial);
    const auto& eqs = m.equation_sections[1].equations;
    ASSERT_EQ(eqs.size(), 7u);

    EXPECT_EQ(eqs[0].kind, EquationKind::Connect);
    EXPECT_EQ(shape(eqs[0].lhs.get()), "a.p");

    EXPECT_EQ(eqs[1].kind, EquationKind::For);
    ASSERT_EQ(eqs[1].indices.size(), 2u);
    EXPECT_EQ(eqs[1].indices[0].name, "i");
    EXPECT_EQ(shape(eqs[1].indices[1].range.get()), "(range 1 m)");
    ASSERT_EQ(eqs[1].body.size(), 1u);
    EXPECT_EQ(shape(eqs[1].body[0].lhs.get()), "A[i j]");

    EXPECT_EQ(eqs[2].kind, EquationKind::If);
    ASSERT_EQ(eqs[2].branches.size(), 3u);
    EXPECT_EQ(shape(eqs[2].branches[1].condition.get()), "(== mode 2)");
    EXPECT_EQ(eqs[2].branches[2].condition, nullptr);  // else
    EXPECT_EQ(shape(eqs[2].branches[2].body[0].rhs.get()), "3");

    EXPECT_EQ(eqs[3].kind, EquationKind::When);
    ASSERT_EQ(eqs[3].branches.size(), 2u);
    EXPECT_EQ(shape(eqs[3].branches[0].condition.get()), "(array (> x 1) (> time 2))");
    EXPECT_EQ(shape(eqs[3].branches[1].condition.get()), "(call initial)");
    EXPECT_EQ(eqs[3].branches[1].body[0].kind, EquationKind::Call);
    EXPECT_EQ(shape(eqs[3].branches[1].body[0].call.get()), "(call reinit x 0)");

    EXPECT_EQ(eqs[4].kind, EquationKind::Call);
    EXPECT_EQ(shape(eqs[4].call.get()), "(call assert (>= y 0) \"negative\" AssertionLevel.warning)");
    EXPECT_EQ(shape(eqs[5].call.get()), "(call terminate \"done\")");
    EXPECT_EQ(eqs[6].kind, EquationKind::Simple);
    EXPECT_EQ(shape(eqs[6].lhs.get()), "(tuple a b)");
}

TEST_F(ParseTest, CupAndBallRestartConstraintParses) {
    const StoredDefinition& t = parse(R"(model CupAndBall
  parameter Real L = 1, e = 0.5;
  Real x, y, vx, vy;
  Boolean taut(start = false);
equation
  when x^2 + y^2 >= L^2 then
    taut = true;
    x*vx + y*vy = -e*(pre(x)*pre(vx) + pre(y)*pre(vy));
  end when;
end CupAndBall;
)");
    ASSERT_TRUE(sink.all().empty()) << diags();
    const Equation& w = t.classes[0]->equation_sections[0].equations[0];
    ASSERT_EQ(w.kind, EquationKind::When);
    EXPECT_EQ(shape(w.branches[0].condition.get()), "(>= (+ (^ x 2) (^ y 2)) (^ L 2))");
    ASSERT_EQ(w.branches[0].body.size(), 2u);
    EXPECT_EQ(shape(w.branches[0].body[0].lhs.get()), "taut");
    const Equation& rc = w.branches[0].body[1];
    EXPECT_EQ(rc.kind, EquationKind::Simple);
    EXPECT_EQ(shape(rc.lhs.get()), "(+ (* x vx) (* y vy))");
    EXPECT_EQ(shape(rc.rhs.get()),
              "(neg (* e (+ (* (call pre x) (call pre vx)) (* (call pre y) (call pre vy)))))");
    EXPECT_EQ(to_modelica(*rc.rhs), "-e * (pre(x) * pre(vx) + pre(y) * pre(vy))");
    EXPECT_EQ(rc.range.begin.line, 8u);
    EXPECT_EQ(rc.range.begin.column, 5u);
}

TEST_F(ParseTest, StatementKinds) {
    const StoredDefinition& t = parse(R"(function f
  input Real x;
  output Real a, b;
protected
  Real t;
algorithm
  a := x;
  (a, , b) := g(x);
  (a, b) := h(x);
  print("x");
  for i in 1:3 loop
    if a > i then
      a := a - 1;
    elseif a < 0 then
      break;
    else
      return;
    end if;
  end for;
  when a > 1 then
    t := pre(t) + 1;
  elsewhen b > 1 then
    reinit(t, 0);
  end when;
initial algorithm
  t := 0;
end f;
)");
    ASSERT_TRUE(sink.all().empty()) << diags();
    const ClassDef& f = *t.classes[0];
    ASSERT_EQ(f.algorithm_sections.size(), 2u);
    EXPECT_TRUE(f.algorithm_sections[1].initial);
    const auto& s = f.algorithm_sections[0].statements;
    ASSERT_EQ(s.size(), 6u);
    EXPECT_EQ(s[0].kind, StatementKind::Assign);
    EXPECT_EQ(shape(s[0].lhs.get()), "a");
    EXPECT_EQ(s[1].kind, StatementKind::Assign);
    EXPECT_EQ(shape(s[1].lhs.get()), "(tuple a _ b)");
    EXPECT_EQ(shape(s[1].rhs.get()), "(call g x)");
    EXPECT_EQ(shape(s[2].lhs.get()), "(tuple a b)");
    EXPECT_EQ(s[3].kind, StatementKind::Call);
    EXPECT_EQ(shape(s[3].call.get()), "(call print \"x\")");
    EXPECT_EQ(s[4].kind, StatementKind::For);
    ASSERT_EQ(s[4].body.size(), 1u);
    const Statement& i = s[4].body[0];
    EXPECT_EQ(i.kind, StatementKind::If);
    ASSERT_EQ(i.branches.size(), 3u);
    EXPECT_EQ(i.branches[1].body[0].kind, StatementKind::Break);
    EXPECT_EQ(i.branches[2].condition, nullptr);
    EXPECT_EQ(i.branches[2].body[0].kind, StatementKind::Return);
    EXPECT_EQ(s[5].kind, StatementKind::When);
    ASSERT_EQ(s[5].branches.size(), 2u);
    EXPECT_EQ(shape(s[5].branches[1].body[0].call.get()), "(call reinit t 0)");
}

TEST_F(ParseTest, AssignmentInAnEquationSectionSaysWhereItBelongs) {
    parse("model M\n  Real x;\nequation\n  x := 1;\nend M;\n");
    ASSERT_EQ(sink.all().size(), 1u) << diags();
    EXPECT_EQ(where()[0], "parse-syntax-error@4:5");
    EXPECT_NE(sink.all()[0].message.find("algorithm section"), std::string::npos);
}

TEST_F(ParseTest, DoubleEqualsInAnEquationPointsAtTheOperator) {
    parse("model M\n  Real y;\nequation\n  y == 2*(x == 1);\nend M;\n");
    ASSERT_EQ(sink.all().size(), 1u) << diags();
    EXPECT_EQ(where()[0], "parse-syntax-error@4:5");
    EXPECT_NE(sink.all()[0].message.find("found '=='"), std::string::npos);
}

TEST_F(ParseTest, EqualsInAnAlgorithmSaysToUseAssign) {
    parse("model M\n  Real x;\nalgorithm\n  x = 1;\nend M;\n");
    ASSERT_EQ(sink.all().size(), 1u) << diags();
    EXPECT_EQ(where()[0], "parse-syntax-error@4:5");
    EXPECT_NE(sink.all()[0].message.find("':='"), std::string::npos);
}

// ---------------------------------------------------------------- errors and recovery

TEST_F(ParseTest, SeveralSyntaxErrorsAreAllReportedWithTheirLocations) {
    const StoredDefinition& t = parse(R"(model M
  Real x
  Real y = ;
  parameter Real k = 2 $ 3;
  Real z;
equation
  x = y +;
  if x > then
    y = 1;
  end if;
  z = 1 end M;
)");
    std::vector<std::string> expected{
        "parse-syntax-error@2:9",   // missing ';' at the end of line 2
        "parse-syntax-error@3:12",  // no expression after '='
        "parse-syntax-error@4:24",  // the '$'
        "parse-syntax-error@7:10",  // no operand after '+'
        "parse-syntax-error@8:10",  // no operand after '>'
        "parse-syntax-error@11:9",  // missing ';' before 'end'
    };
    EXPECT_EQ(where(), expected) << diags();
    ASSERT_EQ(sink.all().size(), expected.size());
    EXPECT_EQ(sink.all()[0].message,
              "expected ';' after the declaration of 'x', found identifier 'Real'; add ';' at the "
              "end of line 2");
    EXPECT_EQ(sink.all()[1].message, "expected an expression, found ';'");
    EXPECT_EQ(sink.all()[2].message, "unexpected character '$'");
    EXPECT_EQ(sink.all()[5].message, "expected ';' after the equation, found 'end'");
    // Recovery kept what was good: x (before the missing ';'), k (complete
    // up to the '$'), z, the if-equation and its body.
    const ClassDef& m = *t.classes[0];
    std::vector<std::string> names;
    for (const Element& el : m.elements)
        if (el.component)
            for (const ComponentDecl& d : el.component->decls) names.push_back(d.name);
    EXPECT_EQ(names, (std::vector<std::string>{"x", "k", "z"}));
    const auto& eqs = m.equation_sections[0].equations;
    ASSERT_EQ(eqs.size(), 2u);
    EXPECT_EQ(eqs[0].kind, EquationKind::If);
    EXPECT_EQ(eqs[0].branches[0].body.size(), 1u);
    EXPECT_EQ(eqs[1].kind, EquationKind::Simple);
    EXPECT_TRUE(sink.has_input_errors());
}

TEST_F(ParseTest, MissingSemicolonAtALineEndKeepsTheNextLine) {
    const StoredDefinition& t = parse("model M\n  Real x\n  Real y;\nequation\n  x = 1\n  y = 2;\nend M;\n");
    EXPECT_EQ(where(), (std::vector<std::string>{"parse-syntax-error@2:9", "parse-syntax-error@5:8"}));
    EXPECT_EQ(t.classes[0]->elements.size(), 2u);
    EXPECT_EQ(t.classes[0]->equation_sections[0].equations.size(), 2u);
    EXPECT_EQ(sink.all()[1].message,
              "expected ';' after the equation, found identifier 'y'; add ';' at the end of line 5");
}

TEST_F(ParseTest, MissingThenOrLoopAtALineEndKeepsTheBody) {
    const StoredDefinition& t = parse(R"(model M
equation
  when x > 1
    y = 2;
  end when;
  for i in 1:3
    x[i] = 1;
  end for;
end M;
)");
    EXPECT_EQ(where(), (std::vector<std::string>{"parse-syntax-error@3:13", "parse-syntax-error@6:15"}));
    ASSERT_EQ(sink.size(), 2u);
    EXPECT_EQ(sink.all()[0].message,
              "expected 'then' after the condition of the when-equation, found identifier 'y'; add "
              "'then' at the end of line 3");
    const auto& eqs = t.classes[0]->equation_sections[0].equations;
    ASSERT_EQ(eqs.size(), 2u);
    EXPECT_EQ(shape(eqs[0].branches[0].condition.get()), "(> x 1)");
    EXPECT_EQ(eqs[0].branches[0].body.size(), 1u);
    EXPECT_EQ(eqs[1].body.size(), 1u);
}

TEST_F(ParseTest, BadConditionStillParsesTheBlockBody) {
    const StoredDefinition& t = parse(R"(model M
equation
  if x > then
    y = 1;
  else
    y = 2;
  end if;
end M;
)");
    EXPECT_EQ(where(), (std::vector<std::string>{"parse-syntax-error@3:10"}));
    const Equation& e = t.classes[0]->equation_sections[0].equations.at(0);
    ASSERT_EQ(e.branches.size(), 2u);
    EXPECT_EQ(e.branches[0].body.size(), 1u);
    EXPECT_EQ(e.branches[1].body.size(), 1u);
}

TEST_F(ParseTest, MisusedEndKeywordIsOneErrorNotACascade) {
    const StoredDefinition& t = parse(R"(model M
  Real end "end position";
  Real x(start = 1);
equation
  der(x) = -x;
end M;
)");
    EXPECT_EQ(where(), (std::vector<std::string>{"parse-syntax-error@2:8"})) << diags();
    EXPECT_NE(sink.all().at(0).message.find("found 'end'"), std::string::npos);
    ASSERT_EQ(t.classes.size(), 1u);
    EXPECT_EQ(t.classes[0]->elements.size(), 1u);
    EXPECT_EQ(t.classes[0]->equation_sections.at(0).equations.size(), 1u);
}

TEST_F(ParseTest, MismatchedEndNameNamesBoth) {
    const StoredDefinition& t = parse("model Foo\n  Real x;\nend Bar;\n");
    ASSERT_EQ(sink.all().size(), 1u) << diags();
    EXPECT_EQ(where()[0], "parse-syntax-error@3:5");
    EXPECT_EQ(sink.all()[0].message,
              "'end Bar' does not match the name of class 'Foo' opened at 1:1; write 'end Foo;'");
    ASSERT_EQ(t.classes.size(), 1u);
    EXPECT_EQ(t.classes[0]->elements.size(), 1u);
}

TEST_F(ParseTest, EndWithoutNameIsAnError) {
    parse("model Foo\nend;\n");
    ASSERT_EQ(sink.all().size(), 1u) << diags();
    EXPECT_EQ(sink.all()[0].message,
              "expected the class name 'Foo' after 'end', found ';'; write 'end Foo;'");
}

TEST_F(ParseTest, ExtraEndAtTheTopLevel) {
    const StoredDefinition& t = parse("model A\n  Real x;\nend A;\nend A;\nmodel B end B;\n");
    ASSERT_EQ(sink.all().size(), 1u) << diags();
    EXPECT_EQ(where()[0], "parse-syntax-error@4:1");
    EXPECT_NE(sink.all()[0].message.find("'end A' does not close any class"), std::string::npos);
    EXPECT_EQ(t.classes.size(), 2u);
}

TEST_F(ParseTest, NestedClassLeftOpenIsClosedByTheEnclosingEnd) {
    const StoredDefinition& t = parse("model A\n  model B\n    Real x;\n  Real y;\nend A;\n");
    ASSERT_EQ(sink.all().size(), 1u) << diags();
    EXPECT_EQ(where()[0], "parse-syntax-error@5:1");
    EXPECT_NE(sink.all()[0].message.find("class 'B' opened at 2:3 is not closed before 'end A'"),
              std::string::npos);
    ASSERT_EQ(t.classes.size(), 1u);
    EXPECT_EQ(t.classes[0]->name, "A");
    ASSERT_EQ(t.classes[0]->elements.size(), 1u);
    EXPECT_EQ(t.classes[0]->elements[0].class_def->name, "B");
    EXPECT_EQ(t.classes[0]->elements[0].class_def->elements.size(), 2u);
}

TEST_F(ParseTest, StrayAndMismatchedBlockEnds) {
    parse(R"(model M
equation
  end if;
  when x > 0 then
    y = 1;
  end if;
  if c then
    y = 2;
end M;
)");
    std::vector<std::string> expected{"parse-syntax-error@3:3", "parse-syntax-error@6:3",
                                      "parse-syntax-error@9:1"};
    EXPECT_EQ(where(), expected) << diags();
    ASSERT_EQ(sink.all().size(), 3u);
    EXPECT_NE(sink.all()[0].message.find("'end if' without a matching 'if'"), std::string::npos);
    EXPECT_EQ(sink.all()[1].message,
              "expected 'end when' to close the when-equation opened at 4:3, found 'end if'");
    EXPECT_EQ(sink.all()[2].message,
              "the if-equation opened at 7:3 is not closed before 'end M'; add 'end if;'");
}

TEST_F(ParseTest, TruncatedFileSaysWhichClassIsOpen) {
    const StoredDefinition& t = parse("package P\n  model A\n    Real x;\n  equation\n    x = 1;\n");
    ASSERT_EQ(sink.all().size(), 1u) << diags();
    EXPECT_EQ(sink.all()[0].rule, "parse-syntax-error");
    EXPECT_EQ(sink.all()[0].message,
              "unexpected end of file: class 'A' opened at 2:3 is not closed; add 'end A;'");
    EXPECT_EQ(sink.all()[0].range.begin.line, 6u);
    // The partial tree keeps what was read.
    ASSERT_EQ(t.classes.size(), 1u);
    const ClassDef& a = *t.classes[0]->elements[0].class_def;
    EXPECT_EQ(a.equation_sections[0].equations.size(), 1u);
}

TEST_F(ParseTest, TruncatedInsideAnExpression) {
    parse("model A\n  Real x = (1 + ");
    ASSERT_EQ(sink.all().size(), 1u) << diags();
    EXPECT_NE(sink.all()[0].message.find("unexpected end of file: class 'A' opened at 1:1"),
              std::string::npos);
}

TEST_F(ParseTest, UnterminatedCommentIsReportedAtItsStart) {
    parse("model A\n  Real x; /* forgot\nend A;\n");
    ASSERT_EQ(sink.all().size(), 2u) << diags();
    EXPECT_EQ(where()[0], "parse-syntax-error@2:11");
    EXPECT_NE(sink.all()[0].message.find("unterminated comment"), std::string::npos);
    EXPECT_NE(sink.all()[1].message.find("unexpected end of file"), std::string::npos);
}

TEST_F(ParseTest, TooManyErrorsStops) {
    std::string text = "model A\n";
    for (int i = 0; i < 30; ++i) text += "  Real x" + std::to_string(i) + " = ;\n";
    text += "end A;\n";
    parse(text);
    ASSERT_EQ(sink.all().size(), 21u) << diags();
    for (std::size_t i = 0; i < 20; ++i)
        EXPECT_EQ(sink.all()[i].range.begin.line, i + 2) << sink.all()[i].message;
    EXPECT_EQ(sink.all()[20].rule, "parse-syntax-error");
    EXPECT_NE(sink.all()[20].message.find("too many errors; stopping"), std::string::npos);

    DiagnosticSink small;
    SourceManager sm2;
    ParseLimits limits;
    limits.max_errors = 3;
    parse_file(sm2, sm2.add("t.mo", text), small, limits);
    ASSERT_EQ(small.size(), 4u);
    EXPECT_NE(small.all()[3].message.find("too many errors; stopping"), std::string::npos);
}

TEST_F(ParseTest, ExactlyMaxErrorsDoesNotSayStopping) {
    std::string text = "model A\n";
    for (int i = 0; i < 20; ++i) text += "  Real x" + std::to_string(i) + " = ;\n";
    text += "end A;\n";
    parse(text);
    ASSERT_EQ(sink.all().size(), 20u);
    for (const Diagnostic& d : sink.all()) EXPECT_EQ(d.message.find("too many"), std::string::npos);
}

TEST_F(ParseTest, TopLevelGarbage) {
    const StoredDefinition& t = parse("Real x;\nmodel A end A;\n");
    ASSERT_EQ(sink.all().size(), 1u) << diags();
    EXPECT_EQ(where()[0], "parse-syntax-error@1:1");
    EXPECT_NE(sink.all()[0].message.find("expected a class definition"), std::string::npos);
    EXPECT_EQ(t.classes.size(), 1u);
}

// ---------------------------------------------------------------- bounds

TEST_F(ParseTest, HundredThousandParenthesesAreTooDeepNotACrash) {
    std::string text = "model A\n  Real x = " + std::string(100000, '(') + "1" +
                       std::string(100000, ')') + ";\nend A;\n";
    const StoredDefinition& t = parse(text);
    ASSERT_EQ(sink.all().size(), 1u) << diags();
    EXPECT_EQ(sink.all()[0].rule, "parse-nesting-too-deep");
    EXPECT_EQ(sink.all()[0].message, "nesting deeper than 200 levels; simplify the expression");
    EXPECT_EQ(sink.all()[0].range.begin.line, 2u);
    ASSERT_EQ(t.classes.size(), 1u);  // the partial tree keeps the class
    EXPECT_EQ(t.classes[0]->name, "A");
}

TEST_F(ParseTest, OtherDeepNestingIsBoundedToo) {
    const std::string cases[] = {
        "model A\n  Real x = " + std::string(100000, '-') + "1;\nend A;\n",
        "model A\n  Real x = " + [] {
            std::string s;
            for (int i = 0; i < 50000; ++i) s += "not ";
            return s;
        }() + "b;\nend A;\n",
        "model A\n  Real x = " + std::string(100000, '{') + "\n",
        [] {
            std::string s = "model A\nequation\n";
            for (int i = 0; i < 50000; ++i) s += "if c then\n";
            return s;
        }(),
        [] {
            std::string s;
            for (int i = 0; i < 50000; ++i) s += "model A" + std::to_string(i) + "\n";
            return s;
        }(),
        "model A\n  Real x(" + [] {
            std::string s;
            for (int i = 0; i < 50000; ++i) s += "a(";
            return s;
        }() + "\n",
        "model A\n  Real x = a" + [] {
            std::string s;
            for (int i = 0; i < 50000; ++i) s += "[a";
            return s;
        }() + "\n",
    };
    for (const std::string& text : cases) {
        SourceManager sm2;
        DiagnosticSink s2;
        auto t = parse_file(sm2, sm2.add("deep.mo", text), s2);
        ASSERT_NE(t, nullptr);
        ASSERT_EQ(s2.size(), 1u) << text.substr(0, 60);
        EXPECT_EQ(s2.all()[0].rule, "parse-nesting-too-deep") << text.substr(0, 60);
    }
}

TEST_F(ParseTest, NestingMessageNamesWhatIsDeep) {
    std::string s = "model A\nequation\n";
    for (int i = 0; i < 300; ++i) s += "if c then\n";
    parse(s);
    ASSERT_EQ(sink.size(), 1u);
    EXPECT_EQ(sink.all()[0].message, "nesting deeper than 200 levels; simplify the nesting of equations");
}

TEST_F(ParseTest, LongFlatSumsAreFineButUnboundedChainsAreNot) {
    std::string sum = "1";
    for (int i = 0; i < 2000; ++i) sum += " + x";
    const Expr* e = expr(sum);
    ASSERT_NE(e, nullptr);
    EXPECT_TRUE(sink.all().empty()) << diags();

    std::string huge = "1";
    for (int i = 0; i < 100000; ++i) huge += "+1";
    SourceManager sm2;
    DiagnosticSink s2;
    parse_file(sm2, sm2.add("chain.mo", "model A\n  Real x = " + huge + ";\nend A;\n"), s2);
    ASSERT_EQ(s2.size(), 1u);
    EXPECT_EQ(s2.all()[0].rule, "parse-nesting-too-deep");
}

TEST_F(ParseTest, LongElseifChainsAreBoundedLikeOperatorChains) {
    // Flat in the syntax tree, nested in every later stage: 2,000 elseif
    // branches are fine, 50,000 were a stack overflow after parsing.
    auto chain = [](int n) {
        std::string s = "model A\n  Real x;\n  Real y = if x < 0 then 0";
        for (int i = 0; i < n; ++i) s += " elseif x < " + std::to_string(i) + " then " + std::to_string(i);
        return s + " else 1;\nend A;\n";
    };
    parse(chain(2000));
    EXPECT_TRUE(sink.all().empty()) << diags();
    SourceManager sm2;
    DiagnosticSink s2;
    parse_file(sm2, sm2.add("elseif.mo", chain(50000)), s2);
    ASSERT_EQ(s2.size(), 1u);
    EXPECT_EQ(s2.all()[0].rule, "parse-nesting-too-deep");
    EXPECT_NE(s2.all()[0].message.find("50000 elseif branches"), std::string::npos) << s2.all()[0].message;
}

TEST_F(ParseTest, DepthBoundIsConfigurable) {
    ParseLimits limits;
    limits.max_depth = 10;
    parse("model A\n  Real x = ((((((((((((1))))))))))));\nend A;\n", limits);
    ASSERT_EQ(sink.size(), 1u);
    EXPECT_EQ(sink.all()[0].message, "nesting deeper than 10 levels; simplify the expression");
}

TEST_F(ParseTest, PartialTreeKeepsEarlierClassesWhenAbandoned) {
    std::string text = "model Good\n  Real x;\nend Good;\nmodel Bad\n  Real y = " +
                       std::string(1000, '(') + "\n";
    const StoredDefinition& t = parse(text);
    ASSERT_EQ(sink.size(), 1u);
    ASSERT_EQ(t.classes.size(), 2u);
    EXPECT_EQ(t.classes[0]->name, "Good");
    EXPECT_EQ(t.classes[0]->elements.size(), 1u);
    EXPECT_EQ(t.classes[1]->name, "Bad");
}

// ---------------------------------------------------------------- encoding

TEST_F(ParseTest, InvalidUtf8IsAnEncodingErrorAtItsLineAndColumn) {
    const StoredDefinition& t = parse("model A\n  Real x; // caf\xE9\n  Real \xFF;\nend A;\n");
    ASSERT_EQ(sink.all().size(), 1u) << diags();
    const Diagnostic& d = sink.all()[0];
    EXPECT_EQ(d.rule, "parse-invalid-encoding");
    EXPECT_EQ(d.range.begin.line, 2u);
    EXPECT_EQ(d.range.begin.column, 17u);
    EXPECT_NE(d.message.find("byte offset 24"), std::string::npos) << d.message;
    EXPECT_TRUE(t.classes.empty());
    EXPECT_TRUE(sink.has_input_errors());
}

TEST_F(ParseTest, NonAsciiInStringsCommentsAndQuotedNamesIsFine) {
    parse("model A \"\xC3\xA9t\xC3\xA9\"\n  Real '\xCE\xB1' = 1; // \xE2\x82\xAC\nend A;\n");
    EXPECT_TRUE(sink.all().empty()) << diags();
    EXPECT_EQ(tree->classes[0]->description, "\xC3\xA9t\xC3\xA9");
    EXPECT_EQ(tree->classes[0]->elements[0].component->decls[0].name, "'\xCE\xB1'");
}

TEST_F(ParseTest, NonAsciiIdentifierIsOneSyntaxError) {
    parse("model A\n  Real h\xC3\xB6he;\n  Real y;\nend A;\n");
    ASSERT_EQ(sink.all().size(), 1u) << diags();
    EXPECT_EQ(where()[0], "parse-syntax-error@2:8");
    EXPECT_NE(sink.all()[0].message.find("unexpected character"), std::string::npos);
    EXPECT_EQ(tree->classes[0]->elements.size(), 1u);
}

}  // namespace
}  // namespace modeaudit
