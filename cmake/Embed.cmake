# lessons_embed(TARGET target BASE dir [FUNCTION ns::Name] FILES f1 f2 ...)
# Compiles the given files (lesson texts, step sources, recorded results) into the target as
# a table of path -> contents, returned by FUNCTION (default lessons::EmbeddedFiles), so the
# programs need no data directory at run time.
set(LESSONS_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/EmbedFiles.cmake)
function(lessons_embed)
    cmake_parse_arguments(E "" "TARGET;BASE;FUNCTION" "FILES" ${ARGN})
    if(NOT E_FUNCTION)
        set(E_FUNCTION lessons::EmbeddedFiles)
    endif()
    set(out ${CMAKE_CURRENT_BINARY_DIR}/${E_TARGET}_embedded.cpp)
    set(list_file ${CMAKE_CURRENT_BINARY_DIR}/${E_TARGET}_embedded.txt)
    set(rel_files "")
    foreach(f IN LISTS E_FILES)
        file(RELATIVE_PATH rel ${E_BASE} ${f})
        list(APPEND rel_files ${rel})
    endforeach()
    file(GENERATE OUTPUT ${list_file} CONTENT "${rel_files}")
    # The generated file names the files (the assembler reads them: EmbedFiles.cmake): it is
    # written again when the list changes, and its object compiled again when a file does.
    add_custom_command(
        OUTPUT ${out}
        COMMAND ${CMAKE_COMMAND} -DBASE=${E_BASE} -DLIST=${list_file} -DOUT=${out}
                -DFUNCTION=${E_FUNCTION}
                -P ${LESSONS_EMBED_SCRIPT}
        DEPENDS ${LESSONS_EMBED_SCRIPT} ${list_file}
        COMMENT "Embedding lesson texts and sources"
        VERBATIM)
    target_sources(${E_TARGET} PRIVATE ${out})
    set_source_files_properties(${out} PROPERTIES OBJECT_DEPENDS "${E_FILES}")
endfunction()
