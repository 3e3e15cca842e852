# lessons_machine_code(TARGET target KERNELS target_of_gpu_objects SOURCES f1.cu f2.cu ...
#                      [KERNELS_SM90A target SOURCES_SM90A h1.cu ...])
# Embeds each hand-written kernel file's machine code in `target` (the catalogue, which the GUI
# links without CUDA), as lessons::MachineCodeFiles(): PTX for one virtual architecture (the
# highest built, compiled with nvcc -ptx beside the real build) and SASS for one real
# architecture (the highest built: sm_90 where it is), disassembled with cuobjdump from the
# objects of the GPU library. The Hopper-only files (SOURCES_SM90A, objects of KERNELS_SM90A)
# have their PTX for compute_90a and their SASS for sm_90a, whatever the list. Files that include CUB or Thrust are library code: not extracted.
# Without cuobjdump (Debian's toolkit and CI have none), the SASS comes from the recording
# committed in assets/sass/sm_90.tar.xz (scripts/record-sass.sh, run on a GPU machine over a
# build made here): a file's recorded SASS is used only when the SHA-256 of the PTX it was
# recorded from equals this build's PTX of that file (same source, same compiler), since the
# SASS is what ptxas makes of exactly that PTX. Otherwise the table says it is stale.
# Without CUDA the table says why there is no code.
set(LESSONS_MACHINE_CODE_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/MachineCodeScript.cmake)
# -lineinfo on the GPU objects: only the build whose SASS scripts/record-sass.sh records needs it
# (nvdisasm -gi reads it into the recorded listings: the SASS tab's source links); no other build
# reads it (cuobjdump -sass prints no line information). Off by default: measured on the 69 kernel
# files (nvcc 13.0 with this build's flags, sm_90 and sm_90a, 2026-11-29), it changes no
# instruction (the 250 kernels' .text sections byte for byte the same in the cubins) and no
# measurable compile time, but makes the objects 2.5 times as large (8.9 MB to 22.2 MB: each cubin
# then carries its PTX text, .nv_debug_ptx_txt, 10.9 MB of it, and two line tables), which the
# CLI, the GPU tests and every carried GPU bundle would take on.
option(LESSONS_KERNEL_LINEINFO
       "Compile the GPU kernels' objects with -lineinfo (the build scripts/record-sass.sh records)"
       OFF)
# The PTX of the hand-written files listed in the variable `sources`, of the GPU objects
# `kernels`, as the object library `ptx` (CUDA_ARCHITECTURES `archs`; the options after `sources`
# besides -w -lineinfo). -lineinfo: the PTX's ".loc" lines, by which the code view links each
# source line to its instructions (app/text/code_listing.cpp); it changes neither the source key
# (MachineCodeScript.cmake: the compiler's lines and the sources) nor the code made. The GPU
# objects carry it only where asked (LESSONS_KERNEL_LINEINFO, for the build that
# scripts/record-sass.sh records the SASS from, whose nvdisasm -gi reads it into the recorded
# listings: the SASS tab's links). It changes no instruction, and every other build is spared
# recompiling each kernel. A macro of lessons_machine_code: it adds to its `depends` (the PTX, and
# the objects where cuobjdump reads them) and `entries` (the files, relative to its BASE).
macro(lessons_ptx_of ptx kernels archs sources)
    add_library(${ptx} OBJECT ${${sources}})
    set_target_properties(${ptx} PROPERTIES CUDA_PTX_COMPILATION ON CUDA_ARCHITECTURES ${archs})
    target_include_directories(${ptx} PRIVATE $<TARGET_PROPERTY:${kernels},INCLUDE_DIRECTORIES>)
    target_compile_options(${ptx} PRIVATE -w -lineinfo ${ARGN})
    # Each PTX's dependency file kept as <ptx>.d.kept (Ninja deletes the .d once it has read it),
    # before whatever launcher the build names (ccache).
    set_property(TARGET ${ptx} PROPERTY CUDA_COMPILER_LAUNCHER
                 ${PROJECT_SOURCE_DIR}/cmake/keep-depfile.sh ${CMAKE_CUDA_COMPILER_LAUNCHER})
    if(LESSONS_KERNEL_LINEINFO)
        target_compile_options(${kernels} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
    endif()
    list(APPEND depends ${ptx} $<TARGET_OBJECTS:${ptx}>)
    if(cuobjdump)
        list(APPEND depends ${kernels})
    endif()
    foreach(f IN LISTS ${sources})
        file(RELATIVE_PATH rel ${M_BASE} ${f})
        list(APPEND entries ${rel})
    endforeach()
endmacro()

function(lessons_machine_code)
    cmake_parse_arguments(M "" "TARGET;KERNELS;BASE;KERNELS_SM90A" "SOURCES;SOURCES_SM90A" ${ARGN})
    set(out ${CMAKE_CURRENT_BINARY_DIR}/${M_TARGET}_machine_code.cpp)
    set(list_file ${CMAKE_CURRENT_BINARY_DIR}/${M_TARGET}_machine_code.txt)
    set(entries "")
    set(sm90a_entries "")
    set(depends ${LESSONS_MACHINE_CODE_SCRIPT})
    set(recorded ${PROJECT_SOURCE_DIR}/assets/sass/sm_90.tar.xz)
    if(EXISTS ${recorded})
        list(APPEND depends ${recorded})
    else()
        set(recorded "")
    endif()
    set(arch 0)
    set(cuobjdump "")
    set(why "")
    if(NOT LESSONS_HAVE_CUDA)
        set(why "this build has no CUDA compiler: no GPU code was compiled")
    else()
        # The highest numbered architecture built (90 in "75-real;...;90", also "90-real").
        foreach(a IN LISTS CMAKE_CUDA_ARCHITECTURES)
            if(a MATCHES "^([0-9]+)")
                if(CMAKE_MATCH_1 GREATER arch)
                    set(arch ${CMAKE_MATCH_1})
                endif()
            endif()
        endforeach()
        if(arch EQUAL 0)
            set(arch 90)  # "native", "all": PTX for sm_90; SASS as cuobjdump finds it
        endif()
        find_program(LESSONS_CUOBJDUMP cuobjdump HINTS ${CUDAToolkit_BIN_DIR} /usr/local/cuda/bin)
        if(LESSONS_CUOBJDUMP)
            set(cuobjdump ${LESSONS_CUOBJDUMP})
        endif()
        set(own "")
        foreach(f IN LISTS M_SOURCES)
            file(STRINGS ${f} library_includes REGEX "#include <(cub|thrust)/")
            if(NOT library_includes)
                list(APPEND own ${f})
            endif()
        endforeach()
        # PTX: nvcc -ptx of each hand-written file for compute_<arch>, an object library of
        # its own (no link), built in parallel with the real objects.
        lessons_ptx_of(${M_TARGET}_ptx ${M_KERNELS} ${arch}-virtual own)
        # The same definitions as the real objects, so the PTX is theirs (LESSONS_HAVE_CUBLAS).
        target_compile_definitions(${M_TARGET}_ptx PRIVATE
            $<TARGET_PROPERTY:${M_KERNELS},COMPILE_DEFINITIONS>)
        if(M_SOURCES_SM90A)
            lessons_ptx_of(${M_TARGET}_ptx90a ${M_KERNELS_SM90A} OFF M_SOURCES_SM90A
                           -arch=compute_90a)
            foreach(f IN LISTS M_SOURCES_SM90A)
                file(RELATIVE_PATH rel ${M_BASE} ${f})
                list(APPEND sm90a_entries ${rel})
            endforeach()
        endif()
    endif()
    set(ptx_files "")
    set(objects "")
    if(LESSONS_HAVE_CUDA)
        set(ptx_files "$<TARGET_OBJECTS:${M_TARGET}_ptx>")
        set(objects "$<TARGET_OBJECTS:${M_KERNELS}>")
        if(M_SOURCES_SM90A)
            string(APPEND ptx_files ";$<TARGET_OBJECTS:${M_TARGET}_ptx90a>")
            string(APPEND objects ";$<TARGET_OBJECTS:${M_KERNELS_SM90A}>")
        endif()
    endif()
    file(GENERATE OUTPUT ${list_file} CONTENT
"set(ENTRIES \"${entries}\")
set(SM90A_ENTRIES \"${sm90a_entries}\")
set(PTX_FILES \"${ptx_files}\")
set(OBJECTS \"${objects}\")
set(ARCH \"${arch}\")
set(CUOBJDUMP \"${cuobjdump}\")
set(WHY \"${why}\")
set(RECORDED \"${recorded}\")
set(RECORDED_DIR \"${CMAKE_CURRENT_BINARY_DIR}/recorded_sass\")
set(BASE \"${M_BASE}\")
")
    add_custom_command(
        OUTPUT ${out}
        COMMAND ${CMAKE_COMMAND} -DLIST=${list_file} -DOUT=${out} -P ${LESSONS_MACHINE_CODE_SCRIPT}
        DEPENDS ${depends} ${list_file}
        COMMENT "Embedding the kernels' PTX and SASS"
        VERBATIM)
    target_sources(${M_TARGET} PRIVATE ${out})
endfunction()
