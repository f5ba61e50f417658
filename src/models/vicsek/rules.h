/* vicsek (docs/models.md (vicsek)): Vicsek, Czirok, Ben-Jacob, Cohen & Shochet 1995, "Novel type
 * of phase transition in a system of self-driven particles" (Phys. Rev. Lett. 75, 1226), one step
 * a frame (dt = 1). One source for both backends (rules/lang.h).
 *
 *   s_i = v_i + sum of v_j over the particles within r      itself included; n_i = their count
 *   angular noise (the paper's, vectorial = 0; eta above 2 pi is 2 pi, uniform all round):
 *     flat: theta_i(t+1) = angle of s_i + xi, xi uniform in [-eta/2, eta/2)
 *     3D:   a direction uniform on the cap of solid angle 2 eta around s_i (eta = 2 pi: the
 *           whole sphere), as Chate, Ginelli, Gregoire & Raynaud 2008 (PRE 77, 046113) turn
 *           the heading in three dimensions (their eta is ours / 2 pi)
 *   vectorial noise (Gregoire & Chate 2004, PRL 92, 025702; vectorial = 1):
 *     v_i(t+1) = v Theta[s_i / v + eta n_i xi_i], xi_i a random unit vector (Theta: normalised)
 *   v_i(t+1) has length v = max_speed; x_i(t+1) = x_i(t) + v_i(t+1) dt, through the edges
 *
 * Choices (the paper is silent): the mean heading is the direction of the sum of the velocities,
 * which all have length v, so it is the paper's mean of (cos, sin); a particle's own heading
 * counts once, and another particle at exactly its position not at all (as in every walk here);
 * where the sum is exactly zero the angular noise turns the particle's own heading, and one at
 * rest heads along +x. The position moves with the new velocity (eq. 1's v_i(t) is, as we read
 * the paper's words after it, the velocity whose direction is theta(t+1)). The external forces
 * (obstacles, the mouse tool) turn the heading: v Theta[v_i(t+1) + e dt]. Draw 0 (and 1 in 3D, or
 * for the vectorial noise's direction) of noise() is the turn. */
#ifndef BOIDS_RULES_VICSEK_H
#define BOIDS_RULES_VICSEK_H

#include "rules/common.h"

/* The walk gathers the alignment sums within r only (the velocities and their count). */
RULES_FN reynolds_radii vicsek_radii(RULES_CTX_ONLY)
{
    return reynolds_radii_of(0.0f, UNIFORM(vicsek.radius), 0.0f, false);
}

RULES_FN rules_boid vicsek_steer(RULES_CTX reynolds_sums m, rules_boid b)
{
    lane_f v0 = PARAM(base.max_speed);
    float eta = UNIFORM(vicsek.eta);
    lane_vec v = boid_velocity(b);
    lane_vec s = vadd(VEC(m.ali_x, m.ali_y, m.ali_z), v); /* itself included */
    /* the way it heads without noise: the sum's, else its own, else +x */
    lane_vec way = vselect(nonzero(s), s,
                           vselect(nonzero(v), v, VEC(LANE_F(1.0f), LANE_F(0.0f), LANE_F(0.0f))));
    lane_vec nv;
    if (UNIFORM(vicsek.vectorial) != 0.0f) {
        /* v Theta[s + eta n v xi]: s's terms have length v, so this is Theta[s / v + eta n xi]
         * (s itself, not `way`: a sum that cancels leaves the noise alone) */
        lane_f k = LANE_F(eta) * LANE_TO_F(m.ali_n + 1u) * v0;
        lane_vec xi = random_unit(RULES_PASS b.id);
        lane_vec t = VEC(MAD(k, xi.x, s.x), MAD(k, xi.y, s.y), MAD(k, xi.z, s.z));
        nv = set_length(vselect(nonzero(t), t, way), v0);
    } else {
        /* eta above 2 pi is taken as 2 pi, uniform all round (our choice: the paper's eta stays
         * below it; a wrapped uniform wider than the circle would not be uniform) */
        float width = eta < 6.28318531f ? eta : 6.28318531f;
        lane_vec u = set_length(way, LANE_F(1.0f));
        lane_f r0 = noise(RULES_PASS b.id, LANE_U(0u));
#if BOIDS_DIMS == 3
        /* cos of the polar angle uniform in [1 - eta / pi, 1]: the cap's solid angle is 2 eta */
        lane_f ct = MAD(r0, LANE_F(-width * 0.318309886f), LANE_F(1.0f));
        lane_f phi = MAD(noise(RULES_PASS b.id, LANE_U(1u)), LANE_F(360.0f), LANE_F(-180.0f));
        lane_vec t = turned(u, ct, phi);
#else
        lane_f xi = (r0 - 0.5f) * LANE_F(width * 57.2957795f);
        lane_vec t = turned(u, xi);
#endif
        nv = VEC(t.x * v0, t.y * v0, t.z * v0);
    }
    return with_velocity(b, external_turn(RULES_PASS nv, boid_external(b), v0));
}

#endif
