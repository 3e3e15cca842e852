# Chooses CMAKE_CUDA_ARCHITECTURES before enable_language(CUDA).
#  - set by the caller (-DCMAKE_CUDA_ARCHITECTURES=90): kept as given;
#  - a GPU visible through nvidia-smi: "native";
#  - otherwise every real architecture CUDA 13 supports that we ship, sm_75 up to sm_90,
#    plus compute_90 PTX so newer GPUs (Blackwell) JIT-compile the kernels at load time.
if(DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT CMAKE_CUDA_ARCHITECTURES STREQUAL "")
    return()
endif()
set(_lessons_arch "75-real;80-real;86-real;89-real;90")
find_program(LESSONS_NVIDIA_SMI nvidia-smi)
if(LESSONS_NVIDIA_SMI)
    execute_process(COMMAND ${LESSONS_NVIDIA_SMI} -L
                    RESULT_VARIABLE _smi_rc OUTPUT_VARIABLE _smi_out ERROR_QUIET)
    if(_smi_rc EQUAL 0 AND _smi_out MATCHES "GPU 0")
        set(_lessons_arch native)
    endif()
endif()
set(CMAKE_CUDA_ARCHITECTURES "${_lessons_arch}" CACHE STRING "CUDA architectures to build for")
