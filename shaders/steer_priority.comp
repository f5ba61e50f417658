#version 430 core
// Steering and integration for priority allocation.
#define BOIDS_PRIORITY 1
#include "steer_common.glsl"
#include "rules_allocation.glsl"
