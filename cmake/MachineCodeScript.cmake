# Script mode (cmake/MachineCode.cmake): writes OUT, a C++ file defining
# lessons::MachineCodeFiles(), from the PTX files and objects named in LIST.
include(${LIST})
set(body "")
set(table "")
set(index 0)
# Raw string literals in pieces well under every compiler's limit for one literal.
function(append_literal var text)
    set(code "")
    string(LENGTH "${text}" len)
    set(pos 0)
    while(pos LESS len)
        string(SUBSTRING "${text}" ${pos} 12000 piece)
        string(APPEND code "R\"lessons_mc(${piece})lessons_mc\"\n")
        math(EXPR pos "${pos} + 12000")
    endwhile()
    if(code STREQUAL "")
        set(code "\"\"")
    endif()
    set(${var} "${code}" PARENT_SCOPE)
endfunction()

# The recorded SASS (assets/sass/sm_90.tar.xz), unpacked when it is newer than the last unpacking.
set(have_recorded FALSE)
if(NOT CUOBJDUMP AND RECORDED AND ARCH EQUAL 90)
    set(stamp ${RECORDED_DIR}/.unpacked)
    if(NOT EXISTS ${stamp} OR ${RECORDED} IS_NEWER_THAN ${stamp})
        file(REMOVE_RECURSE ${RECORDED_DIR})
        file(ARCHIVE_EXTRACT INPUT ${RECORDED} DESTINATION ${RECORDED_DIR})
        file(TOUCH ${stamp})
    endif()
    set(have_recorded TRUE)
endif()
set(any_sass FALSE)

foreach(rel IN LISTS ENTRIES)
    # kernels/reduce/25_x.cu -> the object and the PTX whose paths end in reduce/25_x.cu.*
    string(REGEX REPLACE "^kernels/" "" tail "${rel}")
    set(ptx "")
    set(ptx_sha "")
    foreach(p IN LISTS PTX_FILES)
        string(REGEX REPLACE "\\.cu$" ".ptx" want "/${tail}")
        string(LENGTH "${p}" p_len)
        string(LENGTH "${want}" want_len)
        math(EXPR from "${p_len} - ${want_len}")
        set(p_tail "")
        if(from GREATER_EQUAL 0)
            string(SUBSTRING "${p}" ${from} -1 p_tail)
        endif()
        if(p_tail STREQUAL want)
            file(READ ${p} ptx)
            # The hash of the PTX less the tag nvcc derives from the source's path for symbols
            # of anonymous namespaces (_INTERNAL_6e2b7b57_...), which differs between checkouts.
            string(REGEX REPLACE "_INTERNAL_[0-9a-f]+_" "_INTERNAL_x_" ptx_key "${ptx}")
            string(REGEX REPLACE "_GLOBAL__N__[0-9a-f]+_" "_GLOBAL__N__x_" ptx_key "${ptx_key}")
            string(SHA256 ptx_sha "${ptx_key}")
        endif()
    endforeach()
    set(sass "")
    set(sass_note "")
    set(sass_source "")
    if(CUOBJDUMP)
        foreach(o IN LISTS OBJECTS)
            string(FIND "${o}" "/${tail}.o" at REVERSE)
            if(NOT at EQUAL -1)
                execute_process(COMMAND ${CUOBJDUMP} -sass -arch sm_${ARCH} ${o}
                                OUTPUT_VARIABLE sass ERROR_VARIABLE err RESULT_VARIABLE rc)
                if(NOT rc EQUAL 0)
                    set(sass "")
                    set(sass_note "cuobjdump -sass -arch sm_${ARCH} failed: ${err}")
                endif()
            endif()
        endforeach()
        # Drop the instruction encodings (/* 0x... */), a third of the text, and blank lines.
        string(REGEX REPLACE "[ \t]*/\\* 0x[0-9a-f]+ \\*/" "" sass "${sass}")
        string(REGEX REPLACE "\n[ \t]*\n" "\n" sass "${sass}")
    elseif(have_recorded AND EXISTS ${RECORDED_DIR}/${rel}.sass)
        # Header lines "//@ key value", then the listing (encodings already dropped).
        set(recorded_file ${RECORDED_DIR}/${rel}.sass)
        file(STRINGS ${recorded_file} header REGEX "^//@ ")
        set(recorded_sha "")
        foreach(h IN LISTS header)
            if(h MATCHES "^//@ ptx-sha256 ([0-9a-f]+)")
                set(recorded_sha ${CMAKE_MATCH_1})
            elseif(h MATCHES "^//@ recorded (.*)$")
                set(sass_source "${CMAKE_MATCH_1}")
            endif()
        endforeach()
        if(recorded_sha AND recorded_sha STREQUAL ptx_sha)
            file(READ ${recorded_file} sass)
            string(REGEX REPLACE "^(//@ [^\n]*\n)+" "" sass "${sass}")
        else()
            set(sass_note "stale")
        endif()
    elseif(have_recorded)
        set(sass_note "no SASS: this CUDA toolkit has no cuobjdump, and assets/sass/sm_90.tar.xz has no recording of this file (scripts/record-sass.sh)")
    else()
        set(sass_note "no SASS: this CUDA toolkit has no cuobjdump (the GPU machine's has)")
    endif()
    if(NOT sass STREQUAL "")
        set(any_sass TRUE)
    endif()
    string(REGEX REPLACE "[\"\\\n]" " " sass_note "${sass_note}")
    string(REGEX REPLACE "[\"\\\n]" " " sass_source "${sass_source}")
    append_literal(ptx_code "${ptx}")
    append_literal(sass_code "${sass}")
    string(APPEND body "const char kPtx${index}[] =\n${ptx_code};\n")
    string(APPEND body "const char kSass${index}[] =\n${sass_code};\n")
    string(APPEND table "        {\"${rel}\", {std::string_view(kPtx${index}, sizeof kPtx${index} - 1), "
                        "std::string_view(kSass${index}, sizeof kSass${index} - 1), \"${sass_note}\", "
                        "\"${sass_source}\"}},\n")
    math(EXPR index "${index} + 1")
endforeach()
set(sass_arch "")
set(ptx_arch "")
if(NOT WHY)
    set(ptx_arch "compute_${ARCH}")
    if(CUOBJDUMP OR any_sass)
        set(sass_arch "sm_${ARCH}")
    endif()
endif()
file(WRITE ${OUT}.tmp "// Generated by cmake/MachineCodeScript.cmake. Do not edit.
#include \"machine_code.h\"

namespace lessons {
namespace {
${body}
}  // namespace

const MachineCodeTable& MachineCodeFiles() {
    static const MachineCodeTable kTable{\"${ptx_arch}\", \"${sass_arch}\", \"${WHY}\", {
${table}    }};
    return kTable;
}
}  // namespace lessons
")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
