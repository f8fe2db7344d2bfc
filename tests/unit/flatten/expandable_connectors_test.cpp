// Unit tests of expandable connectors (Modelica 3.6, 9.1.3; connections.h):
// elements added by connect(), buses joined by name through connected
// expandable connectors, declared elements that no connection reaches
// (potentially present: no unknown), and the errors of the section.
#include <gtest/gtest.h>

#include "support/front_end.h"

namespace modeaudit {
namespace {

using testing::FrontEnd;

const char* kBus = R"(
expandable connector Bus
  Real declared;
  Real spare;
end Bus;
connector RealOutput = output Real;
connector RealInput = input Real;
model Sender
  Bus bus;
  RealOutput y, z;
equation
  y = time;
  z = 2*time;
  connect(y, bus.added);
  connect(z, bus.declared);
end Sender;
model Receiver
  Bus bus;
  RealInput u, w;
  Real x(start = 0, fixed = true);
equation
  connect(bus.added, u);
  connect(bus.declared, w);
  der(x) = u + w;
end Receiver;
model Top
  Bus bus;
  Sender s;
  Receiver r;
equation
  connect(s.bus, bus);
  connect(bus, r.bus);
end Top;)";

TEST(ExpandableConnectors, ElementsAddedOrDeclaredJoinByNameAcrossConnectedBuses) {
    FrontEnd fe(kBus, "flatten");
    ASSERT_TRUE(fe.state.flat) << fe.diagnostics();
    // The receiver's inputs are the sender's outputs (aliases, up to sign +1).
    EXPECT_TRUE((fe.value("r.u") - fe.value("s.y")).is_zero());
    EXPECT_TRUE((fe.value("r.w") - fe.value("s.z")).is_zero());
    EXPECT_TRUE((fe.value("bus.declared") - fe.value("s.z")).is_zero());
    // An added element is no variable of its own.
    for (const FlatVariable& v : fe.flat().variables) EXPECT_EQ(v.name.find("added"), std::string::npos) << v.name;
}

TEST(ExpandableConnectors, ADeclaredElementNoConnectionReachesIsNoUnknown) {
    FrontEnd fe(kBus, "structure");
    ASSERT_TRUE(fe.state.structure) << fe.diagnostics();
    EXPECT_FALSE(fe.has("modes-unbalanced")) << fe.diagnostics();
    for (const FlatVariable& v : fe.flat().variables)
        if (v.name.find("spare") != std::string::npos) {
            EXPECT_TRUE(v.exogenous) << v.name;  // joined only to other buses' `spare`
        }
    for (int u : fe.modes().modes.at(0).unknowns)
        EXPECT_EQ(fe.flat().variables[static_cast<std::size_t>(u)].name.find("spare"), std::string::npos);
}

TEST(ExpandableConnectors, TheSectionsErrorsAreReported) {
    FrontEnd two(R"(
expandable connector Bus
end Bus;
model M
  Bus a, b;
equation
  connect(a.v, b.v);
end M;)", "flatten");
    EXPECT_TRUE(two.has("flatten-type-mismatch")) << two.diagnostics();
    EXPECT_NE(two.diagnostics().find("neither side is declared"), std::string::npos);

    FrontEnd flow(R"(
expandable connector Bus
  flow Real f;
end Bus;
model M
  Bus bus;
end M;)", "flatten");
    EXPECT_NE(flow.diagnostics().find("may not be flow variables"), std::string::npos) << flow.diagnostics();

    FrontEnd read(R"(
expandable connector Bus
end Bus;
connector RealOutput = output Real;
model M
  Bus bus;
  RealOutput y = time;
  Real x;
equation
  connect(y, bus.v);
  x = bus.v;
end M;)", "flatten");
    EXPECT_TRUE(read.has("flatten-unsupported-construct")) << read.diagnostics();

    FrontEnd mixed(R"(
expandable connector Bus
end Bus;
connector C
  Real e;
end C;
model M
  Bus bus;
  C c;
equation
  connect(bus, c);
  c.e = 1;
end M;)", "flatten");
    EXPECT_NE(mixed.diagnostics().find("connected to one that is not"), std::string::npos) << mixed.diagnostics();
}

}  // namespace
}  // namespace modeaudit
