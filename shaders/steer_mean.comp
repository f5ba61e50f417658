#version 430 core
// Steering and integration for mean allocation.
#define BOIDS_PRIORITY 0
#include "steer_common.glsl"
#include "rules_allocation.glsl"
