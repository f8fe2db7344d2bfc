# Runs `modeaudit report MODEL --no-pdf` (not reproducible) and requires the
# provenance and footer of <BASE>.md: tool and library versions, the
# model's SHA-256 (checked against CMake's own file(SHA256)), the generation
# time and the command line.
# -DEXE=... -DMODEL=file.mo -DBASE=Name -DOUT=dir
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${EXE} report ${MODEL} -o ${OUT} --no-pdf
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT EXISTS ${OUT}/${BASE}.md)
  message(FATAL_ERROR "no ${BASE}.md written (exit ${rc}):\n${err}")
endif()
file(READ ${OUT}/${BASE}.md md)
file(SHA256 ${MODEL} hash)
set(provenance "\n---\n\n\\*Provenance:\\* report by modeaudit [0-9]+\\.[0-9]+\\.[0-9]+ \\(GiNaC [0-9.]+, Z3 [0-9.]+, SUNDIALS [0-9.]+\\); input `[^`]*${BASE_FILE}`, SHA-256 `${hash}`\\.\n")
if(NOT md MATCHES "${provenance}")
  message(FATAL_ERROR "${BASE}.md lacks the provenance line (expected SHA-256 ${hash}):\n${md}")
endif()
if(NOT md MATCHES "\n\\*Footer, differs between runs \\(`--reproducible` leaves it out\\):\\* generated [0-9]+-[0-9]+-[0-9]+T[0-9:]+Z by modeaudit [0-9.]+; command `[^`]*modeaudit report [^`]*${BASE_FILE} -o [^`]* --no-pdf`\\.\n$")
  message(FATAL_ERROR "${BASE}.md lacks the footer with time and command line:\n${md}")
endif()
