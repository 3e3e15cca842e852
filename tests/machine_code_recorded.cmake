# CTest (cmake -P): cmake/MachineCodeScript.cmake embeds a recorded SASS listing only when the
# SHA-256 of the PTX it was recorded from equals this build's PTX of that file. Two files: one
# recorded from its PTX exactly, one recorded from other PTX; the first must be embedded with
# its origin, the second refused as stale. -DSCRIPT=<MachineCodeScript.cmake> -DWORK=<scratch>.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/ptx/x ${WORK}/rec/kernels/x)
file(WRITE ${WORK}/ptx/x/a.ptx "// PTX of a\n.visible .entry a()\n{\n\tret;\n}\n")
file(WRITE ${WORK}/ptx/x/b.ptx "// PTX of b\n.visible .entry b()\n{\n\tret;\n}\n")
file(SHA256 ${WORK}/ptx/x/a.ptx sha_a)
# c's PTX names a symbol of an anonymous namespace: its tag comes from the source's path and
# differs in another checkout; the recording (made elsewhere) hashed it without the tag.
file(WRITE ${WORK}/ptx/x/c.ptx ".shared .u32 _ZN66_INTERNAL_6e2b7b57_4_c_cu_1lessons68_GLOBAL__N__6e2b7b57_4_c_cu_1vE;\n")
string(SHA256 sha_c ".shared .u32 _ZN66_INTERNAL_x_4_c_cu_1lessons68_GLOBAL__N__x_4_c_cu_1vE;\n")
file(WRITE ${WORK}/rec/kernels/x/c.cu.sass
     "//@ source kernels/x/c.cu\n//@ ptx-sha256 ${sha_c}\n//@ arch sm_90\n"
     "//@ recorded Test GPU, 2026-01-01T00:00Z, test\n        Function : c\n"
     "        /*0000*/                   LISTING_OF_C ;\n")
string(SHA256 sha_other "PTX b had before it changed")
file(WRITE ${WORK}/rec/kernels/x/a.cu.sass
     "//@ source kernels/x/a.cu\n//@ ptx-sha256 ${sha_a}\n//@ arch sm_90\n"
     "//@ recorded Test GPU, 2026-01-01T00:00Z, test\n        Function : a\n"
     "        /*0000*/                   LISTING_OF_A ;\n")
file(WRITE ${WORK}/rec/kernels/x/b.cu.sass
     "//@ source kernels/x/b.cu\n//@ ptx-sha256 ${sha_other}\n//@ arch sm_90\n"
     "//@ recorded Test GPU, 2026-01-01T00:00Z, test\n        Function : b\n"
     "        /*0000*/                   LISTING_OF_B ;\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E tar cJf ${WORK}/sm_90.tar.xz kernels
                WORKING_DIRECTORY ${WORK}/rec RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "could not pack the test archive")
endif()
file(WRITE ${WORK}/list.cmake "set(ENTRIES \"kernels/x/a.cu;kernels/x/b.cu;kernels/x/c.cu\")
set(PTX_FILES \"${WORK}/ptx/x/a.ptx;${WORK}/ptx/x/b.ptx;${WORK}/ptx/x/c.ptx\")
set(OBJECTS \"\")
set(ARCH \"90\")
set(CUOBJDUMP \"\")
set(WHY \"\")
set(RECORDED \"${WORK}/sm_90.tar.xz\")
set(RECORDED_DIR \"${WORK}/unpacked\")
")
execute_process(COMMAND ${CMAKE_COMMAND} -DLIST=${WORK}/list.cmake -DOUT=${WORK}/out.cpp
                        -P ${SCRIPT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "MachineCodeScript.cmake failed")
endif()
file(READ ${WORK}/out.cpp out)
set(failures "")
if(NOT out MATCHES "LISTING_OF_A")
    list(APPEND failures "a's listing (recorded from identical PTX) was not embedded")
endif()
if(out MATCHES "//@ ")
    list(APPEND failures "the recording's header lines were embedded with the listing")
endif()
if(NOT out MATCHES "\"Test GPU, 2026-01-01T00:00Z, test\"")
    list(APPEND failures "a's origin is not in the table")
endif()
if(NOT out MATCHES "LISTING_OF_C")
    list(APPEND failures "c's listing (same PTX up to the path-derived symbol tag) was refused")
endif()
if(out MATCHES "LISTING_OF_B")
    list(APPEND failures "b's listing (recorded from other PTX) was embedded")
endif()
if(NOT out MATCHES "\"stale\"")
    list(APPEND failures "b is not marked stale")
endif()
if(NOT out MATCHES "\"sm_90\"")
    list(APPEND failures "the table does not name sm_90")
endif()
if(failures)
    message(FATAL_ERROR "${failures}")
endif()
message(STATUS "recorded SASS: embedded when the PTX hash matches, refused when it does not")
