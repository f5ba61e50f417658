#version 430 core
// Measures how many loop iterations one invocation of this driver runs (boids_gpu_loop_limit()).
// llvmpipe and the drivers built on it (lavapipe, so zink over it) end an invocation's loops
// after about 65535 iterations in all, silently; a GPU runs them all. One invocation walks an
// outer loop of u_outer rounds of an inner loop of u_inner, each iteration one step of a hash
// that ends the loop early only on u_stop (which the host picks so it never happens): the
// compiler can neither fold the loops nor know their length. The counts it reached come back.
#include "boids_shared.h"

layout(local_size_x = 1) in;
layout(std430, binding = BOIDS_BIND_PROBE_RESULT) writeonly buffer Result { uint result[]; };

uniform uint u_outer;
uniform uint u_inner;
uniform uint u_stop;

void main()
{
    uint h = 2166136261u, total = 0u;
    for (uint o = 0u; o < u_outer; ++o) {
        for (uint i = 0u; i < u_inner; ++i) {
            h = (h ^ i) * 16777619u;
            if (h == u_stop) break;
            ++total;
        }
    }
    result[0] = total;
    result[1] = h;
}
