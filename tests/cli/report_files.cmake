# Runs `modeaudit report MODEL --no-pdf --reproducible` twice into two
# folders and requires <Model>.md and <Model>.json in both, byte-identical
# (output-contract.md, "Determinism"), and the Markdown to hold EXPECT_MD.
# -DEXE=... -DMODEL=file.mo -DBASE=CupAndBall -DOUT=dir -DEXPECT_MD=regex
foreach(run 1 2)
  file(REMOVE_RECURSE ${OUT}/run${run})
  execute_process(COMMAND ${EXE} report ${MODEL} -o ${OUT}/run${run} --no-pdf --reproducible
    RESULT_VARIABLE rc${run} OUTPUT_VARIABLE out ERROR_VARIABLE err)
  foreach(ext md json)
    if(NOT EXISTS ${OUT}/run${run}/${BASE}.${ext})
      message(FATAL_ERROR "no ${BASE}.${ext} written (exit ${rc${run}}):\n${err}")
    endif()
    file(READ ${OUT}/run${run}/${BASE}.${ext} ${ext}${run})
  endforeach()
endforeach()
if(NOT md1 STREQUAL md2 OR NOT json1 STREQUAL json2 OR NOT rc1 STREQUAL rc2)
  message(FATAL_ERROR "the report of ${MODEL} differs between two runs")
endif()
if(NOT md1 MATCHES "${EXPECT_MD}")
  message(FATAL_ERROR "${BASE}.md does not match: ${EXPECT_MD}\n${md1}")
endif()
if(md1 MATCHES "Footer")
  message(FATAL_ERROR "--reproducible left the footer in ${BASE}.md")
endif()
