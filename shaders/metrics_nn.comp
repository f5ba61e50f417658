#version 430 core
// Metrics pass 1 (boids_world_metrics), over the living boids as the metrics' own sort placed
// them (the current state; stopped replicas keep their cells): each boid's distance to the
// nearest other living boid of its replica, its speed and unit heading; and the start of the
// union-find of the groups, every boid its own root. The nearest neighbour is searched in rings
// of cells outwards (minimum image on a torus) until a ring lies farther than the best found,
// as boids_metric_sums_compute() does on the CPU.
#include "neighbors.glsl"

layout(local_size_x = BOIDS_WG_SIZE) in;

layout(std430, binding = BOIDS_BIND_METRIC_SLOT) writeonly buffer MetricSlot
{
    vec4 metric_slot[];
};
layout(std430, binding = BOIDS_BIND_METRIC_PARENT) writeonly buffer MetricParent { uint parent[]; };

void main()
{
    uint s = BOIDS_ITEM_INDEX;
    if (s >= cell_start[graveyard()]) return; // the living come first; the dead are not counted
    vec4 me = pos_vel_in[s];
    uint base = replica_of(id_in[s]) * frame.cells_per_replica, cx, cy;
    block_cell(me.x, me.y, cx, cy);
    int w = int(frame.grid_w), h = int(frame.grid_h), max_ring = max(w, h) / 2 + 1;
    float cmin = min(frame.world_w / float(frame.grid_w), frame.world_h / float(frame.grid_h));
    float best2 = uintBitsToFloat(0x7f800000u); // +infinity
    bool wrap = world_wraps();
    world_sizes ws = world_sizes_now();
    // A driver that caps the loop iterations of an invocation (llvmpipe: its SIMD lanes share
    // one count, so no count kept here can match it) ends loops early without a word; every loop
    // below is therefore checked to have ended on its own condition, and one that did not
    // raises the loop limit: a refused metric, never a wrong one.
    bool cut = false, searched = false;
    int ring = 0;
    for (; ring <= max_ring; ++ring) {
        // every boid of ring r is at least (r - 1) cells away
        float reach = float(ring - 1) * cmin;
        if (ring > 0 && reach > 0.0 && reach * reach > best2) {
            searched = true;
            break;
        }
        int dy = -ring;
        for (; dy <= ring; ++dy) {
            int stride = (dy == -ring || dy == ring) ? 1 : 2 * ring; // inner rows: the two ends
            int dx = -ring;
            for (; dx <= ring; dx += stride) {
                int x = int(cx) + dx, y = int(cy) + dy;
                if (!wrap && (x < 0 || y < 0 || x >= w || y >= h)) continue;
                // (GLSL leaves % of a negative number undefined); a ring wider than the grid
                // revisits cells: harmless for a minimum
                x = x - w * int(floor(float(x) / float(w)));
                y = y - h * int(floor(float(y) / float(h)));
                uint c = base + uint(y * w + x), b = cell_start[c], e = cell_start[c + 1u];
                uint k = b;
                for (; k < e; ++k) {
                    if (k == s) continue;
                    vec2 d = offset_to(ws, me.x, me.y, pos_vel_in[k].xy);
                    best2 = min(best2, length2(d));
                }
                cut = cut || k < e;
            }
            cut = cut || dx <= ring;
        }
        cut = cut || dy <= ring;
    }
    if (cut || (!searched && ring <= max_ring)) raise_status(BOIDS_STATUS_LOOP_LIMIT);
    float speed = square_root(length2(me.zw));
    // alone: no neighbour
    float nn = best2 < uintBitsToFloat(0x7f800000u) ? square_root(best2) : 0.0;
    metric_slot[s] = speed > 0.0
                         ? vec4(nn, speed, quotient(me.z, speed), quotient(me.w, speed))
                         : vec4(nn, 0.0, 0.0, 0.0);
    parent[s] = s;
}
