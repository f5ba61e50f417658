/* The layout the C side assumes for boids_shared.h is the one the GL compiler gives: offsets and
 * strides of the boid SSBO and of the per-step uniform block, read back with
 * glGetProgramResourceiv from a linked program. Also: the model parameter table is complete and
 * its defaults are the paper's (shiffman-per-second-model.md §3.6). */
#include <stddef.h>

#include "gpu/program.h"
#include "test.h"

typedef struct field {
    const char *name;
    size_t offset;
} field;

static GLint resource_offset(GLuint prog, GLenum iface, const char *name, GLint *stride)
{
    GLuint idx = glGetProgramResourceIndex(prog, iface, name);
    if (idx == GL_INVALID_INDEX) return -1;
    GLenum props[2] = {GL_OFFSET, iface == GL_BUFFER_VARIABLE ? GL_TOP_LEVEL_ARRAY_STRIDE : GL_OFFSET};
    GLint vals[2] = {-1, -1};
    glGetProgramResourceiv(prog, iface, idx, 2, props, 2, NULL, vals);
    if (stride) *stride = vals[1];
    return vals[0];
}

static void test_boid_ssbo_layout(void)
{
    test_gpu_context();
    GLuint prog;
    REQUIRE_OK(boids_program_compute("reorder.comp", &prog)); /* copies whole boids: all fields live */
    const field fields[] = {
        {"boids_in[0].px", offsetof(boids_gpu_boid, px)},   {"boids_in[0].py", offsetof(boids_gpu_boid, py)},
        {"boids_in[0].vx", offsetof(boids_gpu_boid, vx)},   {"boids_in[0].vy", offsetof(boids_gpu_boid, vy)},
        {"boids_in[0].id", offsetof(boids_gpu_boid, id)},   {"boids_in[0].swarm", offsetof(boids_gpu_boid, swarm)},
        {"boids_in[0].flags", offsetof(boids_gpu_boid, flags)}, {"boids_in[0].bias", offsetof(boids_gpu_boid, bias)},
        {"boids_in[0].age", offsetof(boids_gpu_boid, age)},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i) {
        GLint stride = -1;
        GLint off = resource_offset(prog, GL_BUFFER_VARIABLE, fields[i].name, &stride);
        CHECK_MSG(off == (GLint)fields[i].offset, "%s at %d, C says %zu", fields[i].name, off,
                  fields[i].offset);
        CHECK_MSG(stride == (GLint)sizeof(boids_gpu_boid), "%s: array stride %d, C says %zu",
                  fields[i].name, stride, sizeof(boids_gpu_boid));
    }
    glDeleteProgram(prog);
}

static void test_frame_ubo_layout(void)
{
    test_gpu_context();
    GLuint prog;
    REQUIRE_OK(boids_program_compute("steer_shiffman.comp", &prog));
#define F(name) {"frame." #name, offsetof(boids_gpu_frame, name)}
#define P(name) {"frame.params." #name, offsetof(boids_gpu_frame, params) + offsetof(boids_params, name)}
    const field fields[] = {
        F(world_w), F(world_h), F(half_w), F(half_h), F(inv_cell_w), F(inv_cell_h), F(dt),
        F(count), F(grid_w), F(grid_h), F(swarms), F(loop_limit),
        P(max_speed), P(max_force), P(min_speed), P(sep_radius), P(align_radius),
        P(cohesion_radius), P(sep_weight), P(align_weight), P(cohesion_weight), P(edges), P(border_r),
        P(avoid_factor), P(matching_factor), P(centering_factor), P(turn_factor), P(margin),
        P(include_protected), P(scout1_count), P(scout2_count), P(bias), P(max_bias), P(bias_increment),
        P(dynamic_bias), P(mean_set_length),
    };
#undef F
#undef P
    int found = 0;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i) {
        GLint off = resource_offset(prog, GL_UNIFORM, fields[i].name, NULL);
        CHECK_MSG(off == (GLint)fields[i].offset, "%s at %d, C says %zu", fields[i].name, off,
                  fields[i].offset);
        found += off >= 0;
    }
    /* The block's size as the compiler sees it. */
    GLuint block = glGetProgramResourceIndex(prog, GL_UNIFORM_BLOCK, "Frame");
    GLenum prop = GL_BUFFER_DATA_SIZE;
    GLint size = -1;
    if (block != GL_INVALID_INDEX) glGetProgramResourceiv(prog, GL_UNIFORM_BLOCK, block, 1, &prop, 1, NULL, &size);
    CHECK_MSG(size == (GLint)sizeof(boids_gpu_frame), "Frame block is %d bytes, C says %zu", size,
              sizeof(boids_gpu_frame));
    printf("  %d frame fields checked, block %d bytes\n", found, size);
    glDeleteProgram(prog);
}

static void test_param_table(void)
{
    /* Every float of boids_params a model uses is in its table once; defaults per §3.6. */
    size_t n;
    const boids_param_info *info = boids_model_params(BOIDS_MODEL_SHIFFMAN_PER_SECOND, &n);
    CHECK(n == 10); /* §3.6's nine, and edges */
    boids_params p = boids_model_default_params(BOIDS_MODEL_SHIFFMAN_PER_SECOND);
    CHECK(p.max_speed == 180 && p.max_force == 180 && p.min_speed == 54);
    CHECK(p.sep_radius == 25 && p.align_radius == 50 && p.cohesion_radius == 50);
    CHECK(p.sep_weight == 1.5f && p.align_weight == 1 && p.cohesion_weight == 1);
    for (size_t i = 0; i < n; ++i)
        for (size_t j = i + 1; j < n; ++j) CHECK(info[i].offset != info[j].offset);
    CHECK(boids_params_validate(BOIDS_MODEL_SHIFFMAN_PER_SECOND, &p) == BOIDS_OK);

    /* Set by name: the field changes, nothing else does. */
    boids_params q = p;
    CHECK(boids_params_set(BOIDS_MODEL_SHIFFMAN_PER_SECOND, &q, "align_weight", "0.25") == BOIDS_OK);
    CHECK(q.align_weight == 0.25f);
    q.align_weight = p.align_weight;
    CHECK(memcmp(&p, &q, sizeof p) == 0);
    CHECK(boids_params_set(BOIDS_MODEL_SHIFFMAN_PER_SECOND, &q, "max_speed", "1e9") == BOIDS_ERR_INVALID);
    CHECK(strstr(boids_last_error(), "max_speed") != NULL);
    CHECK(boids_params_set(BOIDS_MODEL_SHIFFMAN_PER_SECOND, &q, "max_speed", "12x") == BOIDS_ERR_INVALID);
    CHECK(boids_params_set(BOIDS_MODEL_SHIFFMAN_PER_SECOND, &q, "max_speed", "inf") == BOIDS_ERR_INVALID);
    CHECK(boids_params_set(BOIDS_MODEL_SHIFFMAN_PER_SECOND, &q, "warp", "1") == BOIDS_ERR_INVALID);
    CHECK(strstr(boids_last_error(), "warp") != NULL);
    CHECK(memcmp(&p, &q, sizeof p) == 0); /* failed sets change nothing */

    boids_model m;
    CHECK(boids_model_from_name("shiffman-per-second", &m) == BOIDS_OK && m == BOIDS_MODEL_SHIFFMAN_PER_SECOND);
    CHECK(boids_model_from_name("reynolds", &m) == BOIDS_ERR_INVALID);
    CHECK(boids_params_max_radius(BOIDS_MODEL_SHIFFMAN_PER_SECOND, &p) == 50);
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

TEST_MAIN(TEST(test_param_table), TEST(test_default_world_size), TEST(test_boid_ssbo_layout),
          TEST(test_frame_ubo_layout))
