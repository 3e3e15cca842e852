# CI only (scripts/check-imgui190.sh, from scripts/test.sh): the app and its tests built a second
# time, against the ImGui 1.90.1 that Debian 13 and Ubuntu 24.04 ship, beside the build's own
# (the system's ImGui). LESSONS_IMGUI190_ROOT names the folder where that libimgui-dev .deb was
# unpacked (never installed). Only what includes ImGui is compiled again: lessons_app,
# cuda-lessons and the gui-logic tests; the engine, the catalogue, the CLI (the GUI's worker,
# with CUDA when the build has it) and lessons_app_model (the app's code that includes no ImGui)
# are the build's own, compiled once.
#   lessons_app_imgui190       lessons_app's sources against 1.90.1 (with lessons_app_model)
#   cuda-lessons-imgui190-objects  the GUI's own sources against 1.90.1, for both GUIs below
#   cuda-lessons-imgui190      the GUI, with the backends compiled from the package's examples,
#                              written as app-imgui190/cuda-lessons (its worker: ../cli/)
#   cuda-lessons-imgui190-lib  the GUI with the backends compiled into 1.90.1's libimgui.a (for
#                              images without /usr/share/doc), as app-imgui190-lib/cuda-lessons
# tests/CMakeLists.txt registers their tests under the prefix "imgui190:" and the label imgui190.
# Included from tests/CMakeLists.txt once the app is defined; asked for and impossible, it stops
# the configure step with the reason.
find_package(PkgConfig REQUIRED)
find_package(glfw3 3.3 REQUIRED)  # their imported targets belong to the folder that finds them
find_package(OpenGL REQUIRED)
file(GLOB _imgui190_pc "${LESSONS_IMGUI190_ROOT}/usr/lib/*/pkgconfig/imgui.pc")
if(NOT _imgui190_pc)
    message(FATAL_ERROR "LESSONS_IMGUI190_ROOT=${LESSONS_IMGUI190_ROOT} has no usr/lib/*/pkgconfig/imgui.pc")
endif()
list(GET _imgui190_pc 0 _imgui190_pc)
get_filename_component(_imgui190_pcdir "${_imgui190_pc}" DIRECTORY)
# Found first there; its "Requires: stb" from the system's folders.
set(_imgui190_saved_path "$ENV{PKG_CONFIG_PATH}")
set(ENV{PKG_CONFIG_PATH} "${_imgui190_pcdir}")
unset(__pkg_config_checked_IMGUI190 CACHE)  # asked at every configure: the root may change
pkg_check_modules(IMGUI190 REQUIRED IMPORTED_TARGET GLOBAL imgui)
set(ENV{PKG_CONFIG_PATH} "${_imgui190_saved_path}")
file(REAL_PATH "${LESSONS_IMGUI190_ROOT}" _imgui190_root)
file(REAL_PATH "${IMGUI190_INCLUDEDIR}" _imgui190_include)
cmake_path(IS_PREFIX _imgui190_root "${_imgui190_include}" _imgui190_inside)
if(NOT _imgui190_inside)
    message(FATAL_ERROR "the imgui.pc in ${_imgui190_pcdir} points outside ${LESSONS_IMGUI190_ROOT} "
                        "(includedir ${IMGUI190_INCLUDEDIR}): its prefix was not set to the root")
endif()

# The backends: from the package's examples folder, and (for the second GUI) from libimgui.a.
set(_imgui190_backends "${IMGUI190_PREFIX}/share/doc/libimgui-dev/examples/backends")
if(NOT EXISTS "${_imgui190_backends}/imgui_impl_glfw.cpp")
    message(FATAL_ERROR "no imgui_impl_glfw.cpp in ${_imgui190_backends}")
endif()
add_library(lessons_imgui_backends_imgui190 STATIC ${_imgui190_backends}/imgui_impl_glfw.cpp
                                                   ${_imgui190_backends}/imgui_impl_opengl3.cpp)
target_include_directories(lessons_imgui_backends_imgui190 PUBLIC ${IMGUI190_INCLUDEDIR}/backends)
target_link_libraries(lessons_imgui_backends_imgui190 PUBLIC PkgConfig::IMGUI190 glfw OpenGL::GL
                                                             ${CMAKE_DL_LIBS})
include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_LIBRARIES ${IMGUI190_LINK_LIBRARIES} glfw OpenGL::GL ${CMAKE_DL_LIBS})
set(CMAKE_REQUIRED_INCLUDES ${IMGUI190_INCLUDE_DIRS} "${IMGUI190_INCLUDEDIR}/backends")
unset(LESSONS_LIBIMGUI190_HAS_BACKENDS CACHE)
check_cxx_source_compiles([[
    #include <imgui_impl_glfw.h>
    #include <imgui_impl_opengl3.h>
    int main() { return ImGui_ImplGlfw_InitForOpenGL(nullptr, true) && ImGui_ImplOpenGL3_Init(); }
    ]] LESSONS_LIBIMGUI190_HAS_BACKENDS)
unset(CMAKE_REQUIRED_LIBRARIES)
unset(CMAKE_REQUIRED_INCLUDES)
if(NOT LESSONS_LIBIMGUI190_HAS_BACKENDS)
    message(FATAL_ERROR "the libimgui.a in ${LESSONS_IMGUI190_ROOT} does not carry the GLFW and "
                        "OpenGL 3 backends")
endif()
add_library(lessons_imgui_backends_imgui190_lib INTERFACE)
target_include_directories(lessons_imgui_backends_imgui190_lib INTERFACE ${IMGUI190_INCLUDEDIR}/backends)
target_link_libraries(lessons_imgui_backends_imgui190_lib INTERFACE ${IMGUI190_LINK_LIBRARIES}
                      PkgConfig::IMGUI190 glfw OpenGL::GL ${CMAKE_DL_LIBS})

# lessons_imgui190_copy(FROM TO KIND [OBJECTS LIB] [REPLACE OLD NEW]...): target TO (KIND:
# STATIC, OBJECT or EXECUTABLE) with FROM's sources (or the objects of the object library LIB,
# compiled once for two targets), include folders, options and definitions, and its libraries
# with each OLD replaced by NEW. A file added to FROM is in TO at the next configure.
function(lessons_imgui190_copy from to kind)
    cmake_parse_arguments(C "" "OBJECTS" "" ${ARGN})
    get_target_property(sources ${from} SOURCES)
    get_target_property(dir ${from} SOURCE_DIR)
    set(absolute "")
    foreach(s IN LISTS sources)
        cmake_path(ABSOLUTE_PATH s BASE_DIRECTORY "${dir}" OUTPUT_VARIABLE a)
        list(APPEND absolute "${a}")
    endforeach()
    if(C_OBJECTS)
        set(absolute $<TARGET_OBJECTS:${C_OBJECTS}>)
    endif()
    if(kind STREQUAL "EXECUTABLE")
        add_executable(${to} ${absolute})
    else()
        add_library(${to} ${kind} ${absolute})
    endif()
    foreach(p INCLUDE_DIRECTORIES INTERFACE_INCLUDE_DIRECTORIES COMPILE_OPTIONS COMPILE_DEFINITIONS
              COMPILE_FEATURES LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
        get_target_property(v ${from} ${p})
        if(NOT v)
            continue()
        endif()
        set(pairs ${C_UNPARSED_ARGUMENTS})
        while(pairs)
            list(POP_FRONT pairs word old new)
            list(TRANSFORM v REPLACE "^${old}$" "${new}")
        endwhile()
        set_property(TARGET ${to} PROPERTY ${p} "${v}")
    endforeach()
    get_target_property(deps ${from} MANUALLY_ADDED_DEPENDENCIES)
    if(deps)
        add_dependencies(${to} ${deps})
    endif()
endfunction()

lessons_imgui190_copy(lessons_app lessons_app_imgui190 STATIC
                      REPLACE PkgConfig::IMGUI PkgConfig::IMGUI190)
# The GUI's own sources (main.cpp, automation.cpp, ...) compiled once against 1.90.1 for both
# GUIs: they include the backends' headers, which are 1.90.1's either way (its backends folder),
# and the two differ only in where the backends' code comes from, which the link decides.
lessons_imgui190_copy(cuda-lessons cuda-lessons-imgui190-objects OBJECT
                      REPLACE lessons_app lessons_app_imgui190
                      REPLACE lessons_imgui_backends lessons_imgui_backends_imgui190_lib)
lessons_imgui190_copy(cuda-lessons cuda-lessons-imgui190 EXECUTABLE
                      OBJECTS cuda-lessons-imgui190-objects
                      REPLACE lessons_app lessons_app_imgui190
                      REPLACE lessons_imgui_backends lessons_imgui_backends_imgui190)
lessons_imgui190_copy(cuda-lessons cuda-lessons-imgui190-lib EXECUTABLE
                      OBJECTS cuda-lessons-imgui190-objects
                      REPLACE lessons_app lessons_app_imgui190
                      REPLACE lessons_imgui_backends lessons_imgui_backends_imgui190_lib)
# Each in a folder of its own as "cuda-lessons", where the GUI finds its worker (../cli/).
set_target_properties(cuda-lessons-imgui190 PROPERTIES OUTPUT_NAME cuda-lessons
                      RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/app-imgui190)
set_target_properties(cuda-lessons-imgui190-lib PROPERTIES OUTPUT_NAME cuda-lessons
                      RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/app-imgui190-lib)
message(STATUS "GUI against ImGui ${IMGUI190_VERSION} as well (CI): backends ${_imgui190_backends} "
               "and library; app-imgui190/cuda-lessons, app-imgui190-lib/cuda-lessons")
