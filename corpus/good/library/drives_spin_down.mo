// An inertia slowed by a damper whose table parameter has the size ':'
// (taken from its binding) and is built with cat() of matrix constructors.
// status: good
// library: ../../libraries/Drives
model SpinDownFromLibrary
  extends Drives.Examples.SpinDown;
end SpinDownFromLibrary;
