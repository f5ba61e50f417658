#version 430 core
// Metrics pass 3: one workgroup per replica sums what pass 1 and 2 left in the replica's slots
// (its cells' slots are consecutive): living boids, groups (union-find roots), nearest-neighbour
// distances, speeds, unit headings, the least and greatest speed; then the milling's sums about
// the replica's centre (core/metrics.c's milling_sums: the centre first, each axis's circular
// mean on a torus, then |sum of r x v| and sum of |r| |v|). Each invocation adds a strided share
// in order, then a tree joins the shares; the order depends only on the slots within the replica,
// so a replica's numbers are the same alone or among others.
#include "common.glsl"

layout(local_size_x = BOIDS_WG_SIZE) in;
layout(std430, binding = BOIDS_BIND_CELL_START) readonly buffer CellStart { uint cell_start[]; };
layout(std430, binding = BOIDS_BIND_POS_VEL_IN) readonly buffer PosVelIn { vec4 pos_vel_in[]; };
layout(std430, binding = BOIDS_BIND_METRIC_SLOT) readonly buffer MetricSlot { vec4 metric_slot[]; };
layout(std430, binding = BOIDS_BIND_METRIC_PARENT) readonly buffer MetricParent { uint parent[]; };
layout(std430, binding = BOIDS_BIND_METRIC_SUMS) writeonly buffer MetricSums
{
    boids_gpu_metric_sums sums[];
};

shared vec4 sh_sum[BOIDS_WG_SIZE];   // nn, speed, hx, hy
shared vec2 sh_range[BOIDS_WG_SIZE]; // least, greatest speed
shared uint sh_groups[BOIDS_WG_SIZE];

// The sum of v over the workgroup (every invocation calls it, and gets the sum).
vec4 workgroup_sum(vec4 v)
{
    uint i = gl_LocalInvocationID.x;
    sh_sum[i] = v;
    barrier();
    for (uint half_n = uint(BOIDS_WG_SIZE) / 2u; half_n > 0u; half_n /= 2u) {
        if (i < half_n) sh_sum[i] += sh_sum[i + half_n];
        barrier();
    }
    vec4 total = sh_sum[0];
    barrier(); // (before sh_sum is used again)
    return total;
}

// The angle of (c, s) in [0, 2 pi): a circular mean's.
float turn(vec2 cs)
{
    float a = atan(cs.y, cs.x);
    return a < 0.0 ? a + 6.2831853 : a;
}

// |sum of r x v| and sum of |r| |v| over slots [b, e) about their centre.
vec2 milling_sums(uint b, uint e)
{
    uint i = gl_LocalInvocationID.x;
    vec2 k = vec2(6.2831853) / vec2(frame.world_w, frame.world_h);
    vec4 acc = vec4(0.0); // a torus: cos, sin of each axis's angle; a box: the positions
    for (uint s = b + i; s < e; s += uint(BOIDS_WG_SIZE)) {
        vec2 p = pos_vel_in[s].xy;
        acc += world_wraps() ? vec4(cos(k.x * p.x), sin(k.x * p.x), cos(k.y * p.y), sin(k.y * p.y))
                             : vec4(p, 0.0, 0.0);
    }
    vec4 total = workgroup_sum(acc);
    vec2 c = world_wraps() ? vec2(turn(total.xy), turn(total.zw)) / k
                           : total.xy / float(max(e - b, 1u));
    world_sizes ws = world_sizes_now();
    vec2 sums = vec2(0.0);
    for (uint s = b + i; s < e; s += uint(BOIDS_WG_SIZE)) {
        vec4 pv = pos_vel_in[s];
        vec2 r = offset_to(ws, c.x, c.y, pv.xy);
        sums += vec2(r.x * pv.w - r.y * pv.z, length(r) * length(pv.zw));
    }
    return workgroup_sum(vec4(sums, 0.0, 0.0)).xy;
}

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
    vec4 main_sum = sh_sum[0];
    vec2 main_range = sh_range[0];
    uint main_groups = sh_groups[0];
    barrier(); // (milling_sums uses sh_sum again)
    vec2 mill = e - b > 1u ? milling_sums(b, e) : vec2(0.0);
    if (i == 0u) {
        boids_gpu_metric_sums out_sums;
        out_sums.alive = e - b;
        out_sums.groups = main_groups;
        out_sums.nn_sum = main_sum.x;
        out_sums.speed_sum = main_sum.y;
        out_sums.hx = main_sum.z;
        out_sums.hy = main_sum.w;
        out_sums.min_speed = e > b ? main_range.x : 0.0;
        out_sums.max_speed = main_range.y;
        out_sums.mill_num = abs(mill.x);
        out_sums.mill_den = mill.y;
        out_sums.reserved0 = 0.0;
        out_sums.reserved1 = 0.0;
        sums[r] = out_sums;
    }
}
