#include "flatten/connections.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <set>

#include "common/internal_error.h"
#include "flatten/expression_builder.h"
#include "flatten/expression_limits.h"
#include "flatten/symbol_substitution.h"

namespace modeaudit {

namespace {

using flat::Member;
using GiNaC::ex;

struct Element {
    int variable;
    bool inside;
    bool operator<(const Element& o) const {
        return variable != o.variable ? variable < o.variable : inside < o.inside;
    }
};

// The node of each element of the connection graph. A flat variable's two
// elements (inside, outside) are looked up by index, in constant time: a
// model with n connectors has O(n) elements, and an ordered map of them
// made the resolution n log n with a cache miss per step. The elements
// that connect() adds to expandable connectors (negative ids) are few and
// stay in a map.
class NodeIndex {
public:
    explicit NodeIndex(std::size_t variables) : nodes_(2 * variables, -1) {}
    int find(Element e) const {
        if (e.variable < 0) {
            auto it = added_.find(e);
            return it == added_.end() ? -1 : it->second;
        }
        const std::size_t k = slot(e);
        return k < nodes_.size() ? nodes_[k] : -1;
    }
    bool contains(Element e) const { return find(e) >= 0; }
    void set(Element e, int n) {
        if (e.variable < 0) {
            added_[e] = n;
            return;
        }
        const std::size_t k = slot(e);
        if (k >= nodes_.size()) nodes_.resize(k + 2, -1);
        nodes_[k] = n;
    }

private:
    static std::size_t slot(Element e) { return 2 * static_cast<std::size_t>(e.variable) + (e.inside ? 1 : 0); }
    std::vector<int> nodes_;
    std::map<Element, int> added_;
};

enum class VarKind { Potential, Flow, Stream, Skip };

VarKind kind_of(const Member& m, const FlatModel& model) {
    const FlatVariable& v = model.variables[static_cast<std::size_t>(m.variable)];
    if (v.variability == Variability::Parameter || v.variability == Variability::Constant) return VarKind::Skip;
    if (m.prefix.flow) return VarKind::Flow;
    if (m.prefix.stream) return VarKind::Stream;
    return VarKind::Potential;
}

// What the connection equations need of one connector variable found by
// the walk over the instance tree: an inside flow (zero when unconnected),
// a stream variable (with its connector's flow variable), or a declared
// element of an expandable connector (with the connector's path, for
// messages).
struct ConnectorItem {
    enum class Kind { Flow, Stream, ExpandableElement } kind;
    int variable;
    int flow_variable;  // Stream
    bool flow;          // ExpandableElement: declared a flow variable (refused)
    SourceRange declaration;
    std::string connector_path;  // ExpandableElement
};

class UnionFind {
public:
    int size() const { return static_cast<int>(parent_.size()); }
    int add() {
        parent_.push_back(static_cast<int>(parent_.size()));
        rank_.push_back(0);
        return parent_.back();
    }
    int find(int x) {
        while (parent_[static_cast<std::size_t>(x)] != x) {
            int& p = parent_[static_cast<std::size_t>(x)];
            p = parent_[static_cast<std::size_t>(p)];  // path halving
            x = p;
        }
        return x;
    }
    void unite(int a, int b) {
        a = find(a);
        b = find(b);
        if (a == b) return;
        if (rank_[static_cast<std::size_t>(a)] < rank_[static_cast<std::size_t>(b)]) std::swap(a, b);
        parent_[static_cast<std::size_t>(b)] = a;
        if (rank_[static_cast<std::size_t>(a)] == rank_[static_cast<std::size_t>(b)]) ++rank_[static_cast<std::size_t>(a)];
    }

private:
    std::vector<int> parent_, rank_;
};

// Smooth positive part: (x + sqrt(x^2 + eps^2))/2, with eps = 1e-5 (flow units).
ex positive_part(const ex& x) {
    ex eps = GiNaC::numeric(1, 100000);
    return (x + GiNaC::sqrt(x * x + eps * eps)) / 2;
}

// `subs(e, options)` substitutes in one expression.
template <class Subs>
ConditionPtr subs_condition(const ConditionPtr& c, const Subs& subs) {
    if (!c) return c;
    auto r = std::make_shared<Condition>(*c);
    if (c->kind == Condition::Kind::Relation || c->kind == Condition::Kind::Sample) {
        r->lhs = subs(c->lhs, kExactSubs);
        r->rhs = subs(c->rhs, kExactSubs);
    }
    for (ConditionPtr& o : r->operands) o = subs_condition(o, subs);
    return r;
}

// Substitutes in every expression of the model, with `subs` as above.
template <class Subs>
void substitute_with(FlatModel& model, const Subs& subs) {
    for (auto* list : {&model.equations, &model.initial_equations})
        for (FlatEquation& e : *list) {
            e.lhs = subs(e.lhs, kExactSubs);
            e.rhs = subs(e.rhs, kExactSubs);
        }
    for (FlatWhen& w : model.whens) {
        for (ConditionPtr& t : w.triggers) t = subs_condition(t, subs);
        for (WhenAction& a : w.actions) {
            a.value = subs(a.value, kExactSubs);
            a.lhs = subs(a.lhs, kExactSubs);
            a.rhs = subs(a.rhs, kExactSubs);
            a.bool_value = subs_condition(a.bool_value, subs);
            a.assertion = subs_condition(a.assertion, subs);
        }
    }
    for (RelationDefinition& r : model.relation_definitions) r.condition = subs_condition(r.condition, subs);
    for (IntegerDefinition& d : model.integer_definitions) d.value = subs(d.value, kExactSubs);
    for (FlatAssert& a : model.asserts) a.condition = subs_condition(a.condition, subs);
    for (ConditionPtr& c : model.conditions) c = subs_condition(c, subs);
    for (FlatVariable& v : model.variables)
        if (v.invariant && v.invariant->rate) v.invariant->rate = subs(*v.invariant->rate, 0);
}

}  // namespace

void substitute_everywhere(FlatModel& model, const GiNaC::exmap& map) {
    if (map.empty()) return;
    // A map of symbols (the aliases) by a hash index: each expression is
    // substituted with the few entries for its own symbols.
    if (SymbolSubstitution::symbols_only(map)) {
        substitute_everywhere(model, SymbolSubstitution(map));
        return;
    }
    substitute_with(model, [&](const ex& e, unsigned options) { return e.subs(map, options); });
}

void substitute_everywhere(FlatModel& model, const SymbolSubstitution& by_symbol) {
    if (by_symbol.empty()) return;
    substitute_with(model, [&](const ex& e, unsigned options) { return by_symbol.apply(e, options); });
}

namespace {

// The member of a connection set of discrete Boolean or Integer variables
// that the others take their value from: the one defined by an equation or
// assigned in a when-clause (`defined()`, per flat variable, asked only
// for a discrete set); -1 when the set is not discrete or has none (or
// several).
template <class Defined>
int discrete_source(const FlatModel& model, const std::vector<int>& vars, Defined defined) {
    int source = -1;
    for (int v : vars) {
        const FlatVariable& var = model.variables[static_cast<std::size_t>(v)];
        if (var.variability != Variability::Discrete || (var.type != BaseType::Boolean && var.type != BaseType::Integer))
            return -1;
    }
    for (int v : vars) {
        if (!defined()[static_cast<std::size_t>(v)]) continue;
        if (source >= 0) return -1;
        source = v;
    }
    return source;
}

}  // namespace

bool resolve_connections(FlatModel& model, const flat::Instance& top, const std::vector<ConnectRecord>& connects,
                         DiagnosticSink& sink, const std::vector<const ast::ClassDef*>& enumeration_of,
                         const std::function<void()>& release) {
    UnionFind uf;
    NodeIndex node_of(model.variables.size());
    std::vector<Element> elements;
    std::vector<VarKind> kinds;
    std::vector<SourceRange> first_use;
    auto node = [&](Element e, VarKind k, SourceRange r) {
        if (int known = node_of.find(e); known >= 0) return known;
        int n = uf.add();
        node_of.set(e, n);
        elements.push_back(e);
        kinds.push_back(k);
        first_use.push_back(r);
        return n;
    };
    bool ok = true;
    // Pair the scalar variables of two connectors, structure by structure.
    std::function<bool(const Member&, const Member&, const ConnectRecord&, const std::string&, const std::string&)> pair =
        [&](const Member& a, const Member& b, const ConnectRecord& rec, const std::string& an,
            const std::string& bn) -> bool {
        if (a.kind != b.kind) {
            sink.report(rule::flatten_type_mismatch, rec.range,
                        fmt::format("{}: '{}' and '{}' have different structure", rec.text, an, bn));
            return false;
        }
        switch (a.kind) {
            case Member::Kind::Array:
                if (a.elements.size() != b.elements.size()) {
                    sink.report(rule::flatten_type_mismatch, rec.range,
                                fmt::format("{}: arrays of sizes {} and {}", rec.text, a.elements.size(),
                                            b.elements.size()));
                    return false;
                }
                for (std::size_t i = 0; i < a.elements.size(); ++i)
                    if (!pair(a.elements[i], b.elements[i], rec, fmt::format("{}[{}]", an, i + 1),
                              fmt::format("{}[{}]", bn, i + 1)))
                        return false;
                return true;
            case Member::Kind::Object: {
                const auto& ao = a.object->member_order;
                std::vector<std::string> as, bs;
                for (const flat::Instance::MemberEntry* e : ao) as.push_back(e->first);
                for (const flat::Instance::MemberEntry* e : b.object->member_order) bs.push_back(e->first);
                std::sort(as.begin(), as.end());
                std::sort(bs.begin(), bs.end());
                if (as != bs) {
                    sink.report(rule::flatten_type_mismatch, rec.range,
                                fmt::format("{}: connectors '{}' and '{}' have different variables", rec.text, an, bn));
                    return false;
                }
                for (const flat::Instance::MemberEntry* e : ao)
                    if (!pair(e->second, b.object->members.at(e->first), rec, an + "." + e->first, bn + "." + e->first))
                        return false;
                return true;
            }
            case Member::Kind::Scalar: {
                VarKind ka = kind_of(a, model), kb = kind_of(b, model);
                if (ka != kb) {
                    sink.report(rule::flatten_type_mismatch, rec.range,
                                fmt::format("{}: '{}' and '{}' differ in flow/stream prefix", rec.text, an, bn));
                    return false;
                }
                if (ka == VarKind::Skip) return true;
                int x = node({a.variable, rec.a.inside}, ka, rec.range);
                int y = node({b.variable, rec.b.inside}, kb, rec.range);
                uf.unite(x, y);
                return true;
            }
        }
        return true;
    };
    // Expandable connectors (Modelica 3.6, 9.1.3): an element that connect()
    // adds is a node of its own, named by the connector instance's path and
    // the element; expandable connectors connected to each other have the
    // union of their elements, each joined by name.
    std::map<std::string, int> added;                          // "path.element" -> node
    std::map<const flat::Instance*, std::set<std::string>> added_to;
    std::vector<std::pair<const flat::Instance*, const flat::Instance*>> joined;
    auto added_node = [&](const flat::Instance* in, const std::string& path, const std::string& element,
                          SourceRange r) {
        const std::string key = path.empty() ? element : path + "." + element;
        if (auto it = added.find(key); it != added.end()) return it->second;
        const int n = node({-2 - static_cast<int>(added.size()), false}, VarKind::Potential, r);
        added[key] = n;
        if (in) added_to[in].insert(element);
        return n;
    };
    std::map<std::string, const flat::Instance*> instance_at;  // expandable connector instances by path
    auto expandable = [&](const ConnectorRef& c) {
        const bool is = c.member && c.member->kind == Member::Kind::Object && c.member->object->expandable();
        if (is) instance_at[c.member->object->path] = c.member->object;
        return is;
    };
    auto unsupported = [&](const ConnectRecord& rec, const std::string& what) {
        sink.report(rule::flatten_unsupported_construct, rec.range, fmt::format("{}: {}", rec.text, what),
                    {"connect each signal of the bus to a scalar connector (a RealInput or RealOutput)"});
        ok = false;
    };
    std::vector<const ConnectRecord*> element_records;
    for (const ConnectRecord& rec : connects) {
        if (rec.a.expandable_in || rec.b.expandable_in) {
            element_records.push_back(&rec);
            continue;
        }
        const bool ea = expandable(rec.a), eb = expandable(rec.b);
        if (ea && eb) {
            joined.emplace_back(rec.a.member->object, rec.b.member->object);
        } else if (ea || eb) {
            unsupported(rec, fmt::format("an expandable connector ('{}') connected to one that is not ('{}') is not "
                                         "supported",
                                         ea ? rec.a.name : rec.b.name, ea ? rec.b.name : rec.a.name));
        } else if (!pair(*rec.a.member, *rec.b.member, rec, rec.a.name, rec.b.name)) {
            ok = false;
        }
    }
    for (const ConnectRecord* rec : element_records) {
        if (rec->a.expandable_in && !rec->a.member && rec->b.expandable_in && !rec->b.member) {
            sink.report(rule::flatten_type_mismatch, rec->range,
                        fmt::format("{}: neither side is declared; an element an expandable connector does not "
                                    "declare gets its type from the other side of the connection (Modelica 3.6, "
                                    "9.1.3)",
                                    rec->text),
                        {"connect one of them to a connector, or declare it in the expandable connector"});
            ok = false;
            continue;
        }
        auto side_node = [&](const ConnectorRef& c) -> int {
            if (c.expandable_in && !c.member) {
                const ExpandableElementRef& at = *c.expandable_in;
                auto it = instance_at.find(at.connector_path);
                return added_node(it == instance_at.end() ? nullptr : it->second, at.connector_path, at.element, c.range);
            }
            if (c.member->kind != Member::Kind::Scalar) {
                unsupported(*rec, fmt::format("'{}' is a structured connector; only scalar connectors join an element "
                                              "of an expandable connector here",
                                              c.name));
                return -1;
            }
            const VarKind k = kind_of(*c.member, model);
            if (k == VarKind::Skip) return -2;
            if (k != VarKind::Potential) {
                unsupported(*rec, fmt::format("'{}' is a flow or stream variable; only potential variables join an "
                                              "element of an expandable connector here",
                                              c.name));
                return -1;
            }
            // One node per element variable, however it is reached (a
            // potential variable: inside and outside are the same value).
            return node({c.member->variable, true}, k, rec->range);
        };
        // A declared element joined to a connector: the same type (Real,
        // Integer, Boolean, or one enumeration).
        if (rec->a.member && rec->b.member && rec->a.member->kind == Member::Kind::Scalar &&
            rec->b.member->kind == Member::Kind::Scalar) {
            const int va = rec->a.member->variable, vb = rec->b.member->variable;
            auto enumeration = [&](int v) {
                return static_cast<std::size_t>(v) < enumeration_of.size() ? enumeration_of[static_cast<std::size_t>(v)]
                                                                           : static_cast<const ast::ClassDef*>(nullptr);
            };
            if (model.variables[static_cast<std::size_t>(va)].type != model.variables[static_cast<std::size_t>(vb)].type ||
                enumeration(va) != enumeration(vb)) {
                sink.report(rule::flatten_type_mismatch, rec->range,
                            fmt::format("{}: '{}' and '{}' are of different types", rec->text, rec->a.name, rec->b.name));
                ok = false;
                continue;
            }
        }
        const int x = side_node(rec->a), y = side_node(rec->b);
        if (x >= 0 && y >= 0) uf.unite(x, y);
    }
    if (!joined.empty()) {
        // Connected expandable connectors: classes by union-find over
        // their instances, then every element name of a class joined.
        std::map<const flat::Instance*, int> index;
        std::vector<const flat::Instance*> by_index;
        auto id = [&](const flat::Instance* in) {
            auto [it, fresh] = index.try_emplace(in, static_cast<int>(by_index.size()));
            if (fresh) by_index.push_back(in);
            return it->second;
        };
        UnionFind classes;
        for (const auto& [a, b] : joined) {
            const int ia = id(a), ib = id(b);
            while (classes.size() <= std::max(ia, ib)) classes.add();
            classes.unite(ia, ib);
        }
        std::map<int, std::vector<const flat::Instance*>> members;
        for (std::size_t i = 0; i < by_index.size(); ++i) members[classes.find(static_cast<int>(i))].push_back(by_index[i]);
        for (const auto& [root, instances] : members) {
            std::set<std::string> names;
            for (const flat::Instance* in : instances) {
                if (auto it = added_to.find(in); it != added_to.end()) names.insert(it->second.begin(), it->second.end());
                for (const auto& [n, m] : in->members)
                    if (m.kind == Member::Kind::Scalar) names.insert(n);
            }
            for (const std::string& n : names) {
                int first = -1;
                for (const flat::Instance* in : instances) {
                    int x;
                    if (auto it = in->members.find(n); it != in->members.end()) {
                        if (it->second.kind != Member::Kind::Scalar || kind_of(it->second, model) != VarKind::Potential)
                            continue;
                        x = node({it->second.variable, true}, VarKind::Potential, model.range);
                    } else {
                        x = added_node(in, in->path, n, model.range);
                    }
                    if (first < 0)
                        first = x;
                    else
                        uf.unite(first, x);
                }
            }
        }
    }
    if (!ok) return false;

    // The declared scalar elements of every expandable connector instance:
    // a connection set of such elements only (no other connector gives
    // them a value) leaves them potentially present, not variables (9.1.3).
    std::set<int> declared_elements, not_present;
    std::function<void(const Member&)> find_declared = [&](const Member& m) {
        if (m.outer) return;
        if (m.kind == Member::Kind::Array)
            for (const Member& e : m.elements) find_declared(e);
        if (m.kind != Member::Kind::Object) return;
        const bool expandable_here = m.expandable_connector();
        for (const flat::Instance::MemberEntry* e : m.object->member_order) {
            const Member& c = e->second;
            if (c.kind == Member::Kind::Scalar && expandable_here) declared_elements.insert(c.variable);
            find_declared(c);
        }
    };
    for (const flat::Instance::MemberEntry* e : top.member_order) find_declared(e->second);

    // Walk every connector instance once, keeping what the rest needs of
    // the instance tree (below), so that the tree and the records can be
    // freed before the connection equations are built.
    std::vector<ConnectorItem> items;
    std::function<void(const Member&, bool)> visit_connector = [&](const Member& m, bool in_connector) {
        if (m.outer) return;  // visited where its inner element is declared
        switch (m.kind) {
            case Member::Kind::Array:
                for (const Member& e : m.elements) visit_connector(e, in_connector);
                return;
            case Member::Kind::Object: {
                if (m.expandable_connector())
                    for (const flat::Instance::MemberEntry* e : m.object->member_order) {
                        const Member& c = e->second;
                        if (c.kind == Member::Kind::Scalar)
                            items.push_back({ConnectorItem::Kind::ExpandableElement, c.variable, -1, c.prefix.flow,
                                             c.declaration, m.object->path});
                    }
                bool conn = in_connector || m.is_connector;
                int flow_var = -1;
                if (m.is_connector)
                    for (const flat::Instance::MemberEntry* e : m.object->member_order) {
                        const Member& c = e->second;
                        if (c.kind == Member::Kind::Scalar && c.prefix.flow) flow_var = c.variable;
                    }
                for (const flat::Instance::MemberEntry* e : m.object->member_order) {
                    const Member& c = e->second;
                    if (c.kind == Member::Kind::Scalar && m.is_connector) {
                        const VarKind k = kind_of(c, model);
                        if (k == VarKind::Flow)
                            items.push_back({ConnectorItem::Kind::Flow, c.variable, -1, true, c.declaration, {}});
                        if (k == VarKind::Stream)
                            items.push_back({ConnectorItem::Kind::Stream, c.variable, flow_var, false, c.declaration, {}});
                    } else {
                        visit_connector(c, conn);
                    }
                }
                for (const auto& [n, c] : m.object->inner_parts()) visit_connector(c, conn);
                return;
            }
            case Member::Kind::Scalar:
                return;
        }
    };
    for (const flat::Instance::MemberEntry* e : top.member_order) {
        const Member& m = e->second;
        if (m.kind == Member::Kind::Scalar) continue;
        visit_connector(m, false);
    }
    for (const auto& [n, m] : top.inner_parts())
        if (m.kind != Member::Kind::Scalar) visit_connector(m, false);
    // From here on neither the instance tree nor the records are read.
    if (release) release();

    // Sets in a deterministic order: by their smallest node (first
    // connection). Nodes are visited in increasing order, so a set is
    // numbered when its smallest node is met: the numbering is that order,
    // with no sort, and each set lists its nodes in increasing order.
    std::vector<std::vector<int>> ordered;
    std::vector<std::size_t> set_of(elements.size());  // node -> its set (for inStream)
    {
        constexpr std::size_t kNone = static_cast<std::size_t>(-1);
        std::vector<std::size_t> set_of_root(elements.size(), kNone);
        for (int n = 0; n < static_cast<int>(elements.size()); ++n) {
            std::size_t& s = set_of_root[static_cast<std::size_t>(uf.find(n))];
            if (s == kNone) {
                s = ordered.size();
                ordered.emplace_back();
            }
            ordered[s].push_back(n);
            set_of[static_cast<std::size_t>(n)] = s;
        }
    }

    // Which discrete variables an equation or a when-clause defines, for
    // discrete_source: gathered once (when a discrete set needs it) and kept
    // up to date below, rather than a scan of every definition per set.
    std::optional<std::vector<char>> defined;
    auto defined_variables = [&]() -> const std::vector<char>& {
        if (!defined) {
            defined.emplace(model.variables.size(), 0);
            auto mark = [&](int v) {
                if (v >= 0 && static_cast<std::size_t>(v) < defined->size()) (*defined)[static_cast<std::size_t>(v)] = 1;
            };
            for (const RelationDefinition& r : model.relation_definitions) mark(r.variable);
            for (const IntegerDefinition& d : model.integer_definitions) mark(d.variable);
            for (const FlatWhen& w : model.whens)
                for (const WhenAction& a : w.actions)
                    if (a.kind == WhenAction::Kind::AssignDiscrete) mark(a.variable);
        }
        return *defined;
    };
    // Distinct variables of a potential set: the set that last took each.
    std::vector<std::size_t> taken_by(model.variables.size(), static_cast<std::size_t>(-1));
    // At most one equation per node (a set of m nodes gives m-1 equalities
    // or one balance) and one per unconnected flow: room for them at once,
    // instead of regrowing (and copying) the model's equations step by step.
    const auto flows = std::count_if(items.begin(), items.end(),
                                     [](const ConnectorItem& c) { return c.kind == ConnectorItem::Kind::Flow; });
    model.equations.reserve(model.equations.size() + elements.size() + static_cast<std::size_t>(flows));
    for (std::size_t s = 0; s < ordered.size(); ++s) {
        const std::vector<int>& members = ordered[s];
        VarKind k = kinds[static_cast<std::size_t>(members.front())];
        SourceRange where = first_use[static_cast<std::size_t>(members.front())];
        auto sym = [&](int n) -> ex { return model.symbols.variable(elements[static_cast<std::size_t>(n)].variable); };
        if (k == VarKind::Potential) {
            // Distinct variables only: an element may appear inside and outside.
            std::vector<int> vars;
            for (int n : members) {
                int v = elements[static_cast<std::size_t>(n)].variable;
                if (v < 0) continue;  // an element of an expandable connector: no variable of its own
                if (taken_by[static_cast<std::size_t>(v)] == s) continue;
                taken_by[static_cast<std::size_t>(v)] = s;
                vars.push_back(v);
            }
            if (vars.empty()) continue;
            if (std::all_of(vars.begin(), vars.end(), [&](int v) { return declared_elements.count(v) != 0; })) {
                not_present.insert(vars.begin(), vars.end());
                continue;
            }
            // Boolean and Integer connections: the member defined by an
            // equation or assigned in a when-clause (a block's output)
            // defines the others, as discrete definitions
            // (modes/discrete_logic.h), not as equations of the continuous
            // system.
            if (int source = discrete_source(model, vars, defined_variables); source >= 0) {
                for (int v : vars) {
                    if (v == source) continue;
                    if (defined) (*defined)[static_cast<std::size_t>(v)] = 1;  // defined from here on
                    if (model.variables[static_cast<std::size_t>(v)].type == BaseType::Boolean) {
                        auto c = std::make_shared<Condition>();
                        c->kind = Condition::Kind::Variable;
                        c->variable = source;
                        c->range = where;
                        model.relation_definitions.push_back({v, c, where});
                    } else {
                        model.integer_definitions.push_back({v, model.symbols.variable(source), where});
                    }
                }
                continue;
            }
            for (std::size_t i = 1; i < vars.size(); ++i) {
                FlatEquation e;
                e.lhs = model.symbols.variable(vars[0]);
                e.rhs = model.symbols.variable(vars[i]);
                e.range = where;
                e.origin = fmt::format("connection: {} = {}", model.variables[static_cast<std::size_t>(vars[0])].name,
                                       model.variables[static_cast<std::size_t>(vars[i])].name);
                model.equations.push_back(std::move(e));
            }
        } else if (k == VarKind::Flow) {
            // Built in one go: adding term by term is quadratic in the set size.
            GiNaC::exvector terms;
            std::string names;
            for (int n : members) {
                const Element& el = elements[static_cast<std::size_t>(n)];
                terms.push_back(el.inside ? sym(n) : -sym(n));
                if (names.size() < 200)
                    names += (names.empty() ? "" : ", ") + model.variables[static_cast<std::size_t>(el.variable)].name;
            }
            if (names.size() >= 200) names += fmt::format(", ... ({} in all)", members.size());
            FlatEquation e;
            e.lhs = GiNaC::add(terms);
            e.rhs = 0;
            e.range = where;
            e.origin = "flow balance: " + names;
            model.equations.push_back(std::move(e));
        }
    }

    // The connector walk's items, in its order: unconnected inside flows,
    // stream pairing, the elements of expandable connectors.
    struct StreamVar {
        int h;
        int flow;  // the connector's flow variable
    };
    std::vector<StreamVar> streams;
    // The declared scalar elements of an expandable connector: no flow
    // variable; one that no connection reaches and no equation reads is only
    // potentially present (9.1.3), not an unknown (marked exogenous: no
    // equation defines it and none needs it).
    std::optional<std::set<int>> read;
    auto expandable_element = [&](const ConnectorItem& c) {
        if (c.flow) {
            sink.report(rule::flatten_type_mismatch, c.declaration,
                        fmt::format("'{}' is a flow variable of the expandable connector '{}'; the elements of an "
                                    "expandable connector may not be flow variables (Modelica 3.6, 9.1.3)",
                                    model.variables[static_cast<std::size_t>(c.variable)].name, c.connector_path),
                        {"put the flow variable in a connector of its own, declared in the expandable connector"});
            ok = false;
            return;
        }
        if ((node_of.contains({c.variable, true}) || node_of.contains({c.variable, false})) && !not_present.count(c.variable))
            return;
        if (!read) {
            read.emplace();
            auto add = [&](const ex& e) {
                for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it)
                    if (GiNaC::is_a<GiNaC::symbol>(*it))
                        if (auto meaning = model.symbols.meaning(GiNaC::ex_to<GiNaC::symbol>(*it)))
                            read->insert(meaning->index);
            };
            std::function<void(const ConditionPtr&)> add_condition = [&](const ConditionPtr& cond) {
                if (!cond) return;
                add(cond->lhs);
                add(cond->rhs);
                if (cond->kind == Condition::Kind::Variable) read->insert(cond->variable);
                for (const ConditionPtr& o : cond->operands) add_condition(o);
            };
            for (const auto* list : {&model.equations, &model.initial_equations})
                for (const FlatEquation& e : *list) {
                    add(e.lhs);
                    add(e.rhs);
                }
            for (const FlatAssert& a : model.asserts) add_condition(a.condition);
            for (const ConditionPtr& cond : model.conditions) add_condition(cond);
            for (const FlatWhen& w : model.whens) {
                for (const ConditionPtr& t : w.triggers) add_condition(t);
                for (const WhenAction& a : w.actions) {
                    add(a.value);
                    add(a.rhs);
                    add_condition(a.bool_value);
                }
            }
        }
        FlatVariable& var = model.variables[static_cast<std::size_t>(c.variable)];
        if (read->count(c.variable)) {
            sink.report(rule::flatten_type_mismatch, c.declaration,
                        fmt::format("'{}' is declared in the expandable connector '{}' but connected nowhere, so "
                                    "it is only potentially present and cannot be read (Modelica 3.6, 9.1.3)",
                                    var.name, c.connector_path),
                        {"connect it to a connector that gives its value"});
            ok = false;
        } else if (var.variability == Variability::Continuous) {
            var.exogenous = true;
        }
    };
    for (const ConnectorItem& c : items) {
        switch (c.kind) {
            case ConnectorItem::Kind::Flow:
                if (!node_of.contains({c.variable, true})) {
                    FlatEquation e;
                    e.lhs = model.symbols.variable(c.variable);
                    e.rhs = 0;
                    e.range = c.declaration;
                    e.origin = "unconnected flow: " + model.variables[static_cast<std::size_t>(c.variable)].name;
                    model.equations.push_back(std::move(e));
                }
                break;
            case ConnectorItem::Kind::Stream:
                streams.push_back({c.variable, c.flow_variable});
                break;
            case ConnectorItem::Kind::ExpandableElement:
                expandable_element(c);
                break;
        }
    }
    if (!ok) return false;

    // inStream / actualStream.
    GiNaC::exmap stream_map;
    for (const StreamVar& sv : streams) {
        ex h = model.symbols.variable(sv.h);
        const std::string& hname = model.variables[static_cast<std::size_t>(sv.h)].name;
        ex in;
        const int at = node_of.find({sv.h, true});
        if (at < 0) {
            in = h;  // unconnected: inStream(h) = h
        } else {
            const std::vector<int>& members = ordered[set_of[static_cast<std::size_t>(at)]];
            std::vector<const Element*> others;
            bool has_outside = false;
            for (int n : members) {
                const Element& el = elements[static_cast<std::size_t>(n)];
                if (!el.inside) has_outside = true;
                if (!(el.variable == sv.h && el.inside)) others.push_back(&el);
            }
            if (has_outside) {
                sink.report(rule::flatten_unsupported_construct, model.variables[static_cast<std::size_t>(sv.h)].range,
                            fmt::format("inStream({}) through a hierarchical (outside) connector is not supported",
                                        hname));
                return false;
            }
            if (others.size() == 1) {
                in = model.symbols.variable(others[0]->variable);
            } else {
                // Mixing: weights are the regularized inflows of the other connectors.
                ex num = 0, den = 0;
                for (const Element* el : others) {
                    int f = -1;
                    for (const StreamVar& o : streams)
                        if (o.h == el->variable) f = o.flow;
                    if (f < 0) {
                        sink.report(rule::flatten_type_mismatch, model.variables[static_cast<std::size_t>(el->variable)].range,
                                    "a stream connector must have exactly one flow variable");
                        return false;
                    }
                    // Flow into the connection point from connector j is -m_j (m_j > 0 leaves the set into j).
                    ex w = positive_part(-ex(model.symbols.variable(f)));
                    num += w * model.symbols.variable(el->variable);
                    den += w;
                }
                in = num / den;
            }
        }
        stream_map[in_stream(h)] = in;
        if (sv.flow >= 0) {
            ex m = model.symbols.variable(sv.flow);
            // actualStream(h) = if m > 0 then inStream(h) else h, blended smoothly.
            ex wp = positive_part(m), wn = positive_part(-m);
            stream_map[actual_stream(h)] = (wp * in + wn * h) / (wp + wn);
        } else {
            stream_map[actual_stream(h)] = in;
        }
    }
    substitute_everywhere(model, stream_map);
    // Each side looked at as it is (building the residual lhs - rhs of every
    // equation cost more than the search itself).
    const ex in_pattern = in_stream(GiNaC::wild()), actual_pattern = actual_stream(GiNaC::wild());
    auto streams_left = [&](const ex& side) { return side.has(in_pattern) || side.has(actual_pattern); };
    for (const auto* list : {&model.equations, &model.initial_equations})
        for (const FlatEquation& e : *list)
            if (streams_left(e.lhs) || streams_left(e.rhs)) {
                sink.report(rule::flatten_type_mismatch, e.range,
                            "inStream()/actualStream() of a variable that is not a stream variable of a connector");
                return false;
            }
    return true;
}

void eliminate_aliases(FlatModel& model) {
    // Variables that must keep their identity: targets of when-actions and
    // carriers of declared invariants.
    std::vector<char> pinned_flag(model.variables.size(), 0);
    for (const FlatWhen& w : model.whens)
        for (const WhenAction& a : w.actions)
            if (a.variable >= 0 && static_cast<std::size_t>(a.variable) < pinned_flag.size())
                pinned_flag[static_cast<std::size_t>(a.variable)] = 1;
    for (std::size_t v = 0; v < model.variables.size(); ++v)
        if (model.variables[v].invariant || model.variables[v].exogenous) pinned_flag[v] = 1;
    auto pinned = [&](int v) { return pinned_flag[static_cast<std::size_t>(v)] != 0; };

    auto alias_of = [&](const FlatEquation& e, int& a, int& b, int& sign) -> bool {
        if (!e.active_when.empty() || e.initial) return false;
        const std::optional<LinearPair> p = linear_pair(model, e);
        if (!p || p->a == p->b) return false;
        for (const auto& [v, c] : {std::pair{p->a, p->ca}, std::pair{p->b, p->cb}}) {
            if (!(c == 1 || c == -1)) return false;
            const FlatVariable& var = model.variables[static_cast<std::size_t>(v)];
            if (var.variability != Variability::Continuous || var.type != BaseType::Real) return false;
        }
        a = p->a;
        b = p->b;
        sign = p->ca == p->cb ? -1 : 1;  // a - b = 0 -> a = b; a + b = 0 -> a = -b
        return true;
    };

    // Weighted union-find with signs: value(v) = sign_to_root * value(root).
    std::vector<int> parent(model.variables.size()), sgn(model.variables.size(), 1);
    std::iota(parent.begin(), parent.end(), 0);
    std::function<int(int)> find = [&](int v) -> int {
        if (parent[static_cast<std::size_t>(v)] == v) return v;
        int root = find(parent[static_cast<std::size_t>(v)]);
        sgn[static_cast<std::size_t>(v)] *= sgn[static_cast<std::size_t>(parent[static_cast<std::size_t>(v)])];
        parent[static_cast<std::size_t>(v)] = root;
        return root;
    };
    auto score = [&](int v) {
        // Prefer: derivatives used (a state), pinned, fixed start, short name, earlier declaration.
        const FlatVariable& var = model.variables[static_cast<std::size_t>(v)];
        int s = 0;
        if (model.symbols.highest_derivative(v) > 0) s += 8;
        if (pinned(v)) s += 16;
        if (var.fixed && var.start) s += 4;
        return s;
    };
    auto better = [&](int x, int y) {
        if (score(x) != score(y)) return score(x) > score(y);
        const std::string& nx = model.variables[static_cast<std::size_t>(x)].name;
        const std::string& ny = model.variables[static_cast<std::size_t>(y)].name;
        auto depth = [](const std::string& n) { return std::count(n.begin(), n.end(), '.'); };
        if (depth(nx) != depth(ny)) return depth(nx) < depth(ny);
        return x < y;
    };
    std::vector<bool> removed(model.equations.size(), false);
    for (std::size_t i = 0; i < model.equations.size(); ++i) {
        int a = -1, b = -1, s = 1;
        if (!alias_of(model.equations[i], a, b, s)) continue;
        int ra = find(a), rb = find(b);
        int sa = sgn[static_cast<std::size_t>(a)], sb = sgn[static_cast<std::size_t>(b)];
        if (ra == rb) continue;  // a cycle of aliases: keep the equation (it may be a real constraint)
        if (pinned(ra) && pinned(rb)) continue;
        // a = s*b; a = sa*ra; b = sb*rb  =>  ra = sa*s*sb*rb
        int rel = sa * s * sb;
        if (better(rb, ra) || (pinned(rb) && !pinned(ra))) {
            if (pinned(ra)) continue;
            parent[static_cast<std::size_t>(ra)] = rb;
            sgn[static_cast<std::size_t>(ra)] = rel;
        } else {
            if (pinned(rb)) continue;
            parent[static_cast<std::size_t>(rb)] = ra;
            sgn[static_cast<std::size_t>(rb)] = rel;
        }
        removed[i] = true;
    }
    // The substitution's entries: one per symbol of an alias (its
    // derivatives and left limit too), each a distinct symbol. They go to
    // the substitution's hash index as they are, with no ordered map of
    // them (which took a sort and a tree of every alias).
    std::vector<std::pair<ex, ex>> entries;
    auto substitute = [&](const ex& key, const ex& value) { entries.emplace_back(key, value); };
    for (std::size_t v = 0; v < model.variables.size(); ++v) {
        int vi = static_cast<int>(v);
        int r = find(vi);
        if (r == vi) continue;
        int s = sgn[v];
        model.aliases.push_back({vi, r, s});
        substitute(model.symbols.variable(vi), s * ex(model.symbols.variable(r)));
        int hd = model.symbols.highest_derivative(vi);
        for (int k = 1; k <= hd; ++k) {
            ex to = s * ex(model.symbols.derivative(r, k));
            substitute(model.symbols.derivative(vi, k), to);
        }
        if (auto p = model.symbols.find_pre(vi)) {
            ex to = s * ex(model.symbols.pre(r));
            substitute(*p, to);
        }
        // The representative inherits a start value it lacks.
        FlatVariable& rep = model.variables[static_cast<std::size_t>(r)];
        const FlatVariable& al = model.variables[v];
        if (!rep.start && al.start) {
            rep.start = s * *al.start;
            rep.fixed = al.fixed;
        }
    }
    // Compacted in place: a second vector of the kept equations would take
    // as much fresh memory again.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < model.equations.size(); ++i)
        if (!removed[i]) {
            if (kept != i) model.equations[kept] = std::move(model.equations[i]);
            ++kept;
        }
    model.equations.erase(model.equations.begin() + static_cast<std::ptrdiff_t>(kept), model.equations.end());
    substitute_everywhere(model, SymbolSubstitution(std::move(entries)));
}

}  // namespace modeaudit
