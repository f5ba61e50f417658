#version 430 core
// Metrics pass 3: one workgroup per replica sums what pass 1 and 2 left in the replica's slots
// (its cells' slots are consecutive): living boids, groups (union-find roots), nearest-neighbour
// distances, speeds, unit headings (a 3D world's z from their own block), the least
// and greatest speed; then the milling's sums about the replica's centre (core/metrics.c's
// milling_sums: the centre first, each axis's circular mean on a torus, then |sum of r x v| and
// sum of |r| |v|). Each invocation adds a strided share in order, then a tree joins the shares;
// the order depends only on the slots within the replica, so a replica's numbers are the same
// alone or among others.
#include "common.glsl"

layout(local_size_x = BOIDS_WG_SIZE) in;
layout(std430, binding = BOIDS_BIND_CELL_START) readonly buffer CellStart { uint cell_start[]; };
layout(std430, binding = BOIDS_BIND_POS_VEL_IN) readonly buffer PosVelIn { vec4 pos_vel_in[]; };
layout(std430, binding = BOIDS_BIND_METRIC_SLOT) readonly buffer MetricSlot { vec4 metric_slot[]; };
layout(std430, binding = BOIDS_BIND_METRIC_PARENT) readonly buffer MetricParent { uint parent[]; };
#if BOIDS_DIMS == 3
layout(std430, binding = BOIDS_BIND_POS_VEL_Z_IN) readonly buffer PosVelZIn
{
    vec2 pos_vel_z_in[];
};
layout(std430, binding = BOIDS_BIND_METRIC_SLOT_Z) readonly buffer MetricSlotZ
{
    float metric_slot_z[];
};
#endif
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

// The centre of slots [b, e) along an axis of a world of size `size`: on a torus the circular
// mean of the coordinates, else the mean (`share`: this invocation's share of centre_share()).
float axis_centre(vec2 share, float size, uint n)
{
    vec2 total = workgroup_sum(vec4(share, 0.0, 0.0)).xy;
    return world_wraps() ? turn(total) / (6.2831853 / size) : total.x / float(max(n, 1u));
}

// An invocation's share of axis_centre's sums for coordinate x.
vec2 centre_share(float x, float size)
{
    float a = (6.2831853 / size) * x;
    return world_wraps() ? vec2(cos(a), sin(a)) : vec2(x, 0.0);
}

// |sum of r x v| and sum of |r| |v| over slots [b, e) about their centre (a 3D world's z and vz
// in the second half of the buffer).
vec2 milling_sums(uint b, uint e)
{
    uint i = gl_LocalInvocationID.x;
    vec2 sx = vec2(0.0), sy = vec2(0.0), sz = vec2(0.0);
    for (uint s = b + i; s < e; s += uint(BOIDS_WG_SIZE)) {
        vec2 p = pos_vel_in[s].xy;
        sx += centre_share(p.x, frame.world_w);
        sy += centre_share(p.y, frame.world_h);
#if BOIDS_DIMS == 3
        sz += centre_share(pos_vel_z_in[s].x, frame.world_d);
#endif
    }
    vec3 c = vec3(axis_centre(sx, frame.world_w, e - b), axis_centre(sy, frame.world_h, e - b),
                  0.0);
#if BOIDS_DIMS == 3
    c.z = axis_centre(sz, frame.world_d, e - b);
#endif
    world_sizes ws = world_sizes_now();
    vec4 sums = vec4(0.0); // the angular momentum (x, y, z), sum of |r| |v|
    for (uint s = b + i; s < e; s += uint(BOIDS_WG_SIZE)) {
        vec4 pv = pos_vel_in[s];
        vec3 r = vec3(offset_to(ws, c.x, c.y, pv.xy), 0.0), v = vec3(pv.zw, 0.0);
#if BOIDS_DIMS == 3
        vec2 zv = pos_vel_z_in[s];
        r.z = offset_of(c.z, zv.x, ws.d, ws.half_d);
        v.z = zv.y;
#endif
        sums += vec4(cross(r, v), length(r) * length(v));
    }
    vec4 total = workgroup_sum(sums);
#if BOIDS_DIMS == 3
    return vec2(length(total.xyz), total.w);
#else
    return vec2(abs(total.z), total.w);
#endif
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
    float hz = 0.0; // a 3D world's headings' z
    for (uint k = b + i; k < e; k += uint(BOIDS_WG_SIZE)) {
        vec4 m = metric_slot[k];
        sum += m;
#if BOIDS_DIMS == 3
        hz += metric_slot_z[k];
#endif
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
    barrier(); // (workgroup_sum uses sh_sum again)
#if BOIDS_DIMS == 3
    hz = workgroup_sum(vec4(hz, 0.0, 0.0, 0.0)).x;
#endif
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
        out_sums.hz = hz;
        out_sums.reserved = 0.0;
        sums[r] = out_sums;
    }
}
