// Report injection: names and strings of the model that are Markdown, HTML,
// LaTeX and shell in the report's languages. The report must show them as
// text (tests/robustness/report_injection.py), run nothing, and write no
// file outside its -o folder. The quoted identifiers reach the report's
// mode ids, variable names, plots and findings; the assert message reaches
// the findings when the simulation violates it.
model 'Inject\input{/etc/passwd}<script>alert(1)</script>$(touch PWNED)`id`|x|'
  Real 'h\immediate\write18{touch PWNED-write18}'(start = 1, fixed = true);
  Real '*v*[a](http://x)@c$x$'(start = 0, fixed = true);
  Boolean '<b>up</b>'(start = true, fixed = true);
equation
  der('h\immediate\write18{touch PWNED-write18}') = '*v*[a](http://x)@c$x$';
  der('*v*[a](http://x)@c$x$') = -9.81;
  assert('h\immediate\write18{touch PWNED-write18}' > 0.5,
         "\\input{/etc/passwd} \\immediate\\write18{touch PWNED-assert} <img src=x onerror=alert(1)> ```` $$ | # ../../escape");
  when '*v*[a](http://x)@c$x$' < -1 then
    '<b>up</b>' = false;
  end when;
  annotation(experiment(StopTime = 1));
end 'Inject\input{/etc/passwd}<script>alert(1)</script>$(touch PWNED)`id`|x|';
