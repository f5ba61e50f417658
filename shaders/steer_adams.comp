#version 430 core
// Steering and integration for adams (frame-based).
#include "steer_common.glsl"
#include "rules_adams.glsl"
