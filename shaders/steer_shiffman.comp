#version 430 core
// Steering and integration for the Shiffman models (shiffman-per-second, shiffman-processing,
// shiffman-noc). Reads step t sorted by cell, writes step t+1 into the same slots of the other
// buffer (synchronous update).
#include "steer_common.glsl"
#include "rules_shiffman.glsl"
