// The steering pass of a model whose rules take the Reynolds walk's sums (the manifest's models
// without BOIDS_FEATURE_OWN_WALK): the walk (walk_reynolds.glsl) with the radii the model's rules
// file gives (in a world of nearest:K, alignment and cohesion over the K nearest instead:
// nearest.glsl), then its rules, then the move. A generated gen/steer_<model>.comp includes
// steer_common.glsl, the model's rules/<rules>.h, and this file, with RULES_RADII and RULES_STEER
// naming the rules' <rules>_radii and <rules>_steer; the CPU does the same in
// BOIDS_CPU_REYNOLDS_RULES (src/cpu/lanes.h).
#include "walk_reynolds.glsl"

void main()
{
    uint s = BOIDS_ITEM_INDEX;
    if (s >= frame.count) return;
    vec4 me = pos_vel_in[s];
    vec2 mz = boid_depth_or_none(s);
    uint id = id_in[s];
    reynolds_sums m = walk_reynolds(s, me, mz, id, swarm_in[s], RULES_RADII());
#if BOIDS_NEAREST
    nearest_flock(me, mz, id, swarm_in[s], m); // alignment, cohesion
#endif
    rules_boid b = rules_boid_at(id, me, mz);
    store_boid(s, b, RULES_STEER(m, b));
}
