/* The lists the house is built from hold together, and the layout the C side assumes for what it
 * shares with the shaders is the one the GL compiler gives:
 *   - the manifest: names unique and found by name, every preset applies, every model has its
 *     generated steering program embedded, its blocks' parameters are unique by name, and one of
 *     them is its group radius;
 *   - the parameter rows: defaults within their ranges, every row of every block at the offset
 *     the GLSL compiler gives frame.params.<block>.<name> (glGetProgramResourceiv);
 *   - the attribute schema: members after swarm, ranges holding their defaults;
 *   - the hot state buffers, the report buffer's events and the per-step uniform block. */
#include <math.h>
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

/* The first of model m's rows with every flag of `with` and none of `without`, one of the model's
 * own blocks (beyond base and obstacles) where it has such a row (NULL: none at all). */
static const boids_param_info *row_with(boids_model m, unsigned with, unsigned without)
{
    size_t n;
    const boids_param_info *info = boids_model_params(m, &n), *shared = NULL;
    for (size_t i = 0; i < n; ++i) {
        if ((info[i].flags & with) != with || (info[i].flags & without)) continue;
        if (info[i].block != BOIDS_BLOCK_BASE && info[i].block != BOIDS_BLOCK_OBSTACLES)
            return &info[i];
        if (!shared) shared = &info[i];
    }
    return shared;
}

/* The first row whose range prints as whole numbers and whose max + 0.5 is a float: the range
 * message is then known to the letter. */
static const boids_param_info *range_row(boids_model m)
{
    size_t n;
    const boids_param_info *info = boids_model_params(m, &n);
    for (size_t i = 0; i < n; ++i)
        if (info[i].min == floorf(info[i].min) && info[i].max == floorf(info[i].max) &&
            fabsf(info[i].min) < 0x1p22f && fabsf(info[i].max) < 0x1p22f)
            return &info[i];
    return NULL;
}

/* The row's field in q put back as it is in p. */
static void restore(boids_params *q, const boids_params *p, const boids_param_info *row)
{
    memcpy((char *)q + row->offset, (const char *)p + row->offset, sizeof(float));
}

/* Set by name, on model m, its rows picked by their kind: the field changes and nothing else
 * does; errors carry their id, key and exact text; failed sets change nothing. Counts the models
 * with a whole-number row beside edges (*not_whole) and those that lack a name another model has
 * (*aliases). */
static void check_sets(boids_model m, int *not_whole, int *aliases)
{
    const char *name = boids_model_name(m);
    const boids_params p = boids_model_default_params(m);
    boids_params q = p;
    char text[64], want[160];
    const unsigned whole = BOIDS_PARAM_INTEGER | BOIDS_PARAM_BINARY | BOIDS_PARAM_COUNT;
    const boids_param_info *real = row_with(m, 0, whole | BOIDS_PARAM_NAMED_EDGES);
    if (real) {
        snprintf(text, sizeof text, "%.9g", real->min + (real->ui_max - real->min) * 0.25);
        CHECK_MSG(boids_params_set(m, &q, real->name, text) == BOIDS_OK, "%s: %s", name,
                  boids_last_error());
        CHECK_MSG(boids_param_get(&q, real) == strtof(text, NULL), "%s: %s", name, real->name);
        restore(&q, &p, real);
    }
    const boids_param_info *edges = row_with(m, BOIDS_PARAM_NAMED_EDGES, 0);
    if (edges) {
        CHECK(boids_params_set(m, &q, edges->name, "processing") == BOIDS_OK &&
              boids_param_get(&q, edges) == BOIDS_EDGES_PROCESSING);
        restore(&q, &p, edges);
    }
    CHECK_MSG(memcmp(&p, &q, sizeof p) == 0, "%s: a set changed another field", name);
    const boids_param_info *r = range_row(m);
    CHECK_MSG(r != NULL, "%s: no row with a whole-numbered range", name);
    if (!r) return;
    snprintf(text, sizeof text, "%.1f", (double)r->max + 0.5);
    snprintf(want, sizeof want, "%s is outside [%.0f, %.0f]%s%s", text, (double)r->min,
             (double)r->max, r->unit[0] ? " " : "", r->unit);
    CHECK(boids_params_set(m, &q, r->name, text) == BOIDS_ERR_INVALID);
    CHECK(boids_last_error_info()->id == BOIDS_E_PARAM_RANGE &&
          strcmp(boids_last_error_info()->key, r->name) == 0);
    CHECK_MSG(strstr(boids_last_error(), want) != NULL, "%s: '%s', not '%s'", name,
              boids_last_error(), want);
    CHECK(boids_params_set(m, &q, r->name, "12x") == BOIDS_ERR_INVALID);
    CHECK(boids_last_error_info()->id == BOIDS_E_PARAM_NOT_NUMBER);
    CHECK(boids_params_set(m, &q, r->name, "inf") == BOIDS_ERR_INVALID);
    CHECK(boids_params_set(m, &q, "warp", "1") == BOIDS_ERR_INVALID);
    CHECK(boids_last_error_info()->id == BOIDS_E_PARAM_UNKNOWN &&
          strcmp(boids_last_error_info()->key, "warp") == 0);
    /* No aliases: another model's names are its own, and this one does not take them. */
    const char *other = NULL;
    for (int o = 0; o < BOIDS_MODEL_COUNT && !other; ++o) {
        size_t n;
        const boids_param_info *info = boids_model_params((boids_model)o, &n);
        for (size_t i = 0; i < n && !other; ++i)
            if (!boids_model_param(m, info[i].name)) other = info[i].name;
    }
    if (other) {
        ++*aliases;
        CHECK_MSG(boids_params_set(m, &q, other, "5") == BOIDS_ERR_INVALID &&
                      boids_last_error_info()->id == BOIDS_E_PARAM_UNKNOWN,
                  "%s takes %s", name, other);
    }
    const boids_param_info *w = row_with(m, BOIDS_PARAM_INTEGER, BOIDS_PARAM_NAMED_EDGES);
    *not_whole += w != NULL; /* (edges is a whole number too: every model has one) */
    if (!w) w = row_with(m, BOIDS_PARAM_INTEGER, 0);
    if (w) {
        snprintf(text, sizeof text, "%.9g", (double)w->min + 0.5);
        CHECK(boids_params_set(m, &q, w->name, text) == BOIDS_ERR_INVALID);
        CHECK_MSG(boids_last_error_info()->id == BOIDS_E_PARAM_NOT_WHOLE, "%s: %s", name,
                  boids_last_error());
    }
    CHECK_MSG(memcmp(&p, &q, sizeof p) == 0, "%s: a failed set changed something", name);
}

/* The grid's reach at the defaults: at least every radius row, and exactly the largest where
 * the model has neither nested zones nor predators (whose outer radius and catch count too). */
static void check_max_radius(boids_model m)
{
    size_t n;
    const boids_param_info *info = boids_model_params(m, &n);
    const boids_params p = boids_model_default_params(m);
    float largest = 0;
    bool zones = false;
    for (size_t i = 0; i < n; ++i) {
        if (info[i].flags & BOIDS_PARAM_RADIUS)
            largest = fmaxf(largest, boids_param_get(&p, &info[i]));
        zones |= (info[i].flags & BOIDS_PARAM_ZONE) != 0;
    }
    const float r = boids_params_max_radius(m, &p, false);
    const bool exact = !zones && !(boids_model_features(m) & BOIDS_FEATURE_PREDATORS);
    CHECK_MSG(exact ? r == largest : r >= largest, "%s: max radius %g, largest radius row %g",
              boids_model_name(m), (double)r, (double)largest);
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
    int not_whole = 0, aliases = 0;
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
        check_sets((boids_model)m, &not_whole, &aliases);
        check_max_radius((boids_model)m);
    }
    CHECK_MSG(not_whole > 0, "no model has a whole-number row");
    CHECK_MSG(aliases > 0, "no model lacks a name another model has");
}

/* Every attribute's default at a model's values, within its range. */
static void check_attribute_defaults(const boids_params *p)
{
    for (int a = 0; a < BOIDS_ATTR_COUNT; ++a) {
        const boids_attribute_info *ai = boids_attribute_info_of((boids_attribute)a);
        float d = boids_attribute_default((boids_attribute)a, p);
        CHECK_MSG(d >= ai->min && d <= ai->max, "%s: default %g outside its range", ai->name,
                  (double)d);
        /* the stored word round-trips */
        boids_boid x;
        memset(&x, 0, sizeof x);
        boids_boid_set_attr_bits(&x, (boids_attribute)a,
                                 boids_attribute_default_bits((boids_attribute)a, p));
        CHECK(boids_boid_attr_value(&x, (boids_attribute)a) == (double)d);
    }
}

static void test_attribute_schema(void)
{
    for (int a = 0; a < BOIDS_ATTR_COUNT; ++a) {
        const boids_attribute_info *ai = boids_attribute_info_of((boids_attribute)a);
        CHECK(ai->offset >= offsetof(boids_boid, swarm) + sizeof(uint32_t));
        CHECK(ai->offset + 4 <= sizeof(boids_boid));
        for (int b = 0; b < a; ++b)
            CHECK(strcmp(ai->name, boids_attribute_info_of((boids_attribute)b)->name) != 0);
    }
    /* At every model's values; and every attribute is some model's (none is left over). */
    unsigned used = 0;
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
        const boids_params p = boids_model_default_params((boids_model)m);
        check_attribute_defaults(&p);
        used |= boids_model_attributes((boids_model)m);
    }
    CHECK_MSG(used == (1u << BOIDS_ATTR_COUNT) - 1, "attributes no model has: %#x",
              ~used & ((1u << BOIDS_ATTR_COUNT) - 1));
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
    /* The report is every program's; the attribute words are there in a model that has
     * attributes: the first such. */
    int with_attributes = 0;
    while (with_attributes + 1 < BOIDS_MODEL_COUNT &&
           boids_model_attributes((boids_model)with_attributes) == 0)
        ++with_attributes;
    char steer[128];
    snprintf(steer, sizeof steer, "steer_%s.comp", boids_model_name((boids_model)with_attributes));
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
    /* The frame is every program's: the first model's (its params hold every model's blocks). */
    snprintf(steer, sizeof steer, "steer_%s.comp", boids_model_name((boids_model)0));
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

/* The centre layout starts every model within its own speeds, flat and 3D: at v_0 where the model
 * moves at one speed, else at most max_speed; kit's start is the paper's, components in
 * [-50, 50] px/s (every model drew those: gregoire-chate's particles, v_0 = 0.05, started at up
 * to 70 a frame). */
static void test_the_centre_layout_keeps_each_model_s_speeds(void)
{
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m)
        for (int three = 0; three < 2; ++three) {
            boids_world_def d = test_def(BOIDS_BACKEND_CPU, 400);
            d.model = (boids_model)m;
            d.params = boids_model_default_params(d.model);
            d.width = d.height = 200, d.depth = three ? 200 : 0;
            d.layout = BOIDS_LAYOUT_CENTRE;
            boids_world *w;
            static boids_boid b[400];
            REQUIRE_OK(boids_world_create(&d, &w));
            REQUIRE_OK(boids_world_read(w, b, d.count));
            boids_world_destroy(w);
            const float lo = d.params.base.min_speed, hi = d.params.base.max_speed;
            int bad = 0;
            for (uint32_t i = 0; i < d.count; ++i) {
                const double v = sqrt((double)b[i].vx * b[i].vx + (double)b[i].vy * b[i].vy +
                                      (double)b[i].vz * b[i].vz);
                bad += lo == hi ? fabs(v - hi) > 1e-6 * hi : v > hi;
                if (m == BOIDS_MODEL_KIT)
                    bad += fabsf(b[i].vx) > 50 || fabsf(b[i].vy) > 50 || fabsf(b[i].vz) > 50;
            }
            CHECK_MSG(bad == 0, "%s %s: %d boids start outside the speeds [%g, %g]",
                      boids_model_name(d.model), three ? "3D" : "flat", bad, lo, hi);
        }
}

TEST_MAIN(TEST(test_manifest), TEST(test_param_rows), TEST(test_attribute_schema),
          TEST(test_default_world_size), TEST(test_state_buffers_layout), TEST(test_report_layout),
          TEST(test_frame_ubo_layout), TEST(test_the_centre_layout_keeps_each_model_s_speeds))
