#include "flatten/implicit_ranges.h"

#include <algorithm>

namespace modeaudit::flat {
namespace {

bool binds(const std::vector<ast::ForIterator>& its, const std::string& name) {
    return std::any_of(its.begin(), its.end(), [&](const ast::ForIterator& it) { return it.name == name; });
}

class UseFinder {
public:
    explicit UseFinder(const std::string& name) : name_(name) {}

    void expr(const ast::Expr* e) {
        if (!e) return;
        for (const ast::ForIterator& it : e->iterators) expr(it.range.get());
        if (binds(e->iterators, name_)) return;  // a comprehension over the same name
        if (e->kind == ast::ExprKind::Ref) ref(e->ref);
        for (const ast::ExprPtr& o : e->operands) expr(o.get());
        for (const ast::FunctionArg& a : e->args) expr(a.value.get());
    }

    void equations(const std::vector<ast::Equation>& body) {
        for (const ast::Equation& eq : body) {
            expr(eq.lhs.get());
            expr(eq.rhs.get());
            expr(eq.call.get());
            for (const auto& br : eq.branches) {
                expr(br.condition.get());
                equations(br.body);
            }
            for (const ast::ForIterator& it : eq.indices) expr(it.range.get());
            if (!binds(eq.indices, name_)) equations(eq.body);
        }
    }

    void statements(const std::vector<ast::Statement>& body) {
        for (const ast::Statement& s : body) {
            expr(s.lhs.get());
            expr(s.rhs.get());
            expr(s.call.get());
            for (const auto& br : s.branches) {
                expr(br.condition.get());
                statements(br.body);
            }
            for (const ast::ForIterator& it : s.indices) expr(it.range.get());
            if (!binds(s.indices, name_)) statements(s.body);
        }
    }

    std::vector<IteratorUse> uses;

private:
    void ref(const ast::ComponentRef& r) {
        for (std::size_t k = 0; k < r.parts.size(); ++k)
            for (std::size_t j = 0; j < r.parts[k].subscripts.size(); ++j) {
                const ast::Expr& s = *r.parts[k].subscripts[j];
                if (s.kind == ast::ExprKind::Ref && !s.ref.global && s.ref.simple() && s.ref.parts[0].ident == name_)
                    uses.push_back({&r, k, j, s.range});
                else
                    expr(&s);
            }
    }

    const std::string& name_;
};

}  // namespace

std::vector<IteratorUse> iterator_uses(const std::string& name, const std::vector<ast::Equation>& body) {
    UseFinder f(name);
    f.equations(body);
    return std::move(f.uses);
}

std::vector<IteratorUse> iterator_uses(const std::string& name, const std::vector<ast::Statement>& body) {
    UseFinder f(name);
    f.statements(body);
    return std::move(f.uses);
}

std::vector<IteratorUse> iterator_uses(const std::string& name, const ast::Expr& body) {
    UseFinder f(name);
    f.expr(&body);
    return std::move(f.uses);
}

}  // namespace modeaudit::flat
