#version 430 core
// Metrics pass 3: one workgroup per replica sums what pass 1 and 2 left in the replica's slots
// (its cells' slots are consecutive): living boids, groups (union-find roots), nearest-neighbour
// distances, speeds, unit headings, the least and greatest speed. Each invocation adds a strided
// share in order, then a tree joins the shares; the order depends only on the slots within the
// replica, so a replica's numbers are the same alone or among others.
#include "common.glsl"

layout(local_size_x = BOIDS_WG_SIZE) in;
layout(std430, binding = BOIDS_BIND_CELL_START) readonly buffer CellStart { uint cell_start[]; };
layout(std430, binding = BOIDS_BIND_METRIC_SLOT) readonly buffer MetricSlot { vec4 metric_slot[]; };
layout(std430, binding = BOIDS_BIND_METRIC_PARENT) readonly buffer MetricParent { uint parent[]; };
layout(std430, binding = BOIDS_BIND_METRIC_SUMS) writeonly buffer MetricSums
{
    boids_gpu_metric_sums sums[];
};

shared vec4 sh_sum[BOIDS_WG_SIZE];   // nn, speed, hx, hy
shared vec2 sh_range[BOIDS_WG_SIZE]; // least, greatest speed
shared uint sh_groups[BOIDS_WG_SIZE];

void main()
{
    uint r = BOIDS_GROUP_INDEX, i = gl_LocalInvocationID.x; // a workgroup per replica
    if (r >= frame.replicas) return;                       // (the last row may run over)
    uint first = r * frame.cells_per_replica;
    uint b = cell_start[first], e = cell_start[first + frame.cells_per_replica];
    if ((e - b) / uint(BOIDS_WG_SIZE) > frame.loop_limit) raise_status(BOIDS_STATUS_LOOP_LIMIT);
    vec4 sum = vec4(0.0);
    vec2 range = vec2(uintBitsToFloat(0x7f800000u), 0.0);
    uint groups = 0u;
    for (uint k = b + i; k < e; k += uint(BOIDS_WG_SIZE)) {
        vec4 m = metric_slot[k];
        sum += m;
        range = vec2(min(range.x, m.y), max(range.y, m.y));
        groups += parent[k] == k ? 1u : 0u;
    }
    sh_sum[i] = sum;
    sh_range[i] = range;
    sh_groups[i] = groups;
    barrier();
    for (uint half_n = uint(BOIDS_WG_SIZE) / 2u; half_n > 0u; half_n /= 2u) {
        if (i < half_n) {
            sh_sum[i] += sh_sum[i + half_n];
            sh_range[i] = vec2(min(sh_range[i].x, sh_range[i + half_n].x),
                               max(sh_range[i].y, sh_range[i + half_n].y));
            sh_groups[i] += sh_groups[i + half_n];
        }
        barrier();
    }
    if (i == 0u) {
        boids_gpu_metric_sums out_sums;
        out_sums.alive = e - b;
        out_sums.groups = sh_groups[0];
        out_sums.nn_sum = sh_sum[0].x;
        out_sums.speed_sum = sh_sum[0].y;
        out_sums.hx = sh_sum[0].z;
        out_sums.hy = sh_sum[0].w;
        out_sums.min_speed = e > b ? sh_range[0].x : 0.0;
        out_sums.max_speed = sh_range[0].y;
        sums[r] = out_sums;
    }
}
