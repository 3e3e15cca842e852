// The chapters of the catalogue, in order: one line each. A chapter's number is its place
// here; its lessons' numbers follow from its table (lessons/NN_<chapter>/lessons.cpp), where
// Register<Name>Chapter adds them.
#pragma once

#define LESSONS_CHAPTERS(X) \
    X(Split)                \
    X(Basics)               \
    X(Reduce)               \
    X(Gemv)                 \
    X(Gemm)                 \
    X(Roofline)             \
    X(Allreduce)            \
    X(TensorCores)          \
    X(Softmax)              \
    X(Attention)
