// A file read through a user-visible name ending in readFile is refused as
// well: the name decides, not where the function would be found.
// status: flawed
// expect: flatten-unsupported-construct at 8:12 "would access files or the system"
model ReadFile
  Real x(start = 1, fixed = true);
equation
  der(x) = Streams.readFile("/etc/passwd");
end ReadFile;
