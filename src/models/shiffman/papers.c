/* The Shiffman models' papers' numbers (docs/shiffman-per-second-model.md), measured by
 * simulation:
 *   - turn time to reverse direction under maximal alignment steering (§6.5): 133 frames for
 *     shiffman-processing, 120 for shiffman-noc, 2.0 s for shiffman-per-second. §6 defines
 *     T_180 = 2 v_max / F_eff with the steering at its maximum; we measure F_eff as the velocity's
 *     change over the first step of a head-on turn (where the steering is at its maximum) and,
 *     where the maximum holds for the whole turn (the frame-based models), also the full reversal
 *     step by step;
 *   - frame-rate independence (§5): shiffman-per-second has the same real speed and turn time at
 *     dt = 1/30, 1/60 and 1/144; a frame-based model's real speed scales with the frame rate;
 *   - separation scaling (§4): a neighbour's push falls as 1/d.
 * All hold in the plane of a 3D world too, as they do in the flat world: issue 30's proof that
 * the third dimension leaves them alone. And the paper's parameter table (§3.6). */
#include <stdio.h>

#include "models/paper.h"

/* The turn time T_180 at `fps` steps per second: in frames for a frame-based model, in seconds
 * for a per-second one. */
static double turn_time(boids_model m, const boids_paper_run *run, double fps)
{
    const float dt = 1.0f / (float)fps;
    double full, steps = boids_paper_turn_steps(run, m, boids_model_default_params(m), dt, &full);
    return boids_model_time_base(m) == BOIDS_TIME_PER_SECOND ? steps * dt : steps;
}

/* The frame-based models steer at f_max all the way round: the whole turn takes T_180, counted
 * frame by frame. (shiffman-per-second's per-behaviour clamp, 180 px/s^2 against a velocity
 * error in px/s, stops binding half way; from there the turn slows: README, "Models".) */
static double full_reversal(boids_model m, const boids_paper_run *run, double fps)
{
    double full;
    boids_paper_turn_steps(run, m, boids_model_default_params(m), 1.0f / (float)fps, &full);
    return full;
}

/* shiffman-per-second's full reversal in seconds at `fps` over the one at 30 fps: the same real
 * time at every rate, though it is not T_180. */
static double full_reversal_vs_30(boids_model m, const boids_paper_run *run, double fps)
{
    const double at = full_reversal(m, run, fps) * (double)(1.0f / (float)fps);
    const double at_30 = full_reversal(m, run, 30) * (double)(1.0f / 30.0f);
    printf("    full reversal %.3f s at %.0f fps, %.3f s at 30 fps\n", at, fps, at_30);
    return at / at_30;
}

/* The px a lone boid flies in one real second (fps steps of 1/fps), starting at v_max along x. */
static double lone_second(boids_model m, const boids_paper_run *run, double fps)
{
    const boids_params p = boids_model_default_params(m);
    boids_boid lone = boids_paper_boid(100, 100, p.base.max_speed, 0, 0);
    if (!boids_paper_steps(run, m, &p, 1000, 1000, 1.0f / (float)fps, &lone, 1, (uint32_t)fps))
        return NAN;
    return lone.x - 100.0;
}

/* A frame-based model: one step per frame whatever dt says, so a second of real time at 60 fps
 * covers twice the ground of a second at 30 fps. */
static double ratio_60_30(boids_model m, const boids_paper_run *run, double at)
{
    (void)at;
    const double d30 = lone_second(m, run, 30), d60 = lone_second(m, run, 60);
    printf("    %.0f px/s at 30 fps, %.0f px/s at 60 fps\n", d30, d60);
    return d60 / d30;
}

/* Each neighbour adds a unit vector / d. One neighbour at 10 px to the right balances two at
 * 20 px to the left (1/10 = 2/20) and the boid flies on: vx stays 0; with weights growing with d
 * (Adams) or equal ones it would be pushed right. Neighbours of the other swarm: separation
 * alone. */
static double balance(boids_model m, const boids_paper_run *run, double at)
{
    (void)at;
    const boids_params p = boids_model_default_params(m);
    boids_boid b[4] = {
        boids_paper_boid(200, 200, 0, 1.5f, 0), boids_paper_boid(210, 200, 0, 1.5f, 1),
        boids_paper_boid(180, 200, 0, 1.5f, 1), boids_paper_boid(180, 200, 0, 1.5f, 1)};
    return boids_paper_steps(run, m, &p, 400, 400, 1, b, 4, 1) ? b[0].vx : NAN;
}

#define T180 "T_180 under maximal alignment (shiffman-per-second-model.md §6.5)"
#define FULL "full reversal, step by step (§6: f_max all the way round)"

static const boids_paper_case processing[] = {
    {T180, "frames", 133.3, 0.02 * 133.3, 60, true, false, turn_time},
    {FULL, "frames", 133.3, 0.02 * 133.3 + 1, 60, true, false, full_reversal},
    {"distance in a second at 60 fps over one at 30 fps (§5: one step a frame)", "", 2, 1e-3, 0,
     true, false, ratio_60_30},
    {"vx, 1 neighbour at 10 px against 2 at 20 px (§4: unit vectors / d balance)", "px/frame", 0, 0,
     0, true, false, balance},
};
static const boids_paper_case noc[] = {
    {T180, "frames", 120, 0.02 * 120, 60, true, false, turn_time},
    {FULL, "frames", 120, 0.02 * 120 + 1, 60, true, false, full_reversal},
};
/* shiffman-per-second at 30, 60 and 144 steps per second (§5): the same real speed (a lone boid
 * flies 180 px in one second), the same turn time in seconds, the same full reversal. */
static const boids_paper_case per_second[] = {
    {"speed at 30 fps (§5)", "px/s", 180, 0.02 * 180, 30, true, false, lone_second},
    {"speed at 60 fps (§5)", "px/s", 180, 0.02 * 180, 60, true, false, lone_second},
    {"speed at 144 fps (§5)", "px/s", 180, 0.02 * 180, 144, true, false, lone_second},
    {T180 " at 30 fps", "s", 2.0, 0.02 * 2.0, 30, true, false, turn_time},
    {T180 " at 60 fps", "s", 2.0, 0.02 * 2.0, 60, true, false, turn_time},
    {T180 " at 144 fps", "s", 2.0, 0.02 * 2.0, 144, true, false, turn_time},
    {"full reversal at 60 fps over the one at 30 fps (§5)", "", 1, 0.02, 60, true, false,
     full_reversal_vs_30},
    {"full reversal at 144 fps over the one at 30 fps (§5)", "", 1, 0.02, 144, true, false,
     full_reversal_vs_30},
};

/* §3.6's nine values (docs/models.md (shiffman-per-second)); its rows are those nine, edges,
 * border_r and the obstacles' four. */
static const boids_paper_value per_second_values[] = {
    {"max_speed", 180, "px/s"}, {"max_force", 180, "px/s^2"}, {"min_speed", 54, "px/s"},
    {"sep_radius", 25, "px"},   {"align_radius", 50, "px"},   {"cohesion_radius", 50, "px"},
    {"sep_weight", 1.5, ""},    {"align_weight", 1, ""},      {"cohesion_weight", 1, ""},
};
/* The frame-based model's force is per frame^2 (table 2.7). */
static const boids_paper_value noc_values[] = {{"max_force", 0.05, "px/frame^2"}};

#define COUNT(a) (uint32_t)(sizeof(a) / sizeof(a)[0])
const boids_papers boids_papers_SHIFFMAN_PER_SECOND = {
    per_second, COUNT(per_second), per_second_values, COUNT(per_second_values), 15};
const boids_papers boids_papers_SHIFFMAN_PROCESSING = {processing, COUNT(processing), NULL, 0, 0};
const boids_papers boids_papers_SHIFFMAN_NOC = {noc, COUNT(noc), noc_values, COUNT(noc_values), 0};
