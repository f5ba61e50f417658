#define _POSIX_C_SOURCE 200809L
/* Drawing and export, headless: one boid at a known place and heading lights pixels there and
 * nowhere else, nose first; --frames writes exactly the frames asked for, at the asked size, as
 * PNGs that decode (on both backends); the panel's set-by-name path changes the simulation
 * exactly as --set does, its switches toggle and its choice cycles; the step count goes on across
 * model switches; the UI's O and 0 differ. */
#include <dirent.h>
#include <unistd.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
#pragma GCC diagnostic pop

#include "app/app.h"
#include "app/viewer/panel.h"
#include "app/session.h"
#include "core/rng.h"
#include "render/boid_renderer.h"
#include "render/png_zlib.h"
#include "render/target.h"
#include "render/ui.h"
#include "test.h"

static int is_background(const unsigned char *p)
{
    return abs(p[0] - (int)(BOIDS_BACKGROUND_R * 255 + 0.5f)) <= 1 &&
           abs(p[1] - (int)(BOIDS_BACKGROUND_G * 255 + 0.5f)) <= 1 &&
           abs(p[2] - (int)(BOIDS_BACKGROUND_B * 255 + 0.5f)) <= 1;
}

/* Renders one boid at (x, y) with velocity (vx, vy) into a W x H image of a W x H world (zoom 1)
 * and checks where its pixels are. */
static void one_boid(float x, float y, float vx, float vy)
{
    enum { W = 400, H = 300 };
    boids_world_def d = test_def(BOIDS_BACKEND_GPU, 1);
    d.width = W;
    d.height = H;
    boids_world *w;
    REQUIRE_OK(boids_world_create(&d, &w));
    boids_boid b = {x, y, vx, vy, 0};
    REQUIRE_OK(boids_world_write(w, &b, 1));
    boids_target t;
    boids_renderer *r;
    REQUIRE_OK(boids_target_create(&t, W, H));
    REQUIRE_OK(boids_renderer_create(&r));
    boids_camera cam;
    boids_camera_fit(&cam, W, H, W, H);
    boids_draw_style style = boids_default_draw_style(w);
    style.boid_px = 24; /* large enough to tell the nose from the tail in pixels */
    boids_target_bind(&t);
    REQUIRE_OK(boids_renderer_draw(r, w, &cam, &style));
    static unsigned char px[W * H * 4];
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
    int lit = 0, far = 0;
    double sx = 0, sy = 0, best = -1, nose_x = 0, nose_y = 0;
    for (int row = 0; row < H; ++row) {
        int iy = H - 1 - row; /* image rows from the top: world y points down */
        for (int ix = 0; ix < W; ++ix) {
            const unsigned char *p = px + 4 * (row * W + ix);
            if (ix < 2 || iy < 2 || ix >= W - 2 || iy >= H - 2) continue; /* the world's border */
            if (is_background(p)) continue;
            double dx = ix + 0.5 - x, dy = iy + 0.5 - y, dist = hypot(dx, dy);
            ++lit;
            sx += dx;
            sy += dy;
            if (dist > 0.6 * 24 + 1.5) ++far;
            if (dist > best) { /* the nose is the lit pixel farthest from the centre */
                best = dist;
                nose_x = dx;
                nose_y = dy;
            }
        }
    }
    printf("  boid at (%g, %g) heading (%g, %g): %d pixels lit, %d beyond its size, nose at "
           "(%+.1f, %+.1f)\n",
           (double)x, (double)y, (double)vx, (double)vy, lit, far, nose_x, nose_y);
    CHECK(lit >= 4);
    CHECK(far == 0);
    double len = hypot(vx, vy);
    CHECK_MSG((nose_x * vx + nose_y * vy) / (len * best) > 0.8,
              "the nose does not point along the velocity");
    (void)sx, (void)sy;
    boids_renderer_destroy(r);
    boids_target_destroy(&t);
    boids_world_destroy(w);
}

static void test_one_boid_where_expected(void)
{
    one_boid(100, 80, 120, 0);  /* heading right */
    one_boid(250, 200, 0, -90); /* heading up the screen (y points down) */
    one_boid(310, 60, -60, 60); /* down and left */
}

enum { VIEW_W = 480, VIEW_H = 360 };

/* World w drawn in 3D from eye towards at (field of view fov degrees) into px (VIEW_W x VIEW_H
 * RGBA, bottom row first); the camera back in *cam. boid_px 0: the default style's. */
static void draw_3d(boids_world *w, const float eye[3], const float at[3], float fov, float boid_px,
                    boids_camera *cam, unsigned char *px)
{
    boids_target t;
    boids_renderer *r;
    REQUIRE_OK(boids_target_create(&t, VIEW_W, VIEW_H));
    REQUIRE_OK(boids_renderer_create(&r));
    *cam = (boids_camera){0};
    cam->view_w = VIEW_W, cam->view_h = VIEW_H;
    boids_camera_look(cam, eye, at, fov);
    boids_draw_style style = boids_default_draw_style(w);
    if (boid_px > 0) style.boid_px = boid_px, style.color_mode = BOIDS_COLOR_SWARM;
    boids_target_bind(&t);
    REQUIRE_OK(boids_renderer_draw(r, w, cam, &style));
    glReadPixels(0, 0, VIEW_W, VIEW_H, GL_RGBA, GL_UNSIGNED_BYTE, px);
    boids_renderer_destroy(r);
    boids_target_destroy(&t);
}

/* A 3D world's boid where the orbit camera projects it, its nose along its velocity as the camera
 * sees it, on both backends. */
static void one_boid_3d(boids_backend backend, const float p[3], const float v[3])
{
    enum { W = VIEW_W, H = VIEW_H };
    boids_world_def d = test_def(backend, 1);
    d.width = 600, d.height = 400, d.depth = 500;
    boids_world *w;
    REQUIRE_OK(boids_world_create(&d, &w));
    boids_boid b = {p[0], p[1], v[0], v[1], 0};
    b.z = p[2], b.vz = v[2];
    REQUIRE_OK(boids_world_write(w, &b, 1));
    boids_camera cam;
    const float eye[3] = {p[0], p[1], p[2] + 200}, at[3] = {p[0], p[1], p[2]};
    static unsigned char px[W * H * 4];
    draw_3d(w, eye, at, 45, 40, &cam, px);
    float sx, sy, depth, nx, ny;
    boids_camera_project(&cam, p, &sx, &sy, &depth);
    const float nose[3] = {p[0] + v[0] * 0.05f, p[1] + v[1] * 0.05f, p[2] + v[2] * 0.05f};
    boids_camera_project(&cam, nose, &nx, &ny, &depth);
    int lit = 0;
    double cx = 0, cy = 0, best = -1, far_x = 0, far_y = 0;
    for (int row = 0; row < H; ++row)
        for (int ix = 0; ix < W; ++ix) {
            const unsigned char *q = px + 4 * (row * W + ix);
            const double dx = ix + 0.5 - sx, dy = (H - 1 - row) + 0.5 - sy;
            if (is_background(q) || hypot(dx, dy) > 60) continue; /* (the box's edges) */
            ++lit, cx += dx, cy += dy;
            if (hypot(dx, dy) > best) best = hypot(dx, dy), far_x = dx, far_y = dy;
        }
    const double along = (far_x * (nx - sx) + far_y * (ny - sy)) / (best * hypot(nx - sx, ny - sy));
    printf("  3D boid on the %s at (%g, %g, %g): %d pixels lit about (%.0f, %.0f), its centre "
           "off by (%+.1f, %+.1f), nose along the velocity %.2f\n",
           backend == BOIDS_BACKEND_GPU ? "GPU" : "CPU", (double)p[0], (double)p[1], (double)p[2],
           lit, (double)sx, (double)sy, lit ? cx / lit : 0, lit ? cy / lit : 0, along);
    CHECK(lit >= 20);
    CHECK(lit > 0 && hypot(cx / lit, cy / lit) < 12);
    CHECK_MSG(along > 0.8, "the nose does not point along the velocity");
    boids_world_destroy(w);
}

/* A 3D world's sphere: a disc where the camera projects its centre, of the radius its distance
 * gives (r f / w, f the focal length in pixels), away from the box's edges and the one boid. */
static void test_3d_sphere_where_expected(void)
{
    enum { W = VIEW_W, H = VIEW_H };
    boids_world_def d = test_def(BOIDS_BACKEND_CPU, 1);
    d.width = d.height = d.depth = 1000;
    const boids_obstacle sphere = {420, 560, 90, 0, 300};
    d.obstacles = &sphere, d.obstacle_count = 1;
    boids_world *w;
    REQUIRE_OK(boids_world_create(&d, &w));
    const boids_boid b = {950, 50, 10, 0, 0}; /* (a boid far from the sphere) */
    REQUIRE_OK(boids_world_write(w, &b, 1));
    boids_camera cam;
    const float eye[3] = {500, 500, -900}, at[3] = {500, 500, 500};
    static unsigned char px[W * H * 4];
    draw_3d(w, eye, at, 50, 0, &cam, px);
    const float c[3] = {sphere.x, sphere.y, sphere.z};
    float sx, sy, cw;
    boids_camera_project(&cam, c, &sx, &sy, &cw);
    const double pi = 3.14159265358979, want = sphere.radius * H * 0.5 / tan(25 * pi / 180) / cw;
    int lit = 0;
    double reach = 0;
    for (int row = 0; row < H; ++row)
        for (int ix = 0; ix < W; ++ix) {
            const double dx = ix + 0.5 - sx, dy = (H - 1 - row) + 0.5 - sy, dd = hypot(dx, dy);
            if (is_background(px + 4 * (row * W + ix)) || dd > 2 * want) continue;
            ++lit, reach = fmax(reach, dd);
        }
    printf(
        "  a sphere of radius %g at distance %.0f: %d pixels lit within %.1f px of (%.0f, %.0f), "
        "expected a disc of %.1f px\n",
        (double)sphere.radius, (double)cw, lit, reach, (double)sx, (double)sy, want);
    CHECK(fabs(reach - want) < 3.0 && lit > 0.8 * pi * want * want);
    boids_world_destroy(w);
}

static void test_3d_boid_where_expected(void)
{
    const float p[3] = {300, 200, 250}, right[3] = {120, 0, 0}, up[3] = {0, -90, 0};
    one_boid_3d(BOIDS_BACKEND_GPU, p, right);
    one_boid_3d(BOIDS_BACKEND_CPU, p, up);
    const float q[3] = {150, 300, 400}, slant[3] = {60, 60, -40};
    one_boid_3d(BOIDS_BACKEND_GPU, q, slant);
}

/* A 3D world's predators (kit): drawn red, larger than a boid, where a slanted camera projects
 * them, on both backends (the predators' buffer has its own second half of (z, vz), from the
 * predators' count, not the boids'). */
static void test_3d_predator_where_expected(void)
{
    enum { W = VIEW_W, H = VIEW_H, NB = 3, NP = 2 };
    for (int k = 0; k < 2; ++k) {
        const boids_backend backend = k ? BOIDS_BACKEND_GPU : BOIDS_BACKEND_CPU;
        boids_world_def d = test_def(backend, NB);
        d.model = BOIDS_MODEL_KIT;
        d.params = boids_model_default_params(d.model);
        d.params.obstacles.obstacles = 0;
        d.params.predators.predators = NP;
        d.width = 600, d.height = 400, d.depth = 500;
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        boids_boid b[NB];
        for (int i = 0; i < NB; ++i) { /* (boids out of the way, in a far corner) */
            b[i] = (boids_boid){580 - 5.0f * i, 390, 10, 0, 0};
            b[i].z = 480, b[i].alive = 1, b[i].age = 0.5f;
        }
        REQUIRE_OK(boids_world_write(w, b, NB));
        const boids_predator pred[NP] = {{120, 320, 0, 80, 320, 0}, {480, 80, 60, 0, 90, 40}};
        REQUIRE_OK(boids_world_write_predators(w, pred, NP));
        boids_camera cam;
        const float eye[3] = {-250, -200, 900}, at[3] = {300, 200, 250};
        static unsigned char px[W * H * 4];
        draw_3d(w, eye, at, 45, 0, &cam, px);
        for (int p = 0; p < NP; ++p) {
            const float c[3] = {pred[p].x, pred[p].y, pred[p].z};
            float sx, sy, depth;
            boids_camera_project(&cam, c, &sx, &sy, &depth);
            int red = 0;
            double cx = 0, cy = 0;
            for (int row = 0; row < H; ++row)
                for (int ix = 0; ix < W; ++ix) {
                    const unsigned char *q = px + 4 * (row * W + ix);
                    const double dx = ix + 0.5 - sx, dy = (H - 1 - row) + 0.5 - sy;
                    if (hypot(dx, dy) > 30 || !(q[0] > 2 * q[1] + 20 && q[0] > 2 * q[2] + 20))
                        continue;
                    ++red, cx += dx, cy += dy;
                }
            printf("  3D predator %d on the %s: %d red pixels about (%.0f, %.0f), off by (%+.1f, "
                   "%+.1f)\n",
                   p, k ? "GPU" : "CPU", red, (double)sx, (double)sy, red ? cx / red : 0,
                   red ? cy / red : 0);
            CHECK(red >= 20);
            CHECK(red > 0 && hypot(cx / red, cy / red) < 8);
        }
        boids_world_destroy(w);
    }
}

static int count_files(const char *dir, const char *suffix)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    size_t ls = strlen(suffix);
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l >= ls && strcmp(e->d_name + l - ls, suffix) == 0) ++n;
    }
    closedir(d);
    return n;
}

static void export_frames(const char *backend)
{
    test_gpu_context();
    char dir[] = "/tmp/boids-test-frames-XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK(!"mkdtemp");
        return;
    }
    /* 14 steps, 3 per frame: 4 frames (the 2 steps left over run without a frame). */
    char *argv[] = {"boids",    "--headless", "--backend",     (char *)backend,
                    "-n",       "400",        "--swarms",      "2",
                    "--steps",  "14",         "--frame-steps", "3",
                    "--frames", dir,          "--size",        "320x176"};
    boids_cli cli;
    REQUIRE_OK(boids_cli_parse((int)(sizeof argv / sizeof argv[0]), argv, &cli));
    boids_init_state none = {NULL, NULL, false};
    CHECK(boids_headless_run(&cli, &none) == BOIDS_EXIT_OK);
    CHECK_MSG(count_files(dir, ".png") == 4, "%d PNGs", count_files(dir, ".png"));
    CHECK(count_files(dir, ".tmp") == 0);
    for (int f = 0; f < 4; ++f) {
        char path[256];
        snprintf(path, sizeof path, "%s/frame_%06d.png", dir, f);
        int w = 0, h = 0, comp = 0;
        unsigned char *img = stbi_load(path, &w, &h, &comp, 3);
        CHECK_MSG(img && w == 320 && h == 176, "%s: %dx%d", path, w, h);
        int lit = 0;
        for (int i = 0; img && i < w * h; ++i) lit += !is_background(img + 3 * i);
        CHECK_MSG(lit > 200, "%s: only %d pixels drawn", path, lit);
        stbi_image_free(img);
        remove(path);
    }
    rmdir(dir);
}

static void test_export_gpu(void) { export_frames("gpu"); }
static void test_export_cpu(void) { export_frames("cpu"); }

static void test_panel_equals_set(void)
{
    for (int k = 0; k < 2; ++k) {
        boids_backend be = k ? BOIDS_BACKEND_GPU : BOIDS_BACKEND_CPU;
        /* A: parameters from the command line. */
        char *argv[] = {"boids",
                        "-n",
                        "3000",
                        "--swarms",
                        "2",
                        "--set",
                        "align_weight=2.5",
                        "--set",
                        "sep_radius=31.5",
                        "--set",
                        "cohesion_radius=80"};
        boids_cli cli;
        REQUIRE_OK(boids_cli_parse((int)(sizeof argv / sizeof argv[0]), argv, &cli));
        boids_world_def da = test_def(be, 3000);
        da.swarms = 2;
        da.params = cli.def.params;
        /* B: defaults, then the panel's path while running (the radius moves the grid). */
        boids_world_def db = test_def(be, 3000);
        db.swarms = 2;
        boids_world *a, *b;
        boids_session sb_;
        REQUIRE_OK(boids_world_create(&da, &a));
        REQUIRE_OK(boids_session_create(&sb_, &db, NULL));
        b = sb_.world;
        REQUIRE_OK(boids_panel_set(&sb_, "align_weight", "2.5"));
        REQUIRE_OK(boids_panel_set(&sb_, "sep_radius", "31.5"));
        REQUIRE_OK(boids_panel_set(&sb_, "cohesion_radius", "80"));
        CHECK(boids_panel_set(&sb_, "cohesion_radius", "-3") == BOIDS_ERR_INVALID); /* rejected, */
        CHECK(boids_panel_set(&sb_, "min_speed", "500") == BOIDS_ERR_INVALID);      /* no change */
        REQUIRE_OK(boids_world_step(a, 40));
        REQUIRE_OK(boids_world_step(b, 40));
        boids_boid *sa = malloc(sizeof *sa * 3000), *sb = malloc(sizeof *sb * 3000);
        REQUIRE_OK(boids_world_read(a, sa, 3000));
        REQUIRE_OK(boids_world_read(b, sb, 3000));
        CHECK_MSG(memcmp(sa, sb, sizeof *sa * 3000) == 0, "%s: the panel and --set differ",
                  k ? "gpu" : "cpu");
        boids_world_info ia, ib;
        boids_world_get_info(a, &ia);
        boids_world_get_info(b, &ib);
        CHECK(memcmp(&ia.params, &ib.params, sizeof ia.params) == 0 && ia.grid_w == ib.grid_w);
        free(sa), free(sb);
        boids_world_destroy(a);
        boids_session_destroy(&sb_);
    }
}

static void test_panel_keys_and_slider(void)
{
    boids_world_def d = test_def(BOIDS_BACKEND_CPU, 100);
    boids_session ss;
    REQUIRE_OK(boids_session_create(&ss, &d, NULL));
    boids_world *w = ss.world;
    boids_panel p;
    boids_panel_init(&p);
    size_t nparams;
    const boids_param_info *rows = boids_model_params(d.model, &nparams);
    int row = 0;
    while ((size_t)row < nparams && strcmp(rows[row].name, "cohesion_weight") != 0) ++row;
    boids_panel_select(&p, w, row - (int)nparams); /* wraps round to cohesion_weight's row */
    REQUIRE_OK(boids_panel_nudge(&p, &ss, +1, false));
    boids_world_info info;
    boids_world_get_info(w, &info);
    CHECK_MSG(fabsf(info.params.reynolds.cohesion_weight - 1.05f) < 1e-6f, "%g",
              (double)info.params.reynolds.cohesion_weight);
    REQUIRE_OK(boids_panel_nudge(&p, &ss, -1, true)); /* coarse: 10 % of 0..5 */
    boids_world_get_info(w, &info);
    CHECK_MSG(fabsf(info.params.reynolds.cohesion_weight - 0.5f) < 1e-6f, "%g",
              (double)info.params.reynolds.cohesion_weight);
    /* The slider: a press at the middle of the bar of the selected row sets half its range. */
    p.x = 0, p.y = 0, p.w = 100, p.row_h = 10, p.bar_x = 10, p.bar_w = 80, p.rows = (int)nparams;
    CHECK(boids_panel_press(&p, &ss, 50, 10 + (float)row * 10 + 5)); /* cohesion_weight's row */
    boids_panel_release(&p);
    boids_world_get_info(w, &info);
    CHECK_MSG(fabsf(info.params.reynolds.cohesion_weight - 2.5f) < 1e-6f, "%g",
              (double)info.params.reynolds.cohesion_weight);
    CHECK(!boids_panel_press(&p, &ss, 500, 500)); /* off the panel: not taken */
    boids_session_destroy(&ss);
}

/* The panel's `predators` (fixed when a world is made) makes the world anew: the boids as they
 * were, the first predators kept, the new ones random; fewer keeps the first ones. The viewer's
 * predator tool adds one where it is asked. */
static void test_panel_predators(void)
{
    for (int k = 0; k < 2; ++k) {
        boids_world_def d = test_def(k ? BOIDS_BACKEND_GPU : BOIDS_BACKEND_CPU, 300);
        d.model = BOIDS_MODEL_KIT;
        d.params = boids_model_default_params(d.model);
        d.width = d.height = 4000;
        boids_session ss;
        REQUIRE_OK(boids_session_create(&ss, &d, NULL));
        REQUIRE_OK(boids_world_step(ss.world, 5));
        boids_boid before[300], after[300];
        boids_predator p0[3], p1[6];
        REQUIRE_OK(boids_world_read(ss.world, before, 300));
        REQUIRE_OK(boids_world_read_predators(ss.world, p0, 3));
        REQUIRE_OK(boids_panel_set(&ss, "predators", "5"));
        boids_world_info info;
        boids_world_get_info(ss.world, &info);
        CHECK(info.predators == 5 && info.params.predators.predators == 5);
        REQUIRE_OK(boids_world_read(ss.world, after, 300));
        REQUIRE_OK(boids_world_read_predators(ss.world, p1, 5));
        CHECK(memcmp(before, after, sizeof before) == 0 && memcmp(p0, p1, sizeof p0) == 0);
        REQUIRE_OK(boids_session_add_predator(&ss, 100, 200, 0));
        REQUIRE_OK(boids_world_read_predators(ss.world, p1, 6));
        CHECK(memcmp(p0, p1, sizeof p0) == 0 && p1[5].x == 100 && p1[5].y == 200);
        REQUIRE_OK(boids_panel_set(&ss, "predators", "2"));
        boids_world_get_info(ss.world, &info);
        REQUIRE_OK(boids_world_read_predators(ss.world, p1, 2));
        CHECK(info.predators == 2 && memcmp(p0, p1, 2 * sizeof p0[0]) == 0);
        REQUIRE_OK(boids_world_step(ss.world, 5));
        boids_session_destroy(&ss);
    }
}

/* The viewer's model switch (M) from kit's world: the next model gets its own step (kit's 0.08 s
 * once stayed, and its ns per boid-step read 2 291 484), and the 4 obstacles the world keeps are
 * its obstacles parameter too (the panel said 0 while they were drawn). */
static void test_model_switch_from_kit(void)
{
    boids_world_def d = test_def(BOIDS_BACKEND_CPU, 35);
    d.model = BOIDS_MODEL_KIT;
    d.params = boids_model_default_params(d.model);
    d.width = d.height = 4000;
    d.dt = 0.08f;
    boids_session ss;
    REQUIRE_OK(boids_session_create(&ss, &d, NULL));
    boids_world_info info;
    boids_world_get_info(ss.world, &info);
    const uint32_t obstacles = info.obstacles;
    CHECK(obstacles == 4 && info.dt == 0.08f);
    REQUIRE_OK(boids_session_set_model(&ss, BOIDS_MODEL_SHIFFMAN_PER_SECOND));
    boids_world_get_info(ss.world, &info);
    CHECK_MSG(info.dt == boids_default_world_def().dt && info.obstacles == obstacles &&
                  info.params.obstacles.obstacles == obstacles,
              "after M: dt %g, %u obstacles, the parameter %u", (double)info.dt, info.obstacles,
              info.params.obstacles.obstacles);
    REQUIRE_OK(boids_session_set_model(&ss, BOIDS_MODEL_KIT)); /* and back: kit's own step */
    boids_world_get_info(ss.world, &info);
    CHECK(info.dt == 0.08f && info.obstacles == obstacles);
    boids_session_destroy(&ss);
}

static void test_deflate_round_trip(void)
{
    /* The PNG's zlib hook against stb_image's inflater (our glue: sizes, the stream's framing,
     * stb's malloc/free contract): empty input, noise, runs shorter and longer than a match
     * (258), runs from the first bytes, and a rendered-frame-like mix. */
    enum { N = 200000 };
    unsigned char *data = malloc(N);
    boids_rng rng = boids_rng_seeded(3);
    const int sizes[] = {0, 1, 2, 3, 7, 258, 259, 261, 1000, N};
    for (int pattern = 0; pattern < 4; ++pattern) {
        for (int i = 0; i < N; ++i) {
            unsigned r = boids_rng_u32(&rng);
            switch (pattern) {
            case 0: data[i] = (unsigned char)r; break; /* noise */
            case 1:
                data[i] = (unsigned char)(i % 3 == 0 ? 14 : i % 3 == 1 ? 16 : 21);
                break; /* one colour */
            case 2:
                data[i] = (r % 50 == 0) ? (unsigned char)r : data[i >= 3 ? i - 3 : 0];
                break;                                                        /* runs */
            default: data[i] = (unsigned char)((i / 700) % 2 ? r : 9); break; /* blocks */
            }
        }
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
            int clen = 0, dlen = -1;
            unsigned char *z = boids_png_zlib(data, sizes[s], &clen, 0);
            char *back = z ? stbi_zlib_decode_malloc((const char *)z, clen, &dlen) : NULL;
            int same = back && dlen == sizes[s] && memcmp(back, data, (size_t)sizes[s]) == 0;
            CHECK_MSG(same, "pattern %d, %d bytes: round trip failed (%d back)", pattern, sizes[s],
                      dlen);
            if (pattern == 1 && sizes[s] == N) {
                printf("  one colour: %d bytes -> %d\n", N, clen);
                CHECK(clen < N / 50);
            }
            free(z);
            free(back);
        }
    }
    free(data);
}

static void test_switch_models(void)
{
    /* The viewer's next-model key: every model in turn, from a flock that ran a while under the
     * previous one (Adams' boids stray outside its bounded world): the boids stay, the new
     * model's preset applies, and it steps. */
    for (int k = 0; k < 2; ++k) {
        boids_world_def d = test_def(k ? BOIDS_BACKEND_GPU : BOIDS_BACKEND_CPU, 1500);
        d.model = BOIDS_MODEL_ADAMS;
        d.params = boids_model_default_params(d.model);
        d.params.adams.margin = 0; /* let them out */
        d.width = 1000;
        d.height = 700;
        boids_session s;
        REQUIRE_OK(boids_session_create(&s, &d, NULL));
        REQUIRE_OK(boids_world_step(s.world, 200));
        boids_boid *before = malloc(sizeof *before * 1500), *after = malloc(sizeof *after * 1500);
        for (int m = 0; m <= BOIDS_MODEL_COUNT; ++m) {
            boids_model next = (boids_model)((BOIDS_MODEL_ADAMS + 1 + m) % BOIDS_MODEL_COUNT);
            REQUIRE_OK(boids_world_read(s.world, before, 1500));
            REQUIRE_OK(boids_session_set_model(&s, next));
            REQUIRE_OK(boids_world_read(s.world, after, 1500));
            boids_world_info info;
            boids_world_get_info(s.world, &info);
            boids_params preset = boids_model_default_params(next);
            preset.obstacles.obstacles = info.obstacles; /* the world's, kept: none */
            CHECK(info.model == next && info.count == 1500 && info.obstacles == 0);
            CHECK(memcmp(&info.params, &preset, sizeof preset) == 0);
            int same = 0;
            for (int i = 0; i < 1500; ++i)
                same += after[i].vx == before[i].vx && after[i].vy == before[i].vy;
            CHECK_MSG(same == 1500, "%s: %d boids kept their velocity", boids_model_name(next),
                      same);
            CHECK_MSG(boids_world_step(s.world, 20) == BOIDS_OK, "%s: %s", boids_model_name(next),
                      boids_last_error());
            REQUIRE_OK(boids_world_read(s.world, after, 1500));
            CHECK(test_state_finite(after, 1500));
        }
        free(before), free(after);
        boids_session_destroy(&s);
    }
}

/* The panel's switches toggle (keys and a click), edges cycles through its three names and a
 * click picks the segment under it. */
static void test_panel_switches(void)
{
    boids_world_def d = test_def(BOIDS_BACKEND_CPU, 100);
    d.model = BOIDS_MODEL_ADAMS;
    d.params = boids_model_default_params(d.model);
    boids_session ss;
    REQUIRE_OK(boids_session_create(&ss, &d, NULL));
    boids_panel p;
    boids_panel_init(&p);
    size_t n;
    const boids_param_info *rows = boids_model_params(d.model, &n);
    int sw = 0, edges = 0;
    while ((size_t)sw < n && strcmp(rows[sw].name, "include_protected") != 0) ++sw;
    while ((size_t)edges < n && strcmp(rows[edges].name, "edges") != 0) ++edges;
    if ((size_t)sw >= n || (size_t)edges >= n) {
        CHECK(!"adams has include_protected and edges");
        boids_session_destroy(&ss);
        return;
    }
    boids_world_info info;
    p.selected = sw;
    float before = ss.def.params.adams.include_protected;
    REQUIRE_OK(boids_panel_nudge(&p, &ss, -1, false)); /* either direction toggles */
    boids_world_get_info(ss.world, &info);
    CHECK(info.params.adams.include_protected == 1 - before);
    REQUIRE_OK(boids_panel_nudge(&p, &ss, +1, true));
    boids_world_get_info(ss.world, &info);
    CHECK(info.params.adams.include_protected == before);
    p.selected = edges;
    float e0 = info.params.base.edges;
    for (int k = 1; k <= 3; ++k) { /* bounded -> processing -> wrap -> bounded */
        REQUIRE_OK(boids_panel_nudge(&p, &ss, +1, false));
        boids_world_get_info(ss.world, &info);
        CHECK_MSG(info.params.base.edges == (float)(((int)e0 + k) % 3), "step %d: edges %g", k,
                  (double)info.params.base.edges);
    }
    REQUIRE_OK(boids_panel_nudge(&p, &ss, -1, false));
    boids_world_get_info(ss.world, &info);
    CHECK(info.params.base.edges == (float)(((int)e0 + 2) % 3));
    /* clicks: the segments of edges (bar 10..100: three of 30), the switch's box */
    p.x = 0, p.y = 0, p.w = 110, p.row_h = 10, p.bar_x = 10, p.bar_w = 90, p.rows = (int)n,
    p.first = 0;
    const float xs[3] = {15, 50, 95};
    for (int k = 0; k < 3; ++k) {
        CHECK(boids_panel_press(&p, &ss, xs[k], 10 + (float)edges * 10 + 5));
        boids_panel_release(&p);
        boids_world_get_info(ss.world, &info);
        CHECK_MSG(info.params.base.edges == (float)k, "click %d: edges %g", k,
                  (double)info.params.base.edges);
    }
    CHECK(boids_panel_press(&p, &ss, 95, 10 + (float)sw * 10 + 5));
    boids_panel_release(&p);
    boids_world_get_info(ss.world, &info);
    CHECK(info.params.adams.include_protected == 1 - before);
    /* scrolled: row 0 on screen is row `first` */
    p.first = sw, p.rows = 1;
    CHECK(boids_panel_press(&p, &ss, 95, 15));
    boids_panel_release(&p);
    boids_world_get_info(ss.world, &info);
    CHECK(info.params.adams.include_protected == before && p.selected == sw);
    boids_session_destroy(&ss);
}

/* The viewer's step count (steps_before + the world's) goes on across a model switch, a resize
 * and a predator added, and starts again at a reset. */
static void test_step_count_across_worlds(void)
{
    boids_world_def d = test_def(BOIDS_BACKEND_CPU, 300);
    boids_session ss;
    REQUIRE_OK(boids_session_create(&ss, &d, NULL));
    REQUIRE_OK(boids_world_step(ss.world, 40));
    REQUIRE_OK(boids_session_set_model(&ss, BOIDS_MODEL_KIT));
    REQUIRE_OK(boids_world_step(ss.world, 5));
    REQUIRE_OK(boids_session_resize(&ss, 600));
    REQUIRE_OK(boids_world_step(ss.world, 3));
    REQUIRE_OK(boids_session_add_predator(&ss, 10, 10, 0));
    REQUIRE_OK(boids_world_step(ss.world, 2));
    boids_world_info info;
    boids_world_get_info(ss.world, &info);
    CHECK_MSG(ss.steps_before + info.steps == 50, "%llu",
              (unsigned long long)(ss.steps_before + info.steps));
    REQUIRE_OK(boids_session_reset(&ss, 7));
    boids_world_get_info(ss.world, &info);
    CHECK(ss.steps_before + info.steps == 0);
    boids_session_destroy(&ss);
}

/* The UI's text: O and 0 light different pixels, the O wider (stb_easy_font alone draws them
 * nearly alike). */
static int glyph_columns(boids_ui *ui, boids_target *t, const char *text, int *lit)
{
    enum { GW = 64, GH = 48 };
    boids_target_bind(t);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    boids_ui_begin(ui, GW, GH, 1);
    boids_ui_text(ui, 4, 4, text, (boids_rgba){255, 255, 255, 255});
    CHECK(boids_ui_end(ui) == BOIDS_OK);
    static unsigned char px[GW * GH * 4];
    glReadPixels(0, 0, GW, GH, GL_RGBA, GL_UNSIGNED_BYTE, px);
    int lo = GW, hi = -1;
    *lit = 0;
    for (int i = 0; i < GW * GH; ++i)
        if (px[4 * i] > 128) {
            ++*lit;
            if (i % GW < lo) lo = i % GW;
            if (i % GW > hi) hi = i % GW;
        }
    return hi - lo + 1;
}

static void test_ui_o_and_zero(void)
{
    boids_gl *gl;
    REQUIRE_OK(boids_gl_create_headless(&gl));
    boids_target t;
    boids_ui *ui;
    REQUIRE_OK(boids_target_create(&t, 64, 48));
    REQUIRE_OK(boids_ui_create(&ui));
    int lit_o, lit_0;
    int wide_o = glyph_columns(ui, &t, "O", &lit_o), wide_0 = glyph_columns(ui, &t, "0", &lit_0);
    CHECK_MSG(wide_o >= wide_0 + 2 && lit_o > 0 && lit_0 > 0,
              "O %d px wide (%d lit), 0 %d px wide (%d lit)", wide_o, lit_o, wide_0, lit_0);
    /* the text's width accounts for the wide O */
    CHECK(boids_ui_text_width(ui, "OO") > boids_ui_text_width(ui, "00"));
    boids_ui_destroy(ui);
    boids_target_destroy(&t);
    boids_gl_destroy(gl);
}

TEST_MAIN(TEST(test_switch_models), TEST(test_panel_switches), TEST(test_step_count_across_worlds),
          TEST(test_ui_o_and_zero), TEST(test_deflate_round_trip),
          TEST(test_one_boid_where_expected), TEST(test_3d_boid_where_expected),
          TEST(test_3d_sphere_where_expected), TEST(test_3d_predator_where_expected),
          TEST(test_export_gpu), TEST(test_export_cpu), TEST(test_panel_equals_set),
          TEST(test_panel_keys_and_slider), TEST(test_panel_predators),
          TEST(test_model_switch_from_kit))
