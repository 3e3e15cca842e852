#!/bin/bash
# Builds the bench on the workstation (repository root) and records the source's hash.
set -e
D=gpu-bundle/sm9fast
nvcc -O3 -std=c++17 -arch=sm_90a -lineinfo -Ikernels -Xptxas -v -o $D/bench $D/bench.cu 2> $D/ptxas.log
cat $D/bench.cu kernels/softmax/cluster.cu kernels/softmax/softmax_device.cuh | sha1sum | cut -c1-40 > $D/bench.sha
