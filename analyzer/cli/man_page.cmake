# Generates the man page modeaudit(1) from the program's own help text, at
# build time (cmake -DEXE=path/to/modeaudit -DOUT=modeaudit.1 -P man_page.cmake).
#
# Why not help2man (Debian 12 packages it): it would be one more build
# dependency for a page this short, and it reflows CLI11's option tables
# into paragraphs that lose the groups (the limits). Here the help of the
# tool and of each command is kept as written (a preformatted block each),
# so the page says exactly what `--help` says and cannot drift from it.
# The page has no date: the same build gives the same bytes.
cmake_minimum_required(VERSION 3.25)
if(NOT EXE OR NOT OUT)
  message(FATAL_ERROR "man_page.cmake: give -DEXE=<modeaudit> -DOUT=<file>")
endif()

function(run_help out_var)
  execute_process(COMMAND "${EXE}" ${ARGN} OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "man_page.cmake: '${EXE} ${ARGN}' failed (${rc})")
  endif()
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

# roff: a backslash is \e; a line starting with . or ' would be a request.
function(roff_block out_var text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out_var} ".nf\n${text}\n.fi\n" PARENT_SCOPE)
endfunction()

run_help(version --version)
string(REGEX MATCH "^modeaudit ([^\n]*)" _ "${version}")
set(version_number "${CMAKE_MATCH_1}")
run_help(top --help)

set(page ".\\\" modeaudit(1), generated from `modeaudit --help` by analyzer/cli/man_page.cmake; do not edit\n")
string(APPEND page ".TH MODEAUDIT 1 \"\" \"modeaudit ${version_number}\" \"User Commands\"\n")
string(APPEND page ".SH NAME\nmodeaudit \\- audits multimode physical models (a Modelica subset)\n")
string(APPEND page ".SH SYNOPSIS\n.B modeaudit\n\\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIMODEL\\fR...]\n")
string(APPEND page ".SH DESCRIPTION\n")
roff_block(block "${top}")
string(APPEND page "${block}")
string(APPEND page ".SH COMMANDS\n")
foreach(command check simulate report regress rules explain)
  run_help(help ${command} --help)
  string(APPEND page ".SS \"modeaudit ${command}\"\n")
  roff_block(block "${help}")
  string(APPEND page "${block}")
endforeach()
string(APPEND page ".SH \"EXIT STATUS\"\n")
string(APPEND page ".TP\n0\nran; no finding of severity error\n")
string(APPEND page ".TP\n1\nran; at least one finding of severity error (regress: a mismatch)\n")
string(APPEND page ".TP\n2\ncould not run on this input: usage error, unreadable file, syntax error, unsupported construct\n")
string(APPEND page ".TP\n3\ninternal error of the tool (a bug); the message asks for a report\n")
string(APPEND page ".SH \"SEE ALSO\"\n")
string(APPEND page "\\fBmodeaudit rules\\fR lists the rule catalog, \\fBmodeaudit explain\\fR \\fIRULE-ID\\fR prints one rule's page; README.md of the sources describes the outputs.\n")

# Written only when it changed, so that the install step stays quiet.
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
  if(old STREQUAL page)
    return()
  endif()
endif()
file(WRITE "${OUT}" "${page}")
