# LESSONS_CHECK_CUDA_ARCHITECTURES (a list of real architectures, "75;80"): every CUDA file of the
# build compiled once more for each of them, to a cubin alone (no host code, nothing links it),
# unoptimised (-G), as the object library <target>_check_sm<N> of each target that has CUDA
# files. What it checks is that the file compiles and assembles for that architecture: its
# __CUDA_ARCH__ paths (the kernels take three: below 800, 800 to 899, 900 and up) and the inline
# PTX each path holds, which ptxas refuses on an architecture without the instruction. It makes
# no code that runs.
#
# CI (.ci/run) builds sm_90 and checks sm_75 and sm_80 so: measured on this project's kernel
# files (nvcc 13.0, 2026-11-30), an unoptimised cubin takes 1.5-4 s where an optimised
# architecture of the real build takes 6-7.5 s, and the host code is compiled once, not for each.
# The shipped default (cmake/CudaArchitectures.cmake) builds real code for every architecture
# and needs no check.
set(LESSONS_CHECK_CUDA_ARCHITECTURES "" CACHE STRING
    "Real CUDA architectures every CUDA file is also compiled for, unoptimised, only to check it (\"75;80\")")

# The targets under `dir` (and its subfolders) that compile CUDA files to code: not the PTX
# listings (CUDA_PTX_COMPILATION) and not the files of one fixed architecture (CUDA_ARCHITECTURES
# OFF: the sm_90a library, which no other architecture can compile).
function(_lessons_cuda_targets dir out)
    set(found "")
    get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(t IN LISTS targets)
        get_target_property(type ${t} TYPE)
        if(NOT type MATCHES "^(STATIC_LIBRARY|SHARED_LIBRARY|OBJECT_LIBRARY|EXECUTABLE)$")
            continue()
        endif()
        get_target_property(ptx ${t} CUDA_PTX_COMPILATION)
        get_target_property(archs ${t} CUDA_ARCHITECTURES)
        if(ptx OR archs STREQUAL "OFF")
            continue()
        endif()
        get_target_property(sources ${t} SOURCES)
        foreach(s IN LISTS sources)
            if(s MATCHES "\\.cu$")
                list(APPEND found ${t})
                break()
            endif()
        endforeach()
    endforeach()
    get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
    foreach(d IN LISTS subdirs)
        _lessons_cuda_targets(${d} more)
        list(APPEND found ${more})
    endforeach()
    set(${out} ${found} PARENT_SCOPE)
endfunction()

# Called once every target is defined (the project's CMakeLists.txt, last).
function(lessons_check_cuda_architectures)
    if(NOT LESSONS_HAVE_CUDA OR NOT LESSONS_CHECK_CUDA_ARCHITECTURES)
        return()
    endif()
    _lessons_cuda_targets(${PROJECT_SOURCE_DIR} targets)
    foreach(a IN LISTS LESSONS_CHECK_CUDA_ARCHITECTURES)
        if(NOT a MATCHES "^[0-9]+$")
            message(FATAL_ERROR "LESSONS_CHECK_CUDA_ARCHITECTURES: \"${a}\" is not a real "
                                "architecture's number (75, 80, ...)")
        endif()
    endforeach()
    foreach(t IN LISTS targets)
        get_target_property(sources ${t} SOURCES)
        get_target_property(dir ${t} SOURCE_DIR)
        get_target_property(libraries ${t} LINK_LIBRARIES)
        set(cu "")
        foreach(s IN LISTS sources)
            if(s MATCHES "\\.cu$")
                cmake_path(ABSOLUTE_PATH s BASE_DIRECTORY "${dir}" OUTPUT_VARIABLE s)
                list(APPEND cu ${s})
            endif()
        endforeach()
        foreach(a IN LISTS LESSONS_CHECK_CUDA_ARCHITECTURES)
            set(check ${t}_check_sm${a})
            add_library(${check} OBJECT ${cu})
            # nvcc's --cubin after CMake's -c: device code only, for sm_<a>.
            set_target_properties(${check} PROPERTIES CUDA_ARCHITECTURES OFF)
            target_include_directories(${check} PRIVATE
                                       $<TARGET_PROPERTY:${t},INCLUDE_DIRECTORIES>)
            target_compile_definitions(${check} PRIVATE
                                       $<TARGET_PROPERTY:${t},COMPILE_DEFINITIONS>)
            target_compile_options(${check} PRIVATE $<TARGET_PROPERTY:${t},COMPILE_OPTIONS>
                                   --cubin -G -arch=sm_${a})
            if(libraries)  # their include folders and definitions
                target_link_libraries(${check} PRIVATE ${libraries})
            endif()
        endforeach()
        list(LENGTH cu n)
        list(JOIN LESSONS_CHECK_CUDA_ARCHITECTURES ", sm_" names)
        message(STATUS "CUDA check: ${t}'s ${n} CUDA files also for sm_${names} (unoptimised, not linked)")
    endforeach()
endfunction()
