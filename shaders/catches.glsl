// The step's catches found (catch.comp), which catch_apply.comp and stop.comp then take in the
// order (predator, boid) within each replica, up to stop_after_catches: the head counts them.
layout(std430, binding = BOIDS_BIND_CATCHES) buffer Catches
{
    uint catch_count;
    uint catch_reserved[3];
    boids_catch catches[];
};

// The catches found this step, at most one per boid.
uint catches_found() { return min(catch_count, frame.count); }

// Whether catch a comes before catch b in a replica's order: by predator id, then boid id (the
// authors' code lets the predators catch one after another, in their order).
bool catch_before(boids_catch a, boids_catch b)
{
    return a.predator < b.predator || (a.predator == b.predator && a.boid < b.boid);
}
