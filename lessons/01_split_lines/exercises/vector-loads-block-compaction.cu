// Exercise 1.10: 16-byte loads, word-at-a-time tests, one atomic per block. The harness pads the
// buffer to whole blocks of 32 x block bytes (zeros past the end, and 16 more zero bytes after
// that), launches padded / (32 x block) blocks of `block` threads (at most 512) with 64 x block
// bytes of dynamic shared memory, and passes offset_base = 0 (an offset is offset_base plus the
// position in buf). Thread t of block b owns the 16-byte vectors b x 2 x block + t and
// b x 2 x block + block + t: a warp's loads are contiguous.
// As it stands each thread loads its two vectors as 16-byte loads, then tests its 32 positions
// one byte at a time and claims each hit with an atomicAdd on *count: right, but it spends many
// instructions per byte and, on dense text, queues on one counter. Test a whole 32-bit word at a
// time, and let one atomicAdd claim the block's hits, written out contiguously.
__global__ void split_vector_loads_block_compaction_kernel(const char* __restrict__ buf,
                                                           unsigned long long* __restrict__ out,
                                                           unsigned long long* __restrict__ count,
                                                           unsigned long long offset_base) {
    const uint64_t first = blockIdx.x * uint64_t(blockDim.x) * 2;  // in vectors
    for (int j = 0; j < 2; ++j) {
        const uint64_t vector = first + j * blockDim.x + threadIdx.x;
        const uint4 v = reinterpret_cast<const uint4*>(buf)[vector];
        const unsigned words[4] = {v.x, v.y, v.z, v.w};
        for (int b = 0; b < 16; ++b) {
            const unsigned char c = (words[b / 4] >> (8 * (b % 4))) & 0xff;
            // The byte after: in this vector, or the first byte of the next one (in the padding
            // past the last vector).
            const unsigned char next =
                b < 15 ? (words[(b + 1) / 4] >> (8 * ((b + 1) % 4))) & 0xff : buf[vector * 16 + 16];
            if (c == '\r' && next == '\n')
                out[atomicAdd(count, 1ull)] = offset_base + vector * 16 + b + 2;
        }
    }
}
