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

# The key a recorded listing is matched by: the compiler named in the PTX's header and every
# file of this project the PTX was compiled from (its .d file), each as "== <path>\n<content>",
# in path order, hashed. Not the PTX itself: CUDA 13.0 writes different PTX for one source on
# different runs (gemm/double-buffering: three variants in twelve runs), while the cubin came out the same
# every time. scripts/record-sass.sh computes the same key; empty when there is no .d file (nor
# the copy of it that cmake/keep-depfile.sh keeps).
function(source_key ptx_path ptx_text out)
    set(${out} "" PARENT_SCOPE)
    # The copy cmake/keep-depfile.sh keeps (Ninja deletes the .d), or the .d (Make keeps it).
    set(dep_file ${ptx_path}.d.kept)
    if(NOT EXISTS ${dep_file})
        set(dep_file ${ptx_path}.d)
    endif()
    if(NOT EXISTS ${dep_file})
        return()
    endif()
    set(key "")
    foreach(what "// Compiler Build ID" "// Cuda compilation tools" "// Based on NVVM" "\\.target ")
        string(REGEX MATCH "${what}[^\n]*" line "${ptx_text}")
        string(APPEND key "${line}\n")
    endforeach()
    file(READ ${dep_file} dep)
    string(REPLACE "\\\n" " " dep "${dep}")
    string(REGEX REPLACE "^[^:]*:" "" dep "${dep}")
    string(REGEX REPLACE "[ \t\r\n]+" ";" deps "${dep}")
    set(rels "")
    string(LENGTH "${BASE}/" base_len)
    foreach(d IN LISTS deps)
        string(FIND "${d}" "${BASE}/" at)
        if(at EQUAL 0)
            string(SUBSTRING "${d}" ${base_len} -1 r)
            list(APPEND rels "${r}")
        endif()
    endforeach()
    list(REMOVE_DUPLICATES rels)
    list(SORT rels)
    foreach(r IN LISTS rels)
        file(READ ${BASE}/${r} content)
        string(APPEND key "== ${r}\n${content}")
    endforeach()
    string(SHA256 sha "${key}")
    set(${out} ${sha} PARENT_SCOPE)
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
    # kernels/reduce/cub.cu -> the object and the PTX whose paths end in reduce/cub.cu.*
    string(REGEX REPLACE "^kernels/" "" tail "${rel}")
    set(ptx "")
    set(source_sha "")
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
            source_key(${p} "${ptx}" source_sha)
        endif()
    endforeach()
    set(sass "")
    set(sass_note "")
    set(sass_source "")
    # A Hopper-only file (SM90A_ENTRIES) is compiled for sm_90a alone.
    set(sass_arch_of sm_${ARCH})
    list(FIND SM90A_ENTRIES "${rel}" sm90a_at)
    if(NOT sm90a_at EQUAL -1)
        set(sass_arch_of sm_90a)
    endif()
    if(CUOBJDUMP)
        foreach(o IN LISTS OBJECTS)
            string(FIND "${o}" "/${tail}.o" at REVERSE)
            if(NOT at EQUAL -1)
                execute_process(COMMAND ${CUOBJDUMP} -sass -arch ${sass_arch_of} ${o}
                                OUTPUT_VARIABLE sass ERROR_VARIABLE err RESULT_VARIABLE rc)
                if(NOT rc EQUAL 0)
                    set(sass "")
                    set(sass_note "cuobjdump -sass -arch ${sass_arch_of} failed: ${err}")
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
            if(h MATCHES "^//@ source-sha256 ([0-9a-f]+)")
                set(recorded_sha ${CMAKE_MATCH_1})
            elseif(h MATCHES "^//@ recorded (.*)$")
                set(sass_source "${CMAKE_MATCH_1}")
            endif()
        endforeach()
        if(recorded_sha AND recorded_sha STREQUAL source_sha)
            file(READ ${recorded_file} sass)
            string(REGEX REPLACE "^(//@ [^\n]*\n)+" "" sass "${sass}")
        else()
            set(sass_note "stale")
        endif()
    elseif(NOT ptx STREQUAL "" AND NOT ptx MATCHES "\\.entry")
        # No kernel in the file (its step calls a library, or runs on the host): there is no
        # machine code of its own to list, with or without cuobjdump.
        set(sass "// ${rel} defines no kernel: it compiles to no machine code of its own\n// (its step calls a library or runs on the host; the PTX tab shows the same)\n")
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
                        "\"${sass_source}\", \"${source_sha}\"}},\n")
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
