/* The layouts of the public structs a binding mirrors field by field (Python's ctypes): each
 * struct's size and each field's offset, so the mirror is checked against the library it loads
 * rather than trusted. A field renamed or removed in boids.h fails to compile here. */
#include <stddef.h>
#include <string.h>

#include "base/error.h"
#include "boids.h"

/* X(type, field) for every field of every mirrored struct, in the header's order. */
/* clang-format off */
#define BOIDS_LAYOUT_FIELDS(X)                                                                     \
    X(boids_error, id) X(boids_error, status) X(boids_error, key) X(boids_error, related)          \
    X(boids_error, path) X(boids_error, line) X(boids_error, index) X(boids_error, detail)         \
    X(boids_error, message)                                                                        \
    X(boids_param_info, name) X(boids_param_info, block) X(boids_param_info, offset)               \
    X(boids_param_info, unit) X(boids_param_info, min) X(boids_param_info, max)                    \
    X(boids_param_info, ui_max) X(boids_param_info, flags) X(boids_param_info, block_default)      \
    X(boids_param_info, description)                                                               \
    X(boids_attribute_info, name) X(boids_attribute_info, is_uint)                                 \
    X(boids_attribute_info, offset) X(boids_attribute_info, min) X(boids_attribute_info, max)      \
    X(boids_attribute_info, description)                                                           \
    X(boids_world_info, model) X(boids_world_info, backend) X(boids_world_info, count)             \
    X(boids_world_info, swarms) X(boids_world_info, width) X(boids_world_info, height)             \
    X(boids_world_info, grid_w) X(boids_world_info, grid_h) X(boids_world_info, cell_w)            \
    X(boids_world_info, cell_h) X(boids_world_info, threads) X(boids_world_info, renderer)         \
    X(boids_world_info, steps) X(boids_world_info, replicas) X(boids_world_info, predators)        \
    X(boids_world_info, obstacles) X(boids_world_info, dt) X(boids_world_info, seed)               \
    X(boids_world_info, device) X(boids_world_info, dims) X(boids_world_info, depth)               \
    X(boids_world_info, grid_d) X(boids_world_info, cell_d) X(boids_world_info, fine_w)            \
    X(boids_world_info, fine_h) X(boids_world_info, fine_d) X(boids_world_info, params)            \
    X(boids_metrics, step) X(boids_metrics, alive) X(boids_metrics, groups)                        \
    X(boids_metrics, catches) X(boids_metrics, polarization) X(boids_metrics, mean_nn)             \
    X(boids_metrics, mean_speed) X(boids_metrics, min_speed) X(boids_metrics, max_speed)           \
    X(boids_metrics, milling)                                                                      \
    X(boids_event, kind) X(boids_event, step) X(boids_event, subject) X(boids_event, other)        \
    X(boids_event, value)                                                                          \
    X(boids_events, events) X(boids_events, count) X(boids_events, lost)                           \
    X(boids_predator, x) X(boids_predator, y) X(boids_predator, vx) X(boids_predator, vy)          \
    X(boids_predator, z) X(boids_predator, vz)                                                     \
    X(boids_model_load_info, first) X(boids_model_load_info, models)                               \
    X(boids_model_load_info, compiled) X(boids_model_load_info, seconds)                           \
    X(boids_model_load_info, object)                                                               \
    X(boids_profile, ms) X(boids_profile, samples) X(boids_profile, step_ms)                       \
    X(boids_profile, dispatches_per_step) X(boids_profile, barriers_per_step)                      \
    X(boids_profile, clears_per_step)                                                              \
    X(boids_field_options, r_max) X(boids_field_options, bins) X(boids_field_options, ranks)       \
    X(boids_field_options, margin) X(boids_field_options, flock) X(boids_field_options, xi_from)   \
    X(boids_field, step) X(boids_field, alive) X(boids_field, bins) X(boids_field, ranks)          \
    X(boids_field, n_c) X(boids_field, dr) X(boids_field, r_max) X(boids_field, xi)                \
    X(boids_field, xi_speed) X(boids_field, diameter) X(boids_field, pairs)                        \
    X(boids_field, c_velocity) X(boids_field, c_speed) X(boids_field, gamma)

/* X(type) for every mirrored struct. */
#define BOIDS_LAYOUT_TYPES(X)                                                                      \
    X(boids_error) X(boids_param_info) X(boids_attribute_info) X(boids_world_info)                 \
    X(boids_metrics) X(boids_event) X(boids_events) X(boids_predator) X(boids_profile)             \
    X(boids_field_options) X(boids_field) X(boids_model_load_info)
/* clang-format on */

static const struct {
    const char *type, *field;
    size_t at;
} layout[] = {
#define TYPE_ROW(type) {#type, NULL, sizeof(type)},
#define FIELD_ROW(type, field) {#type, #field, offsetof(type, field)},
    BOIDS_LAYOUT_TYPES(TYPE_ROW) BOIDS_LAYOUT_FIELDS(FIELD_ROW)
#undef TYPE_ROW
#undef FIELD_ROW
};

boids_status boids_type_layout(const char *type, const char *field, size_t *out)
{
    BOIDS_REQUIRE(type, "type");
    BOIDS_REQUIRE(out, "out");
    bool known = false;
    for (size_t i = 0; i < sizeof layout / sizeof layout[0]; ++i) {
        if (strcmp(layout[i].type, type) != 0) continue;
        known = true;
        if (field ? layout[i].field && !strcmp(layout[i].field, field) : !layout[i].field) {
            *out = layout[i].at;
            return BOIDS_OK;
        }
    }
    return known
               ? boids_fail_key(BOIDS_E_ARGUMENT, "field", "%s has no field %s", type, field)
               : boids_fail_key(BOIDS_E_ARGUMENT, "type",
                                "%s is not a struct a binding mirrors (boids_metrics, ...)", type);
}
