// Exercise 9.7: a long row across a cluster. The harness launches a thread block cluster of 4
// blocks a row (gridDim.x = 4 m), each block with ceil(chunks / 4) chunks of 16 bytes of dynamic
// shared memory, and LoadPart brings the block's part of the row there. This kernel is right, but
// to find the row's max and sum each block reads the other three parts again from global memory:
// the row is read four times. Send each block's (max, sum) pair to the other blocks of its
// cluster through distributed shared memory instead, so that each part is read once.
__global__ void softmax_cluster_kernel(const float* __restrict__ x, float* __restrict__ y, int m,
                                       int n) {
    extern __shared__ __align__(128) uint4 chunk[];  // this block's part of the row
    __shared__ float scratch_max[32], scratch_sum[32], rest_max[32], rest_sum[32];
    __shared__ __align__(8) unsigned long long barriers[2];  // the part's, the pairs'
    const ClusterPart p = LoadPart<MaxSum>(chunk, x, n, -Infinity(), barriers);
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, warps = blockDim.x / 32;
    // This thread's pair over its chunks of the part: its max, then the sum of exp(x - max), each
    // exponential kept in place of its value.
    float max = -Infinity();
    for (int j = tid; j < p.count; j += blockDim.x) max = fmaxf(max, ChunkMax<float>(chunk[j]));
    const float base = max == -Infinity() ? 0.0f : max;
    float sum = 0.0f;
    for (int j = tid; j < p.count; j += blockDim.x) {
        float e[4];
        for (int i = 0; i < 4; ++i) {
            e[i] = SfuExp(Element<float>(chunk[j], i) - base);
            sum += e[i];
        }
        chunk[j] = PackRaw<float>(e);
    }
    // The block's pair.
    MaxSum pair = WarpPair({max, sum});
    if (lane == 0) {
        scratch_max[warp] = pair.max;
        scratch_sum[warp] = pair.sum;
    }
    __syncthreads();
    const MaxSum own = WarpPair(lane < warps ? MaxSum{scratch_max[lane], scratch_sum[lane]}
                                             : MaxSum{-Infinity(), 0.0f});
    // The other blocks' parts: read again from global memory, a chunk of 4 at a time.
    const float* r = x + static_cast<size_t>(p.row) * n;
    const int chunks = (n + 3) / 4;
    MaxSum rest{-Infinity(), 0.0f};
    for (int c = tid; c < chunks; c += blockDim.x) {
        if (c >= p.first && c < p.first + p.count) continue;  // this block's own part
        float v[4];
        LoadChunk(r, c, n, p.aligned, v, -Infinity());
        const float local = fmaxf(fmaxf(v[0], v[1]), fmaxf(v[2], v[3]));
        float s = 0.0f;
        for (int i = 0; i < 4; ++i) s += SfuExp(v[i] - local);
        rest = Merge(rest, MaxSum{local, s});
    }
    rest = WarpPair(rest);
    if (lane == 0) {
        rest_max[warp] = rest.max;
        rest_sum[warp] = rest.sum;
    }
    __syncthreads();
    rest =
        WarpPair(lane < warps ? MaxSum{rest_max[lane], rest_sum[lane]} : MaxSum{-Infinity(), 0.0f});
    pair = Merge(own, rest);  // the row's pair
    // exp(x - M) / S = exp(x - max) · exp(max - M) / S: one factor for this thread's values.
    const float factor = max == -Infinity() ? 0.0f : SfuExp(max - pair.max) / pair.sum;
    float* o = y + static_cast<size_t>(p.row) * n;
    for (int j = tid; j < p.count; j += blockDim.x) {
        float out[4];
        for (int i = 0; i < 4; ++i) out[i] = Element<float>(chunk[j], i) * factor;
        StoreRaw(o, p.first + j, n, p.aligned, PackRaw<float>(out));
    }
}
