# LESSONS_CHECK_CUDA_ARCHITECTURES (a list of real architectures, "75;80"): every CUDA file of the
# build compiled once more for each of them that gives it other code, to a cubin alone (no host
# code, nothing links it), unoptimised (-G), as the object library <target>_check_sm<N> of each
# target that has CUDA files. What it checks is that the file compiles and assembles for that
# architecture: its __CUDA_ARCH__ paths (the kernels take three: below 800, 800 to 899, 900 and
# up) and the inline PTX each path holds, which ptxas refuses on an architecture without the
# instruction. It makes no code that runs.
#
# A file is checked for an architecture unless a lower one, built or checked, takes the same
# __CUDA_ARCH__ paths in it and in the project's headers it includes (read at configure time,
# which runs again when one of them changes): its code is then the same, and a newer
# architecture has every instruction an older one has. So sm_75 checks every file, and sm_80
# only those with a path that starts above 750 and at most at 800 (__CUDA_ARCH__ >= 800): a file
# with no __CUDA_ARCH__ at all, or one whose only path starts at 900, is the code sm_75 assembled.
# A use of __CUDA_ARCH__ other than defined() or a comparison with a number checks every
# architecture. The paths inside the CUDA toolkit's own headers (CUB, Thrust) are not read.
#
# CI (.ci/run) builds sm_90 and checks sm_75 and sm_80 so: measured on this project's kernel
# files (nvcc 13.0, 2026-11-30), an unoptimised cubin takes 1.5-4 s where an optimised
# architecture of the real build takes 6-7.5 s, and the host code is compiled once, not for each.
# The shipped default (cmake/CudaArchitectures.cmake) builds real code for every architecture
# and needs no check.
set(LESSONS_CHECK_CUDA_ARCHITECTURES "" CACHE STRING
    "Real CUDA architectures the CUDA files are also compiled for, unoptimised, to check them (\"75;80\"; a file where its code differs from a lower one's)")

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

# The project's headers (a path is looked up by how it ends: "cuda/cuda_util.h").
function(_lessons_project_headers out)
    get_property(headers GLOBAL PROPERTY _lessons_project_headers)
    if(NOT headers)
        set(globs "")
        foreach(d IN ITEMS engine kernels lessons cli)
            list(APPEND globs ${PROJECT_SOURCE_DIR}/${d}/*.h ${PROJECT_SOURCE_DIR}/${d}/*.cuh)
        endforeach()
        file(GLOB_RECURSE headers ${globs})
        set_property(GLOBAL PROPERTY _lessons_project_headers "${headers}")
    endif()
    set(${out} "${headers}" PARENT_SCOPE)
endfunction()

# Where `file`'s __CUDA_ARCH__ paths begin, with the project's headers it includes: each number
# B such that architectures a < b take the same paths when no B lies in (a*10, b*10] ("800" for
# __CUDA_ARCH__ >= 800 or < 800, "801" for > 800 or <= 800), or "any" where __CUDA_ARCH__ is used
# otherwise. Each file is read once; it is added to the configure's dependencies.
function(_lessons_arch_bounds file out)
    string(MD5 key "${file}")
    get_property(read GLOBAL PROPERTY _lessons_arch_bounds_${key} SET)
    if(read)
        get_property(bounds GLOBAL PROPERTY _lessons_arch_bounds_${key})
        set(${out} "${bounds}" PARENT_SCOPE)
        return()
    endif()
    set_property(GLOBAL PROPERTY _lessons_arch_bounds_${key} "")  # an include cycle ends here
    set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${file})
    _lessons_project_headers(headers)
    cmake_path(GET file PARENT_PATH here)
    file(STRINGS ${file} lines REGEX "__CUDA_ARCH__|^[ \t]*#[ \t]*include[ \t]*\"")
    set(bounds "")
    foreach(line IN LISTS lines)
        if(line MATCHES "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\"")
            set(name ${CMAKE_MATCH_1})
            set(found "")
            if(EXISTS ${here}/${name} AND NOT IS_DIRECTORY ${here}/${name})
                cmake_path(ABSOLUTE_PATH name BASE_DIRECTORY ${here} NORMALIZE
                           OUTPUT_VARIABLE found)
            else()  # the project's headers whose path ends in /<name>
                string(REGEX REPLACE "([][+.*?()^$|\\])" "\\\\\\1" pattern "/${name}")
                set(found ${headers})
                list(FILTER found INCLUDE REGEX "${pattern}$")
            endif()
            foreach(f IN LISTS found)
                _lessons_arch_bounds(${f} more)
                list(APPEND bounds ${more})
            endforeach()
            continue()
        endif()
        string(REGEX REPLACE "//.*" "" code "${line}")
        string(REGEX REPLACE "defined[ \t]*\\(?[ \t]*__CUDA_ARCH__[ \t]*\\)?" "" code "${code}")
        while(code MATCHES "__CUDA_ARCH__[ \t]*(>=|<=|==|!=|>|<)[ \t]*([0-9]+)")
            set(whole "${CMAKE_MATCH_0}")
            set(op "${CMAKE_MATCH_1}")
            set(n "${CMAKE_MATCH_2}")
            math(EXPR n1 "${n} + 1")
            if(op STREQUAL ">=" OR op STREQUAL "<")
                list(APPEND bounds ${n})
            elseif(op STREQUAL ">" OR op STREQUAL "<=")
                list(APPEND bounds ${n1})
            else()
                list(APPEND bounds ${n} ${n1})
            endif()
            string(REPLACE "${whole}" "" code "${code}")
        endwhile()
        if(code MATCHES "__CUDA_ARCH__")
            list(APPEND bounds any)
        endif()
    endforeach()
    list(REMOVE_DUPLICATES bounds)
    set_property(GLOBAL PROPERTY _lessons_arch_bounds_${key} "${bounds}")
    set(${out} "${bounds}" PARENT_SCOPE)
endfunction()

# Whether `file` needs a check for architecture `a`: no lower architecture of `others` (those
# built and those checked) takes the same paths in it.
function(_lessons_arch_check_needed file a others out)
    _lessons_arch_bounds(${file} bounds)
    set(needed TRUE)
    if(NOT "any" IN_LIST bounds)
        foreach(o IN LISTS others)
            if(o LESS a)
                set(same TRUE)
                foreach(b IN LISTS bounds)
                    if(b GREATER "${o}0" AND NOT b GREATER "${a}0")
                        set(same FALSE)
                    endif()
                endforeach()
                if(same)
                    set(needed FALSE)
                endif()
            endif()
        endforeach()
    endif()
    set(${out} ${needed} PARENT_SCOPE)
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
    # The real architectures built ("90", "90-real"; "native" and "all" name none here).
    set(built "")
    foreach(a IN LISTS CMAKE_CUDA_ARCHITECTURES)
        if(a MATCHES "^([0-9]+)(-real)?$")
            list(APPEND built ${CMAKE_MATCH_1})
        endif()
    endforeach()
    set(others ${built} ${LESSONS_CHECK_CUDA_ARCHITECTURES})
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
        list(LENGTH cu n)
        set(said "")
        foreach(a IN LISTS LESSONS_CHECK_CUDA_ARCHITECTURES)
            set(files "")
            foreach(s IN LISTS cu)
                _lessons_arch_check_needed(${s} ${a} "${others}" needed)
                if(needed)
                    list(APPEND files ${s})
                endif()
            endforeach()
            list(LENGTH files m)
            list(APPEND said "${m} for sm_${a}")
            if(m EQUAL 0)
                continue()
            endif()
            set(check ${t}_check_sm${a})
            add_library(${check} OBJECT ${files})
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
        list(JOIN said ", " said)
        message(STATUS "CUDA check: ${t}'s ${n} CUDA files, ${said} (unoptimised, not linked)")
    endforeach()
endfunction()
