#!/usr/bin/env python3
"""Moves recorded results' source keys across a pure rename of kernel files and identifiers.

A recording carries the key of the sources its kernel was compiled from
(cmake/MachineCodeScript.cmake, source_key). Renaming files and kernels changes every key, though
the machine code is the same. For each renamed kernel file this computes the key of the old
sources (from git, at BASE) and of the new ones (this checkout), both the way the build does, and
moves a recording from the old key to the new one only when the old build's PTX and this build's
are identical once the old names are replaced by the new ones (mangled names included). A file
whose PTX differs in anything else keeps its recordings on the old key: stale, as they should be.
Usage (from the new checkout's root, after building it):
  scripts/rekey-renamed-sources.py BASE OLD_PTX_DIRS NEW_PTX_DIRS OLD_CHECKOUT
BASE: the commit the old build was made from; OLD_PTX_DIRS, NEW_PTX_DIRS: comma-separated
<build>/lessons/CMakeFiles/lessons_catalog_ptx.dir/__/kernels and ..._ptx90a.dir/__/kernels of
the old and the new build; OLD_CHECKOUT: the folder the old build compiled (its .d files name it).
"""
import hashlib, json, re, subprocess, sys, os, glob
base, old_ptx_dirs, new_ptx_dirs, old_root = sys.argv[1:5]
old_ptx_dirs, new_ptx_dirs = old_ptx_dirs.split(','), new_ptx_dirs.split(',')
# The renames of issue 37 (kernels/<folder>/NN_<technique>.cu -> <slug>.cu, and the identifiers
# that carried the numbers): kernel file -> file, identifier -> identifier.
files = {
 'split/01_naive.cpp':'split/naive-scan.cpp','split/02_even_positions.cpp':'split/even-positions.cpp',
 'split/03_openmp.cpp':'split/openmp.cpp','split/04_one_thread_per_pair.cu':'split/one-thread-per-pair.cu',
 'split/05_pinned_memory.cu':'split/pinned-memory.cu','split/06_branch_free_padding.cu':'split/branch-free-padding.cu',
 'split/07_shared_memory.cu':'split/shared-memory.cu','split/08_four_bytes_per_thread.cu':'split/four-bytes-per-thread.cu',
 'split/09_thrust_copy_if.cu':'split/thrust-copy-if.cu','split/10_vector_loads_block_compaction.cu':'split/vector-loads-block-compaction.cu',
 'split/11_overlapped_chunks.cu':'split/overlapped-chunks.cu','split/12_scatter_gather.cu':'split/scatter-gather.cu',
 'split/13_openmp_per_gpu.cu':'split/openmp-per-gpu.cu','split/14_each_scans_its_share.cu':'split/each-scans-its-share.cu',
 'basics/15_global_vs_shared.cu':'basics/global-vs-shared.cu','basics/16_branch_divergence.cu':'basics/branch-divergence.cu',
 'basics/17_coalescing.cu':'basics/coalescing.cu','basics/18_pinned_transfers.cu':'basics/pinned-transfers.cu',
 'reduce/19_cpu_openmp.cpp':'reduce/cpu-sum.cpp','reduce/20_interleaved_global.cu':'reduce/v0-interleaved-global.cu',
 'reduce/21_shared_memory.cu':'reduce/v1-shared-memory.cu','reduce/22_add_during_load.cu':'reduce/v2-add-during-load.cu',
 'reduce/23_sequential_unrolled_warp.cu':'reduce/v3-unrolled-last-warp.cu','reduce/24_warp_shuffle.cu':'reduce/v4-warp-shuffle.cu',
 'reduce/25_vectorized_one_pass.cu':'reduce/v5-vectorized-one-pass.cu','reduce/26_cub.cu':'reduce/cub.cu',
 'reduce/27_multi_gpu_nccl.cu':'reduce/multi-gpu-nccl.cu',
 'gemv/28_thread_per_row.cu':'gemv/thread-per-row.cu','gemv/29_warp_per_row.cu':'gemv/warp-per-row.cu',
 'gemv/30_vectorized_rows_per_warp.cu':'gemv/vectorized-rows-per-warp.cu','gemv/31_cublas.cu':'gemv/cublas.cu',
 'gemm/32_naive.cu':'gemm/naive.cu','gemm/33_coalesced.cu':'gemm/coalesced.cu','gemm/34_shared_memory_tiles.cu':'gemm/shared-memory-tiles.cu',
 'gemm/35_1d_register_blocking.cu':'gemm/1d-register-blocking.cu','gemm/36_2d_register_blocking.cu':'gemm/2d-register-blocking.cu',
 'gemm/37_vectorized_transposed_a.cu':'gemm/vectorized-transposed-a.cu','gemm/38_warp_tiling.cu':'gemm/warp-tiling.cu',
 'gemm/39_double_buffering.cu':'gemm/double-buffering.cu','gemm/40_cublas_sgemm.cu':'gemm/cublas-sgemm.cu',
 'gemm/41_wmma_tf32.cu':'gemm/wmma-tf32.cu','gemm/42_cublas_tf32.cu':'gemm/cublas-tf32.cu',
 'roofline/43_intensity.cu':'roofline/roofline.cu',
 'allreduce/44_through_host.cu':'allreduce/through-host.cu','allreduce/45_reduce_broadcast.cu':'allreduce/peer-copies-add-kernel.cu',
 'allreduce/46_ring.cu':'allreduce/ring.cu','allreduce/47_nccl.cu':'allreduce/nccl.cu','allreduce/48_process_per_gpu.cu':'allreduce/one-process-per-gpu.cu',
 'allreduce/49_network_path.cu':'allreduce/leaving-nvlink.cu','allreduce/50_ring_or_tree.cu':'allreduce/ring-or-tree.cu',
 'tc/mma_sync.cu':'tc/mma-sync.cu','tc/cp_async_pipeline.cu':'tc/cp-async-pipeline.cu','tc/wgmma_tma.cu':'tc/tma.cu',
 'tc/warp_specialized.cu':'tc/warp-specialization.cu','tc/cublas_bf16.cu':'tc/cublas-bf16.cu',
 'softmax/01_cpu_three_pass.cpp':'softmax/cpu-three-pass.cpp','softmax/02_thread_per_row.cu':'softmax/thread-per-row.cu',
 'softmax/03_block_per_row.cu':'softmax/block-per-row.cu','softmax/04_registers.cu':'softmax/row-in-registers.cu',
 'softmax/05_vectorized.cu':'softmax/vectorized.cu','softmax/06_online.cu':'softmax/online.cu','softmax/07_cluster.cu':'softmax/cluster.cu',
 'softmax/08_rmsnorm.cu':'softmax/rmsnorm.cu','softmax/09_cudnn.cu':'softmax/cudnn.cu',
}
idents = {
 'add_17_strided_kernel':'add_strided_kernel','divergence_16_kernel':'branch_divergence_kernel',
 'vecmat_15_global_kernel':'vecmat_global_kernel','vecmat_15_shared_kernel':'vecmat_shared_kernel',
 'gemm_32_naive_kernel':'gemm_naive_kernel','gemm_33_coalesced_kernel':'gemm_coalesced_kernel',
 'gemm_34_shared_memory_kernel':'gemm_shared_memory_tiles_kernel','gemm_35_1d_blocking_kernel':'gemm_1d_register_blocking_kernel',
 'gemm_36_2d_blocking_kernel':'gemm_2d_register_blocking_kernel','gemm_37_vectorized_kernel':'gemm_vectorized_transposed_a_kernel',
 'gemm_38_warp_tiling_kernel':'gemm_warp_tiling_kernel','gemm_39_double_buffered_kernel':'gemm_double_buffering_kernel',
 'gemm_41_wmma_tf32_kernel':'gemm_wmma_tf32_kernel',
 'gemv_28_thread_per_row_kernel':'gemv_thread_per_row_kernel','gemv_29_warp_per_row_kernel':'gemv_warp_per_row_kernel',
 'gemv_30_vectorized_kernel':'gemv_vectorized_rows_per_warp_kernel','gemv_30_scalar_loads_kernel':'gemv_rows_per_warp_scalar_loads_kernel',
 'reduce_20_interleaved_global_kernel':'reduce_v0_interleaved_global_kernel','reduce_21_shared_memory_kernel':'reduce_v1_shared_memory_kernel',
 'reduce_22_add_during_load_kernel':'reduce_v2_add_during_load_kernel','reduce_23_sequential_unrolled_warp_kernel':'reduce_v3_unrolled_last_warp_kernel',
 'reduce_24_warp_shuffle_kernel':'reduce_v4_warp_shuffle_kernel','reduce_25_vectorized_one_pass_kernel':'reduce_v5_vectorized_one_pass_kernel',
 'reduce_25_sum_block_sums_kernel':'reduce_v5_sum_block_sums_kernel',
 'roofline_43_intensity_kernel':'roofline_intensity_kernel',
 'softmax_02_thread_per_row_kernel':'softmax_thread_per_row_kernel','softmax_03_block_per_row_kernel':'softmax_block_per_row_kernel',
 'softmax_04_registers_kernel':'softmax_row_in_registers_kernel','softmax_05_vectorized_kernel':'softmax_vectorized_kernel',
 'softmax_06_online_kernel':'softmax_online_kernel','softmax_07_cluster_kernel':'softmax_cluster_kernel',
 'softmax_07_split_pairs_kernel':'softmax_cluster_split_pairs_kernel','softmax_07_split_write_kernel':'softmax_cluster_split_write_kernel',
 'rmsnorm_08_kernel':'rmsnorm_kernel',
 'split_04_one_thread_per_pair_kernel':'split_one_thread_per_pair_kernel','split_06_branch_free_padding_kernel':'split_branch_free_padding_kernel',
 'split_07_shared_memory_kernel':'split_shared_memory_kernel','split_08_four_bytes_per_thread_kernel':'split_four_bytes_per_thread_kernel',
 'split_10_vector_loads_block_compaction_kernel':'split_vector_loads_block_compaction_kernel',
 'tc_wgmma_tma_kernel':'tc_tma_kernel','tc_warp_specialized_kernel':'tc_warp_specialization_kernel',
 # descriptors and tiles
 'kAdd17':'kBasicsCoalescing','kDivergence16':'kBasicsBranchDivergence','kVecMat15':'kBasicsGlobalVsShared',
 'kAllreduce44':'kAllreduceThroughHost','kAllreduce45':'kAllreducePeerCopiesAddKernel','kAllreduce46':'kAllreduceRing','kAllreduce47':'kAllreduceNccl',
 'kRank48':'kAllreduceOneProcessPerGpu','kSettings49':'kAllreduceLeavingNvlink','kSettings50':'kAllreduceRingOrTree',
 'kGemm32':'kGemmNaive','kGemm33':'kGemmCoalesced','kGemm34':'kGemmSharedMemoryTiles','kGemm35':'kGemm1dRegisterBlocking',
 'kGemm36':'kGemm2dRegisterBlocking','kGemm37':'kGemmVectorizedTransposedA','kGemm38':'kGemmWarpTiling','kGemm39':'kGemmDoubleBuffering',
 'kGemm41':'kGemmWmmaTf32',
 'kTiles34':'kTilesSharedMemoryTiles','kTiles35':'kTiles1dRegisterBlocking','kTiles36':'kTiles2dRegisterBlocking',
 'kTiles37':'kTilesVectorizedTransposedA','kTiles38':'kTilesWarpTiling','kTiles39':'kTilesDoubleBuffering','kTiles41':'kTilesWmmaTf32',
 'kGemv28':'kGemvThreadPerRow','kGemv29':'kGemvWarpPerRow','kGemv30':'kGemvVectorizedRowsPerWarp',
 'kReduce20':'kReduceV0','kReduce21':'kReduceV1','kReduce22':'kReduceV2','kReduce23':'kReduceV3','kReduce24':'kReduceV4',
 'kReduce25':'kReduceV5','kReduce26':'kReduceCub','kReduce27':'kReduceMultiGpuNccl',
 'kRmsNorm08':'kSoftmaxRmsNorm','kRoofline43':'kRooflineIntensity',
 'kSoftmax02':'kSoftmaxThreadPerRow','kSoftmax03':'kSoftmaxBlockPerRow','kSoftmax04':'kSoftmaxRowInRegisters',
 'kSoftmax05':'kSoftmaxVectorized','kSoftmax06':'kSoftmaxOnline','kSoftmax07':'kSoftmaxCluster',
 'kSplit04':'kSplitOneThreadPerPair','kSplit06':'kSplitBranchFreePadding','kSplit07':'kSplitSharedMemory',
 'kSplit08':'kSplitFourBytesPerThread','kSplit10':'kSplitVectorLoadsBlockCompaction',
 # helpers
 'Gemv30LanesPerRow':'GemvLanesPerRow','Gemv31Create':'GemvCublasCreate','Gemv31Destroy':'GemvCublasDestroy',
 'Gemv31Run':'GemvCublasRun','Gemv31Unavailable':'GemvCublasUnavailable',
 'LESSONS_REDUCE_23':'LESSONS_REDUCE_V3','SPLIT10_VARIANTS':'SPLIT_COMPACTION_VARIANTS','SPLIT10_VARIANT':'SPLIT_COMPACTION_VARIANT',
 'Smem41':'WmmaSmemBytes','smem41':'wmma_smem',
 'Split05AllocPinned':'SplitAllocPinned','Split09ThrustCopyIf':'SplitThrustCopyIf','Split11Overlapped':'SplitOverlappedChunks',
 'Split11Chunk':'SplitOverlappedChunk','Split12ScatterGather':'SplitScatterGather','Split13OpenMPPerGpu':'SplitOpenMPPerGpu',
 'Split14EachScansItsShare':'SplitEachScansItsShare',
 'dot4_30':'dot4','body_30':'row_dot','load_x_30':'load_x','store_row_30':'store_row',
 'warp_sum_24':'warp_sum','block_sum_25':'block_sum','thread_sum_25':'thread_sum','sum_of_block_sums_25':'sum_of_block_sums',
}

def deps_of(d_file, root):
    text = open(d_file).read().replace('\\\n', ' ')
    text = text.split(':', 1)[1]
    rels = sorted({p[len(root) + 1:] for p in text.split() if p.startswith(root + '/')})
    return rels

def header(ptx):
    out = ''
    for what in ['// Compiler Build ID', '// Cuda compilation tools', '// Based on NVVM', r'\.target ']:
        m = re.search(what + r'[^\n]*', ptx)
        out += (m.group(0) if m else '') + '\n'
    return out

def key(ptx, rels, read):
    k = header(ptx)
    for r in rels:
        k += '== ' + r + '\n' + read(r)
    return hashlib.sha256(k.encode()).hexdigest()

def git_read(rel):
    return subprocess.check_output(['git', 'show', base + ':' + rel]).decode()

idents.update({'tc_warp_specialized_smem': 'tc_warp_specialization_smem',
               'tc_wgmma_tma_smem': 'tc_tma_smem'})

# The names nvcc gives an anonymous namespace and internal-linkage objects carry the file's name
# and a hash of the compilation: they change with the file's name, never with its code.
ANON = re.compile(r'\d+_(GLOBAL__N__|INTERNAL_)[0-9a-f]+_\d+_[A-Za-z0-9_]*?_cu_[0-9a-f]+(_\d+)?')

def anonymous(ptx):
    return ANON.sub('ANON', ptx)

def normalize(ptx):
    # Line information (-lineinfo, cmake/MachineCode.cmake): the ".file" table names the files
    # where they were built, ".loc" their lines, and a .debug_str section the functions' names
    # for them; none of it is machine code.
    ptx = re.sub(r'^[ \t]*\.(loc|file)\b[^\n]*\n', '', ptx, flags=re.M)
    ptx = re.sub(r'^[ \t]*\.section[ \t]+\.debug_\w+[ \t]*\n[ \t]*\{.*?^[ \t]*\}[ \t]*\n?', '',
                 ptx, flags=re.M | re.S)
    for o, n in sorted(idents.items(), key=lambda kv: -len(kv[0])):
        ptx = ptx.replace(str(len(o)) + o, str(len(n)) + n)
        ptx = re.sub(r'\b' + re.escape(o) + r'\b', n, ptx)
    return anonymous(ptx)

# The renamed files, and the files kept under their names whose sources changed with the renames
# (a comment or a header naming a renamed kernel).
pairs = dict(files)
for d in new_ptx_dirs:
    for p in glob.glob(os.path.join(d, '**', '*.ptx'), recursive=True):
        rel = os.path.relpath(p, d)[:-4] + '.cu'
        if rel not in pairs.values():
            pairs[rel] = rel
moves, kept = {}, []
for old, new in pairs.items():
    if not old.endswith('.cu'):
        continue
    found = None
    for od, nd in zip(old_ptx_dirs, new_ptx_dirs):
        o = os.path.join(od, old[:-3] + '.ptx')
        n = os.path.join(nd, new[:-3] + '.ptx')
        if os.path.exists(o) and os.path.exists(n):
            found = (o, n)
    if not found:
        kept.append((old, 'no PTX in both builds'))
        continue
    o, n = found
    old_ptx, new_ptx = open(o).read(), open(n).read()
    old_key = key(old_ptx, deps_of(o + '.d', old_root), git_read)
    new_key = key(new_ptx, deps_of(n + '.d', os.getcwd()), lambda r: open(r).read())
    if normalize(old_ptx) != anonymous(new_ptx):
        kept.append((old, 'PTX differs beyond the names'))
        continue
    if old_key != new_key:
        moves[old_key] = (new_key, 'kernels/' + new)

changed = 0
for f in sorted(glob.glob('assets/reference/**/*.json', recursive=True)):
    s = open(f).read()
    t = s
    for o, (n, _) in moves.items():
        t = t.replace('"source_key": "%s"' % o, '"source_key": "%s"' % n)
    if t != s:
        c = sum(s.count('"source_key": "%s"' % o) for o in moves)
        print('%s: %d results moved to the renamed sources\' keys' % (f, c))
        changed += c
        open(f, 'w').write(t)
print('%d kernel files with new keys and the same PTX; %d results moved' % (len(moves), changed))
for old, why in kept:
    print('kept on the old key:', old, '-', why)
