// A boid's K nearest neighbours (frame.nearest: topological neighbours), as src/cpu/nearest.h
// finds them: the cells in rings of growing Chebyshev radius around the boid's cell, until K are
// found and none nearer can lie beyond the rings searched, or the rings cover the grid. The list
// is ordered by squared distance, ties by id, so the K are the CPU's whatever the order of the
// cells; the sums over them are added in that order. The offsets are minimum-image ones
// (neighbour_at with the minimum image always), the CPU's. Included by steer_common.glsl.

struct nearest_list {
    uint n;
    float d2[BOIDS_MAX_NEAREST];
    uint id[BOIDS_MAX_NEAREST];
    uint slot[BOIDS_MAX_NEAREST];
};

bool nearest_before(float d2, uint id, float d2b, uint idb)
{
    return d2 < d2b || (d2 == d2b && id < idb);
}

void nearest_offer(inout nearest_list b, uint k, float d2, uint id, uint slot)
{
    if (b.n == k && !nearest_before(d2, id, b.d2[k - 1u], b.id[k - 1u])) return;
    uint i = b.n < k ? b.n++ : k - 1u;
    for (; i > 0u && nearest_before(d2, id, b.d2[i - 1u], b.id[i - 1u]); --i) {
        b.d2[i] = b.d2[i - 1u];
        b.id[i] = b.id[i - 1u];
        b.slot[i] = b.slot[i - 1u];
    }
    // a shift a driver cut short (llvmpipe's loop count) left the list wrong: say so
    if (i > 0u && nearest_before(d2, id, b.d2[i - 1u], b.id[i - 1u]))
        raise_status(BOIDS_STATUS_LOOP_LIMIT);
    b.d2[i] = d2;
    b.id[i] = id;
    b.slot[i] = slot;
}

// Ring r's block along an axis of n cells around cell c: offsets [lo, hi]; whether it spans the
// axis (boids_ring_axis()).
bool ring_axis(uint c, uint n, bool wrap, uint r, out int lo, out int hi)
{
    if (wrap) {
        uint below = (n - 1u) / 2u, above = n - 1u - below;
        lo = -int(min(r, below));
        hi = int(min(r, above));
        return 2u * r + 1u >= n;
    }
    lo = -int(min(r, c));
    hi = int(min(r, n - 1u - c));
    return lo == -int(c) && hi == int(n - 1u - c);
}

// The cell at offset o from cell c along an axis of n cells (wrapped; ring_axis keeps o within
// one turn, and within the axis in a box).
uint ring_cell(uint c, uint n, int o)
{
    int v = int(c) + o;
    return uint(v < 0 ? v + int(n) : v >= int(n) ? v - int(n) : v);
}

// How far x lies inside the block along the axis (boids_ring_margin()).
float ring_margin(float x, uint c, uint n, bool wrap, float cell, int lo, int hi, bool full)
{
    if (full) return 3.4e38;
    precise float m = 3.4e38;
    if (wrap || int(c) + lo > 0) m = min(m, x - float(int(c) + lo) * cell);
    if (wrap || int(c) + hi < int(n) - 1) m = min(m, float(int(c) + hi + 1) * cell - x);
    return m - 1e-3 * cell - 1e-6 * (float(n) * cell + abs(x));
}

// How far (me, mz) lies inside the block [lo, hi] of cells around its cell c, on every axis
// (ring_margin()).
float block_margin(vec4 me, vec2 mz, uvec3 c, uvec3 n, bool wrap, vec3 cell, ivec3 lo, ivec3 hi,
                   bvec3 full)
{
    float m = min(ring_margin(me.x, c.x, n.x, wrap, cell.x, lo.x, hi.x, full.x),
                  ring_margin(me.y, c.y, n.y, wrap, cell.y, lo.y, hi.y, full.y));
#if BOIDS_DIMS == 3
    m = min(m, ring_margin(mz.x, c.z, n.z, wrap, cell.z, lo.z, hi.z, full.z));
#endif
    return m;
}

// nearest_search()'s offers from cell ci to b, its candidates taken from the loop budget; false,
// with BOIDS_STATUS_LOOP_LIMIT raised, where the budget or a driver's loop count ran out.
bool nearest_in_cell(uint ci, vec4 me, vec2 mz, uint id, uint swarm, uint k, float min_d2,
                     bool view, float cos_view, world_sizes ws, inout uint budget,
                     inout nearest_list b)
{
    uint first = cell_start[ci], last = cell_start[ci + 1u];
    if (last - first + 1u > budget) {
        raise_status(BOIDS_STATUS_LOOP_LIMIT);
        return false;
    }
    budget -= last - first + 1u;
    lane_vec heading = VEC(me.z, me.w, mz.y);
    uint j = first;
    for (; j < last; ++j) {
        if (id_in[j] == id || swarm_at(j) != swarm) continue;
        lane_vec vo;
        lane_vec d = neighbour_at(ws, me, mz, j, false, vo);
        float d2 = length2(d);
        if (!(d2 > 0.0) || d2 < min_d2) continue;
        if (view && !in_view(heading, d, d2, cos_view)) continue;
        nearest_offer(b, k, d2, id_in[j], j);
    }
    if (j != last) { // cut short by a driver: the list may lack some
        raise_status(BOIDS_STATUS_LOOP_LIMIT);
        return false;
    }
    return true;
}

// The k nearest of the boid of slot s (me, mz as the walks have them; id, swarm) among the others
// of its replica and swarm at least min_d2 away and, where `view`, within the cone of half-angle
// cosine cos_view around its heading; sorted, in b (boids_cpu_nearest()). A search past the
// loop limit raises BOIDS_STATUS_LOOP_LIMIT, as the walks do. The rings are the grid's, around
// the boid's column (row, layer) g of n; the distances to them the world's cells', around its
// cell c of nf (g = c unless the grid is folded: boids_grid_dims' fine_w).
void nearest_search(vec4 me, vec2 mz, uint id, uint swarm, uint k, float min_d2, bool view,
                    float cos_view, out nearest_list b)
{
    b.n = 0u;
    bool wrap = world_wraps();
    // per axis as vectors, each axis by name (lavapipe fails to build the pipeline from the same
    // search written over local arrays)
    uvec3 n = uvec3(frame.grid_w, frame.grid_h, BOIDS_DIMS == 3 ? frame.grid_d : 1u);
    uvec3 nf = uvec3(frame.fine_w, frame.fine_h, BOIDS_DIMS == 3 ? frame.fine_d : 1u);
    uvec3 c = uvec3(fine_coord(me.x, frame.inv_cell_w, nf.x),
                    fine_coord(me.y, frame.inv_cell_h, nf.y), 0u);
    vec3 cell = vec3(1.0 / frame.inv_cell_w, 1.0 / frame.inv_cell_h, 0.0);
#if BOIDS_DIMS == 3
    if (n.z > 1u) {
        c.z = fine_coord(mz.x, frame.inv_cell_d, nf.z);
        cell.z = 1.0 / frame.inv_cell_d;
    }
#endif
    uvec3 g = uvec3(c.x < n.x ? c.x : c.x % n.x, c.y < n.y ? c.y : c.y % n.y,
                    c.z < n.z ? c.z : c.z % n.z);
    uint base = replica_of(id) * frame.cells_per_replica;
    world_sizes ws = world_sizes_now();
    uint budget = frame.loop_limit, visited = 0u;
    ivec3 plo = ivec3(0), phi = ivec3(0); // the block before (none at r = 0)
    for (uint r = 0u;; ++r) {
        ivec3 lo, hi;
        bvec3 full;
        full.x = ring_axis(g.x, n.x, wrap, r, lo.x, hi.x);
        full.y = ring_axis(g.y, n.y, wrap, r, lo.y, hi.y);
        full.z = ring_axis(g.z, n.z, wrap, r, lo.z, hi.z);
        // the ring's cells only (as the CPU): a layer, or a row, outside the block before is new
        // whole; in one inside it, the cells left and right of it. The layers inside it hold
        // none where the block grew along neither x nor y, its rows none where it did not grow
        // along x: each run of them is stepped over at once (stepping through them all cost
        // O(r^2) loop iterations a ring in a world long along z, past llvmpipe's count)
        bool grew_x = lo.x < plo.x || hi.x > phi.x;
        bool grew_xy = grew_x || lo.y < plo.y || hi.y > phi.y;
        for (int oz = lo.z; oz <= hi.z; ++oz) {
            bool z_in = r > 0u && oz >= plo.z && oz <= phi.z;
            if (z_in && !grew_xy) {
                oz = phi.z; // nothing new in the layers of the block before
                continue;
            }
            for (int oy = lo.y; oy <= hi.y; ++oy) {
                bool y_in = z_in && oy >= plo.y && oy <= phi.y;
                if (y_in && !grew_x) {
                    oy = phi.y; // nor in its rows
                    continue;
                }
                int skip_from = y_in ? plo.x : hi.x + 1, skip_to = y_in ? phi.x : 0;
                for (int ox = lo.x; ox <= hi.x; ++ox) {
                    if (ox == skip_from) {
                        ox = skip_to; // searched in an earlier ring
                        continue;
                    }
                    visited++;
                    uint ci = base +
                              (ring_cell(g.z, n.z, oz) * n.y + ring_cell(g.y, n.y, oy)) * n.x +
                              ring_cell(g.x, n.x, ox);
                    if (!nearest_in_cell(ci, me, mz, id, swarm, k, min_d2, view, cos_view, ws,
                                         budget, b))
                        return;
                }
            }
        }
        // a driver that cut a loop short (llvmpipe ends an invocation's loops past its own count
        // without a word) left cells out: the list may lack some, so say so
        if (visited != uint(hi.x - lo.x + 1) * uint(hi.y - lo.y + 1) * uint(hi.z - lo.z + 1)) {
            raise_status(BOIDS_STATUS_LOOP_LIMIT);
            return;
        }
        if (all(full)) return; // the whole grid
        if (b.n == k) {
            float m = block_margin(me, mz, c, nf, wrap, cell, lo, hi, full);
            if (m > 0.0 && b.d2[k - 1u] < m * m) return; // none nearer beyond
        }
        plo = lo;
        phi = hi;
    }
    raise_status(BOIDS_STATUS_LOOP_LIMIT); // only a driver that cut the loop short gets here
}

// A Reynolds walk's sums with alignment and cohesion over the boid's nearest instead: their
// velocities and the offsets to them, nearest first, and their count (boids_cpu_nearest_flock()).
void nearest_flock(vec4 me, vec2 mz, uint id, uint swarm, inout reynolds_sums m)
{
    nearest_list nb;
    nearest_search(me, mz, id, swarm, frame.nearest, 0.0, false, 0.0, nb);
    precise lane_vec ali = lane_vec(0.0), coh = lane_vec(0.0);
    world_sizes ws = world_sizes_now();
    uint i = 0u;
    for (; i < nb.n; ++i) {
        lane_vec vo;
        coh += neighbour_at(ws, me, mz, nb.slot[i], false, vo);
        ali += vo;
    }
    if (i != nb.n) raise_status(BOIDS_STATUS_LOOP_LIMIT); // cut short by a driver
    m.ali_x = ali.x;
    m.ali_y = ali.y;
    m.coh_x = coh.x;
    m.coh_y = coh.y;
#if BOIDS_DIMS == 3
    m.ali_z = ali.z;
    m.coh_z = coh.z;
#endif
    m.ali_n = nb.n;
    m.coh_n = nb.n;
}
