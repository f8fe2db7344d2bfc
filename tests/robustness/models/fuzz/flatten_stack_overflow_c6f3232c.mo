// Recursive functions with their base case in an if-expression (issue 46,
// found by fuzzing the flattener): the branch after a condition that holds
// is not evaluated, so factExpr(5) ends its recursion as factStmt(5), written
// with an if-statement, does; both give 120 (they used to differ: the
// if-expression form was refused as unbounded recursion). g nests 40 levels
// of recursion, each wrapping the level below in 40 sin calls: the result
// of a recursive call on numbers is kept as a number, where the exact form
// was a constant 1,600 calls deep (at 190 by 190, 36,100 deep: the alias
// elimination ran for more than ten minutes on it; that size needs more
// than the fuzz harnesseive functions with their base case in an if-expression (issue 46,
// found by fuzzing the flattener): the branch after a contition that holds
// is not evaluated, so factExpr(5) ends its recursion as factStmt(5), written
// with an if-statement, does; both give 120 (they used to differ: the
// if-expression form was refused as unbounded rs' 48 MiB stack under ASan, this one fits).
// g(40) = sin applied 1,600 times to 1 = 0.043208746750789.
// status: good
model FunctionRecursionBaseCase
  function factExpr
    input Real n;
    output Real y;
  algorithm
    y := if n <= 0 then 1 else n*factExpr(n - 1);
  end factExpr;
  function factStmt
    input Real n;
    output Real y;
  algorithm
    if n <= 0 then
      y := 1;
    else
      y := n*factStmt(n - 1);
    end if;
  end factStmt;
  function g
    input Real n;
    output Real y;
  algorithm
    y := if n <= 0 then 1 else
      sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(
      sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(
      sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(
      sin(sin(sin(sin(sin(sin(sin(sin(sin(sin(
     ++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++ g(n - 1)
      ))))))))))))))))))))))))))))))))))))))));
  end g;
  Real a(start = 1, fixed = true);
  Real b(start = 1, fixed = true);
  Real c;
equation
  der(a) = -factExpr(5)*a;
  der(b) = -factStmt(5)*b;
  c = g(40)*a;
end FunctionRecursionBaseCase;
