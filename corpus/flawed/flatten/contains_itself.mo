// A model that holds a component of its own class.
// status: flawed
// expect: flatten-recursive-class at 6:8 "class 'Node' contains or extends itself"
model Node
  Real x(start = 1);
  Node next;
equation
  der(x) = -x;
end Node;
