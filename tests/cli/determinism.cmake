# Runs modeaudit twice on each model with the same options and requires
# byte-identical output (output-contract.md, "Determinism").
# -DEXE=... -DMODELS="a.mo;b.mo" -DARGS="check;--dump-after=modes"
foreach(model IN LISTS MODELS)
  foreach(run 1 2)
    execute_process(COMMAND ${EXE} ${ARGS} ${model} OUTPUT_VARIABLE out${run} ERROR_VARIABLE err${run}
      RESULT_VARIABLE rc${run})
  endforeach()
  if(NOT out1 STREQUAL out2 OR NOT rc1 STREQUAL rc2)
    message(FATAL_ERROR "output of `${ARGS} ${model}` differs between two runs")
  endif()
  if(out1 STREQUAL "")
    message(FATAL_ERROR "no output for `${ARGS} ${model}`")
  endif()
endforeach()
