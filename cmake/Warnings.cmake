# Warnings for our own targets (never for third-party code).
function(lessons_warnings target)
    target_compile_options(${target} PRIVATE
        $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                  -Wno-sign-conversion -Wnon-virtual-dtor
                                  $<$<CXX_COMPILER_ID:GNU>:-Wno-restrict>>
        $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --Werror=all-warnings>)
endfunction()
