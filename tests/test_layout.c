/* The lists the house is built from hold together, and the layout the C side assumes for what it
 * shares with the shaders is the one the GL compiler gives:
 *   - the manifest: names unique and found by name, every preset applies, every model has its
 *     generated steering program embedded, its blocks' parameters are unique by name, and one of
 *     them is its group radius;
 *   - the parameter rows: defaults within their ranges, every row of every block at the offset
 *     the GLSL compiler gives frame.params.<block>.<name> (glGetProgramResourceiv);
 *   - the attribute schema: members after swarm, ranges holding their defaults;
 *   - the hot state buffers, the report buffer's events and the per-step uniform block. */
#include <stddef.h>

#include "boids_shared.h"
#include "core/attributes.h"
#include "core/models.h"
#include "gl/program.h"
#include "gl/shader_sources.h"
#include "test.h"

typedef struct field {
    const char *name;
    size_t offset;
} field;

static GLint resource_offset(GLuint prog, GLenum iface, const char *name, GLint *stride)
{
    GLuint idx = glGetProgramResourceIndex(prog, iface, name);
    if (idx == GL_INVALID_INDEX) return -1;
    /* The stride of an array of scalars or vectors is its ARRAY_STRIDE, of an array of structs
     * its TOP_LEVEL_ARRAY_STRIDE. */
    GLenum props[3] = {GL_OFFSET, GL_ARRAY_STRIDE,
                       iface == GL_BUFFER_VARIABLE ? GL_TOP_LEVEL_ARRAY_STRIDE : GL_OFFSET};
    GLint vals[3] = {-1, -1, -1};
    glGetProgramResourceiv(prog, iface, idx, 3, props, 3, NULL, vals);
    if (stride) *stride = vals[1] > 0 ? vals[1] : vals[2];
    return vals[0];
}

static void test_manifest(void)
{
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
        const char *name = boids_model_name((boids_model)m);
        boids_model back;
        CHECK_MSG(name && boids_model_from_name(name, &back) == BOIDS_OK && back == (boids_model)m,
                  "model %d: name '%s' does not find it", m, name ? name : "(null)");
        for (int o = 0; o < m; ++o) CHECK(strcmp(name, boids_model_name((boids_model)o)) != 0);
        boids_params p = boids_block_defaults();
        CHECK_MSG(boids_model_apply_preset((boids_model)m, &p) == BOIDS_OK, "%s: preset '%s': %s",
                  name, boids_model_preset_text((boids_model)m), boids_last_error());
        CHECK_MSG(boids_params_validate((boids_model)m, &p) == BOIDS_OK, "%s: preset invalid: %s",
                  name, boids_last_error());
        char steer[128];
        snprintf(steer, sizeof steer, "steer_%s.comp", name);
        CHECK_MSG(boids_shader_find(steer) != NULL, "%s: %s was not generated and embedded", name,
                  steer);
        CHECK(boids_model_blocks((boids_model)m) & BOIDS_BLOCK_BIT(BASE));
        CHECK((boids_model_attributes((boids_model)m) >> BOIDS_ATTR_COUNT) == 0);
        size_t n;
        const boids_param_info *info = boids_model_params((boids_model)m, &n);
        CHECK(n > 0);
        /* the metrics' groups link boids within exactly one of them: a radius, or a zone (the
         * zones' outer radius) */
        int group_radii = 0;
        for (size_t i = 0; i < n; ++i) {
            const unsigned f = info[i].flags;
            group_radii +=
                (f & BOIDS_PARAM_GROUPS) && (f & (BOIDS_PARAM_RADIUS | BOIDS_PARAM_ZONE));
            CHECK_MSG(!(f & BOIDS_PARAM_GROUPS) || (f & (BOIDS_PARAM_RADIUS | BOIDS_PARAM_ZONE)),
                      "%s: %s links groups and is neither a radius nor a zone", name, info[i].name);
            for (size_t j = i + 1; j < n; ++j)
                CHECK_MSG(strcmp(info[i].name, info[j].name) != 0, "%s: two parameters named %s",
                          name, info[i].name);
        }
        CHECK_MSG(group_radii == 1, "%s: %d parameters link groups, not one", name, group_radii);
        CHECK(boids_model_group_radius((boids_model)m, &p) > 0);
    }
    boids_model m;
    CHECK(boids_model_from_name("reynolds", &m) == BOIDS_ERR_INVALID);
    CHECK(boids_last_error_info()->id == BOIDS_E_MODEL_UNKNOWN);
}

static void test_param_rows(void)
{
    /* Every row: its default within its range, a whole number where it must be, a unit resolved
     * for the model's time base (no "T" left). */
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
        size_t n;
        const boids_param_info *info = boids_model_params((boids_model)m, &n);
        for (size_t i = 0; i < n; ++i) {
            const boids_param_info *r = &info[i];
            CHECK_MSG(r->block_default >= r->min && r->block_default <= r->max,
                      "%s: default %g outside [%g, %g]", r->name, (double)r->block_default,
                      (double)r->min, (double)r->max);
            CHECK_MSG(!(r->flags & BOIDS_PARAM_INTEGER) ||
                          r->block_default == floorf(r->block_default),
                      "%s", r->name);
            CHECK_MSG(strchr(r->unit, 'T') == NULL, "%s: unit %s", r->name, r->unit);
            CHECK_MSG(r->ui_max > 0, "%s: no slider range", r->name);
        }
    }
    /* docs/models.md (shiffman-per-second) */
    size_t n;
    const boids_param_info *info = boids_model_params(BOIDS_MODEL_SHIFFMAN_PER_SECOND, &n);
    CHECK(n == 15); /* §3.6's nine, edges, border_r and the obstacles' four */
    boids_params p = boids_model_default_params(BOIDS_MODEL_SHIFFMAN_PER_SECOND);
    CHECK(p.base.max_speed == 180 && p.reynolds.max_force == 180 && p.base.min_speed == 54);
    CHECK(p.reynolds.sep_radius == 25 && p.reynolds.align_radius == 50 &&
          p.reynolds.cohesion_radius == 50);
    CHECK(p.reynolds.sep_weight == 1.5f && p.reynolds.align_weight == 1 &&
          p.reynolds.cohesion_weight == 1);
    CHECK(strcmp(boids_model_param(BOIDS_MODEL_SHIFFMAN_PER_SECOND, "max_force")->unit, "px/s^2") ==
          0);
    CHECK(strcmp(boids_model_param(BOIDS_MODEL_SHIFFMAN_NOC, "max_force")->unit, "px/frame^2") ==
          0);
    (void)info;

    /* Set by name: the field changes, nothing else does; errors carry their id and key. */
    boids_params q = p;
    CHECK(boids_params_set(BOIDS_MODEL_SHIFFMAN_PER_SECOND, &q, "align_weight", "0.25") ==
          BOIDS_OK);
    CHECK(q.reynolds.align_weight == 0.25f);
    q.reynolds.align_weight = p.reynolds.align_weight;
    CHECK(memcmp(&p, &q, sizeof p) == 0);
    CHECK(boids_params_set(BOIDS_MODEL_SHIFFMAN_PER_SECOND, &q, "max_speed", "1000000.1") ==
          BOIDS_ERR_INVALID);
    CHECK(boids_last_error_info()->id == BOIDS_E_PARAM_RANGE &&
          strcmp(boids_last_error_info()->key, "max_speed") == 0);
    CHECK_MSG(strstr(boids_last_error(), "1000000.1 is outside [0, 1000000] px/s") != NULL, "%s",
              boids_last_error());
    CHECK(boids_params_set(BOIDS_MODEL_SHIFFMAN_PER_SECOND, &q, "max_speed", "12x") ==
          BOIDS_ERR_INVALID);
    CHECK(boids_last_error_info()->id == BOIDS_E_PARAM_NOT_NUMBER);
    CHECK(boids_params_set(BOIDS_MODEL_SHIFFMAN_PER_SECOND, &q, "max_speed", "inf") ==
          BOIDS_ERR_INVALID);
    CHECK(boids_params_set(BOIDS_MODEL_SHIFFMAN_PER_SECOND, &q, "warp", "1") == BOIDS_ERR_INVALID);
    CHECK(boids_last_error_info()->id == BOIDS_E_PARAM_UNKNOWN &&
          strcmp(boids_last_error_info()->key, "warp") == 0);
    /* No aliases: Adams' names are Adams' own, and other models do not take them. */
    CHECK(boids_params_set(BOIDS_MODEL_SHIFFMAN_PER_SECOND, &q, "protected_range", "5") ==
          BOIDS_ERR_INVALID);
    CHECK(boids_params_set(BOIDS_MODEL_ADAMS, &q, "sep_radius", "5") == BOIDS_ERR_INVALID);
    CHECK(memcmp(&p, &q, sizeof p) == 0); /* failed sets change nothing */
    CHECK(boids_params_set(BOIDS_MODEL_ADAMS, &q, "protected_range", "5") == BOIDS_OK &&
          q.adams.protected_range == 5);
    CHECK(boids_params_set(BOIDS_MODEL_ADAMS, &q, "edges", "processing") == BOIDS_OK &&
          q.base.edges == 2);
    CHECK(boids_params_set(BOIDS_MODEL_ADAMS, &q, "dynamic_bias", "0.5") == BOIDS_ERR_INVALID);
    CHECK(boids_last_error_info()->id == BOIDS_E_PARAM_NOT_WHOLE);
    CHECK(boids_params_max_radius(BOIDS_MODEL_SHIFFMAN_PER_SECOND, &p, false) == 50);
}

static void test_attribute_schema(void)
{
    boids_params p = boids_model_default_params(BOIDS_MODEL_ADAMS);
    for (int a = 0; a < BOIDS_ATTR_COUNT; ++a) {
        const boids_attribute_info *ai = boids_attribute_info_of((boids_attribute)a);
        CHECK(ai->offset >= offsetof(boids_boid, swarm) + sizeof(uint32_t));
        CHECK(ai->offset + 4 <= sizeof(boids_boid));
        float d = boids_attribute_default((boids_attribute)a, &p);
        CHECK_MSG(d >= ai->min && d <= ai->max, "%s: default %g outside its range", ai->name,
                  (double)d);
        for (int b = 0; b < a; ++b)
            CHECK(strcmp(ai->name, boids_attribute_info_of((boids_attribute)b)->name) != 0);
        /* the stored word round-trips */
        boids_boid x;
        memset(&x, 0, sizeof x);
        boids_boid_set_attr_bits(&x, (boids_attribute)a,
                                 boids_attribute_default_bits((boids_attribute)a, &p));
        CHECK(boids_boid_attr_value(&x, (boids_attribute)a) == (double)d);
    }
    CHECK(boids_model_attributes(BOIDS_MODEL_ADAMS) == BOIDS_ATTR_BIT(BIAS));
    CHECK(boids_model_attributes(BOIDS_MODEL_SHIFFMAN_PER_SECOND) == 0);
}

static void test_state_buffers_layout(void)
{
    test_gpu_context();
    GLuint prog;
    REQUIRE_OK(boids_program_compute("reorder.comp", 2, &prog)); /* moves all the hot data */
    const struct {
        const char *name;
        GLint stride;
    } arrays[] = {{"pos_vel_in[0]", 16},  {"swarm_in[0]", 4},  {"id_in[0]", 4},
                  {"pos_vel_out[0]", 16}, {"swarm_out[0]", 4}, {"id_out[0]", 4}};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i) {
        GLint stride = -1;
        GLint off = resource_offset(prog, GL_BUFFER_VARIABLE, arrays[i].name, &stride);
        CHECK_MSG(off == 0 && stride == arrays[i].stride, "%s: offset %d, stride %d",
                  arrays[i].name, off, stride);
    }
    glDeleteProgram(prog);
}

static void test_report_layout(void)
{
    test_gpu_context();
    char steer[128];
    snprintf(steer, sizeof steer, "steer_%s.comp", boids_model_name(BOIDS_MODEL_ADAMS));
    GLuint prog;
    REQUIRE_OK(boids_program_compute(steer, 2, &prog));
    const field fields[] = {
        {"report.status", offsetof(boids_gpu_report, status)},
        {"report.event_count", offsetof(boids_gpu_report, event_count)},
        {"report_events[0].kind", sizeof(boids_gpu_report) + offsetof(boids_event, kind)},
        {"report_events[0].step", sizeof(boids_gpu_report) + offsetof(boids_event, step)},
        {"report_events[0].subject", sizeof(boids_gpu_report) + offsetof(boids_event, subject)},
        {"report_events[0].other", sizeof(boids_gpu_report) + offsetof(boids_event, other)},
        {"report_events[0].value[0]", sizeof(boids_gpu_report) + offsetof(boids_event, value)},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i) {
        GLint stride = -1;
        GLint off = resource_offset(prog, GL_BUFFER_VARIABLE, fields[i].name, &stride);
        CHECK_MSG(off == (GLint)fields[i].offset, "%s at %d, C says %zu", fields[i].name, off,
                  fields[i].offset);
        if (strcmp(fields[i].name, "report_events[0].kind") == 0)
            CHECK_MSG(stride == (GLint)sizeof(boids_event), "%s: stride %d", fields[i].name,
                      stride);
    }
    GLint stride = -1;
    CHECK(resource_offset(prog, GL_BUFFER_VARIABLE, "attr_words[0]", &stride) == 0 && stride == 4);
    glDeleteProgram(prog);
}

static void test_frame_ubo_layout(void)
{
    test_gpu_context();
    GLuint prog;
    char steer[128];
    snprintf(steer, sizeof steer, "steer_%s.comp",
             boids_model_name(BOIDS_MODEL_SHIFFMAN_PER_SECOND));
    REQUIRE_OK(boids_program_compute(steer, 2, &prog));
#define F(name)                                                                                    \
    {                                                                                              \
        "frame." #name, offsetof(boids_gpu_frame, name)                                            \
    }
    const field fields[] = {
        F(world_w),
        F(world_h),
        F(half_w),
        F(half_h),
        F(inv_cell_w),
        F(inv_cell_h),
        F(dt),
        F(count),
        F(grid_w),
        F(grid_h),
        F(swarms),
        F(loop_limit),
        F(event_mask),
        F(event_capacity),
        {"frame.attr_base[0]", offsetof(boids_gpu_frame, attr_base)},
        F(tool.x),
        F(tool.y),
        F(tool.radius),
        F(tool.strength),
        F(tool.kind),
    };
#undef F
    int found = 0, checked = 0;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i) {
        GLint off = resource_offset(prog, GL_UNIFORM, fields[i].name, NULL);
        CHECK_MSG(off == (GLint)fields[i].offset, "%s at %d, C says %zu", fields[i].name, off,
                  fields[i].offset);
        found += off >= 0;
        ++checked;
    }
    /* Every parameter row of every model's blocks, by the name the tables give it. */
    static const char *const block_names[BOIDS_BLOCK_COUNT] = {
#define BOIDS_X_BLOCK_NAME(ID, field, rows) [BOIDS_BLOCK_##ID] = #field,
        BOIDS_PARAM_BLOCK_LIST(BOIDS_X_BLOCK_NAME)
#undef BOIDS_X_BLOCK_NAME
    };
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
        size_t n;
        const boids_param_info *info = boids_model_params((boids_model)m, &n);
        for (size_t i = 0; i < n; ++i) {
            char name[128];
            snprintf(name, sizeof name, "frame.params.%s.%s", block_names[info[i].block],
                     info[i].name);
            GLint off = resource_offset(prog, GL_UNIFORM, name, NULL);
            size_t want = offsetof(boids_gpu_frame, params) + info[i].offset;
            CHECK_MSG(off == (GLint)want, "%s at %d, C says %zu", name, off, want);
            found += off >= 0;
            ++checked;
        }
    }
    /* The block's size as the compiler sees it. */
    GLuint block = glGetProgramResourceIndex(prog, GL_UNIFORM_BLOCK, "Frame");
    GLenum prop = GL_BUFFER_DATA_SIZE;
    GLint size = -1;
    if (block != GL_INVALID_INDEX)
        glGetProgramResourceiv(prog, GL_UNIFORM_BLOCK, block, 1, &prop, 1, NULL, &size);
    CHECK_MSG(size == (GLint)sizeof(boids_gpu_frame), "Frame block is %d bytes, C says %zu", size,
              sizeof(boids_gpu_frame));
    printf("  %d of %d frame fields and parameter rows found at their C offsets, block %d bytes\n",
           found, checked, size);
    glDeleteProgram(prog);
}

static void test_default_world_size(void)
{
    /* 16:9 at one boid per 1000 px^2. */
    float w, h;
    boids_default_world_size(100000, &w, &h);
    CHECK(fabs(w * h / 100000.0 - 1000.0) < 2.0);
    CHECK(fabs(w / h - 16.0 / 9.0) < 1e-3);
    boids_default_world_size(0, &w, &h);
    CHECK(w >= 1 && h >= 1);
}

TEST_MAIN(TEST(test_manifest), TEST(test_param_rows), TEST(test_attribute_schema),
          TEST(test_default_world_size), TEST(test_state_buffers_layout), TEST(test_report_layout),
          TEST(test_frame_ubo_layout))
