# `cmake --install` into a fresh prefix gives a usable tool: the program,
# which runs from there (--version, a rule page embedded in it, a check of
# a model), and the man page generated from its help text.
# -DBUILD=<build folder> -DPREFIX=<a folder to create> -DMODEL=<a .mo file>
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD}" --prefix "${PREFIX}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc}):\n${out}\n${err}")
endif()
set(exe "${PREFIX}/bin/modeaudit")
execute_process(COMMAND "${exe}" --version RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
  WORKING_DIRECTORY "${PREFIX}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "^modeaudit [0-9]+\\.[0-9]+\\.[0-9]+\n")
  message(FATAL_ERROR "${exe} --version: exit ${rc}\n${out}\n${err}")
endif()
execute_process(COMMAND "${exe}" explain restart-impulsive RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
  WORKING_DIRECTORY "${PREFIX}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "^# restart-impulsive")
  message(FATAL_ERROR "${exe} explain restart-impulsive: exit ${rc}\n${out}\n${err}")
endif()
execute_process(COMMAND "${exe}" check "${MODEL}" --format json RESULT_VARIABLE rc OUTPUT_VARIABLE out
  ERROR_VARIABLE err WORKING_DIRECTORY "${PREFIX}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "\"model\": \"BouncingBall\"")
  message(FATAL_ERROR "${exe} check ${MODEL}: exit ${rc}\n${out}\n${err}")
endif()
set(man "${PREFIX}/share/man/man1/modeaudit.1")
if(NOT EXISTS "${man}")
  message(FATAL_ERROR "no man page at ${man}")
endif()
file(READ "${man}" page)
foreach(expected "\n.TH MODEAUDIT 1 " "\n.SS \"modeaudit check\"\n" "--format" "--junit" "\n.SH \"EXIT STATUS\"\n")
  string(FIND "${page}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the man page lacks '${expected}':\n${page}")
  endif()
endforeach()
file(REMOVE_RECURSE "${PREFIX}")
