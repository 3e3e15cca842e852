// Exercise 1.8: four bytes per thread. The harness pads the buffer to whole blocks of 4 x block
// bytes (plus 16), launches padded / (4 x block) blocks, and gives each block 4 x block + 4
// bytes of dynamic shared memory. Each thread loads its 4 bytes with one 32-bit load (the
// buffer is 4-byte aligned), and tests the 4 positions that start in them; the byte after a
// thread's four is its neighbour's first, and for the last thread of the block it is the byte
// after the block's stretch.
__global__ void split_four_bytes_per_thread_kernel(const char* __restrict__ buf,
                                                   unsigned long long* __restrict__ out,
                                                   unsigned long long* __restrict__ count) {
    extern __shared__ unsigned int words[];  // 4 bytes per thread, then the byte after them
    // 1. base = this block's first byte; thread t loads the word at buf + base + 4t.
    // 2. The last thread also stores the byte after the block's stretch after the words.
    // 3. __syncthreads(), then test positions 4t .. 4t + 3 against the next byte, in shared
    //    memory, appending base + j + 2 for a pair at j.
}
