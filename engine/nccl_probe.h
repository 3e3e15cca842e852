// Whether NCCL can run here, found without loading it. Loading NCCL maps about 218 MB of address
// space (measured on the H200 machine): `list`, `info` and the worker's list only need to know
// whether its file is there, as the loader would find it (library_probe.h). The NCCL steps load
// it when they run (kernels/nccl/nccl_loader.h), and say then why it cannot be loaded.
#pragma once

#include <string>

namespace lessons {

// Empty when the NCCL steps can run: NCCL is loaded already, or its file is found where the
// loader looks (nccl::Candidates(), CUDA_LESSONS_NCCL alone when set). Otherwise the loader's
// own message ("unavailable: NCCL not found (tried ...); install ..."): where no file is found,
// the loader is asked, and a library that is not there maps nothing.
std::string NcclUnavailable();

}  // namespace lessons
