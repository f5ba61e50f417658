#version 430 core
// Steering and integration for hybrid.
#include "steer_common.glsl"
#include "rules_hybrid.glsl"
