# Regenerates one golden review report and requires it byte-identical to
# reports/golden/<BASE>.md and .json (the same command as
# reports/refresh-golden.sh, run in the source folder so that the model is
# named by the same relative path).
# -DEXE=... -DSRC=source dir -DMODEL=corpus/good/x.mo -DBASE=Name -DOUT=dir
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${EXE} report ${MODEL} -o ${OUT} --no-pdf --reproducible
  WORKING_DIRECTORY ${SRC} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc GREATER 1 OR NOT EXISTS ${OUT}/${BASE}.md)
  message(FATAL_ERROR "modeaudit report ${MODEL} failed (exit ${rc}):\n${err}")
endif()
set(how "If the change is intended, refresh the golden files with\n  reports/refresh-golden.sh\nand review `git diff reports/golden` before committing.")
foreach(ext md json)
  file(READ ${OUT}/${BASE}.${ext} new)
  if(NOT EXISTS ${SRC}/reports/golden/${BASE}.${ext})
    message(FATAL_ERROR "reports/golden/${BASE}.${ext} is missing.\n${how}")
  endif()
  file(READ ${SRC}/reports/golden/${BASE}.${ext} old)
  if(NOT new STREQUAL old)
    execute_process(COMMAND diff -u ${SRC}/reports/golden/${BASE}.${ext} ${OUT}/${BASE}.${ext}
      OUTPUT_VARIABLE d)
    string(LENGTH "${d}" n)
    if(n GREATER 6000)
      string(SUBSTRING "${d}" 0 6000 d)
      set(d "${d}\n... (diff cut; the new file is ${OUT}/${BASE}.${ext})")
    endif()
    message(FATAL_ERROR "the report of ${MODEL} differs from reports/golden/${BASE}.${ext}:\n${d}\n${how}")
  endif()
endforeach()
