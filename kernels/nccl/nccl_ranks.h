// NCCL for one process per GPU: the calls a rank makes besides nccl_loader.h's, bound from the
// same library (Load()), with NCCL's stable ABI values. A header of its own so that the
// one-process steps' files, and their recorded machine code, do not change with it.
#pragma once

#include "nccl/nccl_loader.h"

namespace lessons::nccl {

// ncclUniqueId: the bootstrap's address and a magic number, made by one rank (GetUniqueId) and
// handed to every other rank of the communicator before CommInitRank.
struct UniqueId {
    char internal[128];
};

struct RankApi {
    Result (*GetUniqueId)(UniqueId* id);
    Result (*CommInitRank)(Comm* comm, int nranks, UniqueId id, int rank);
    Result (*CommAbort)(Comm comm);
};

// Bound on the first call from the library Load() found (thread-safe); null when NCCL is missing
// (Unavailable() says why) or lacks one of these calls.
const RankApi* LoadRankApi();

}  // namespace lessons::nccl
