/* The viewer's keys and mouse, one row each: what it is, what it does, and the function that does
 * it. The viewer's dispatch (app/viewer/viewer.c), its help overlay (app/viewer/overlay.c) and
 * `boids --help` (app/cli/cli.c) all read this table, so the three cannot disagree. A file that
 * expands it for the labels alone needs no GLFW: the key and action columns are then never
 * expanded.
 *
 *   K(key, other key, shift, repeats, label, help, action)
 *
 *   key        the GLFW key; 0 for a mouse row (help only: the mouse callbacks act)
 *   other key  a second key that does the same (keypad, the other arrow), or 0
 *   shift      SHIFT: the row of the key pressed with Shift; ANY: the key with or without it
 *              (the action is told which), but for Shift where the key has a SHIFT row
 *   repeats    REPEAT: acts again while the key is held; ONCE: once per press
 *   action     static void action(viewer *v, int key, bool shift), in viewer.c
 */
#ifndef BOIDS_APP_CLI_KEYS_H
#define BOIDS_APP_CLI_KEYS_H

/* clang-format off */
#define BOIDS_VIEWER_KEYS(K)                                                                       \
    K(GLFW_KEY_SPACE, 0, ANY, ONCE, "Space", "pause / resume", key_pause)                         \
    K(GLFW_KEY_N, 0, ANY, ONCE, "N", "one step", key_step)                                         \
    K(GLFW_KEY_R, 0, ANY, ONCE, "R", "reset (same seed)", key_reset)                               \
    K(GLFW_KEY_R, 0, SHIFT, ONCE, "Shift+R", "reset with a new seed", key_reset)                   \
    K(GLFW_KEY_M, 0, ANY, ONCE, "M", "next model", key_model)                                      \
    K(GLFW_KEY_M, 0, SHIFT, ONCE, "Shift+M", "previous model", key_model)                          \
    K(GLFW_KEY_BACKSPACE, 0, ANY, ONCE, "Backspace", "the model's preset again", key_preset)       \
    K(GLFW_KEY_EQUAL, GLFW_KEY_KP_ADD, ANY, ONCE, "=", "double the boids", key_resize)             \
    K(GLFW_KEY_MINUS, GLFW_KEY_KP_SUBTRACT, ANY, ONCE, "-", "halve the boids", key_resize)         \
    K(GLFW_KEY_LEFT_BRACKET, 0, ANY, ONCE, "[", "slower", key_speed)                               \
    K(GLFW_KEY_RIGHT_BRACKET, 0, ANY, ONCE, "]", "faster", key_speed)                              \
    K(GLFW_KEY_C, 0, ANY, ONCE, "C", "colour: swarm, heading, speed, age", key_colour)             \
    K(GLFW_KEY_T, 0, ANY, ONCE, "T", "mouse tool (Shift+T: back)", key_tool)                       \
    K(0, 0, ANY, ONCE, "left button", "the tool: attract, repel (held), obstacle, predator", NULL) \
    K(0, 0, ANY, ONCE, "Shift+click", "removes an obstacle", NULL)                                 \
    K(GLFW_KEY_TAB, 0, ANY, ONCE, "Tab", "parameter panel", key_panel)                             \
    K(GLFW_KEY_UP, GLFW_KEY_DOWN, ANY, REPEAT, "Up / Down", "choose a parameter", key_select)      \
    K(GLFW_KEY_LEFT, GLFW_KEY_RIGHT, ANY, REPEAT, "Left / Right", "change it (Shift: coarse)",     \
      key_nudge)                                                                                   \
    K(0, 0, ANY, ONCE, "drag, click", "a slider, a switch", NULL)                                  \
    K(0, 0, ANY, ONCE, "wheel", "zoom at the cursor", NULL)                                        \
    K(0, 0, ANY, ONCE, "drag", "pan (the right button anywhere)", NULL)                            \
    K(GLFW_KEY_HOME, 0, ANY, ONCE, "Home", "fit the world", key_fit)                               \
    K(GLFW_KEY_V, 0, ANY, ONCE, "V", "vsync on / off", key_vsync)                                  \
    K(GLFW_KEY_G, 0, ANY, ONCE, "G", "live plot: polarization, nearest neighbour", key_plot)       \
    K(GLFW_KEY_I, 0, ANY, ONCE, "I", "time of each pass", key_passes)                              \
    K(GLFW_KEY_P, 0, ANY, ONCE, "P", "screenshot", key_screenshot)                                 \
    K(GLFW_KEY_P, 0, SHIFT, ONCE, "Shift+P", "screenshot without HUD or panel", key_screenshot)    \
    K(GLFW_KEY_O, 0, ANY, ONCE, "O", "record PNG frames on / off", key_record)                     \
    K(GLFW_KEY_S, 0, ANY, ONCE, "S", "save the parameters as a scenario", key_save)                \
    K(GLFW_KEY_D, 0, ANY, ONCE, "D", "dump the state as CSV (--init reads it)", key_dump)          \
    K(GLFW_KEY_H, GLFW_KEY_F1, ANY, ONCE, "H, F1", "this help", key_help)                          \
    K(GLFW_KEY_ESCAPE, 0, ANY, ONCE, "Esc", "close the help, else quit", key_escape)               \
    K(GLFW_KEY_Q, 0, ANY, ONCE, "Q", "quit", key_quit)
/* clang-format on */

/* The rows' labels and help, in order (for a file that shows them without GLFW). */
typedef struct boids_viewer_key_text {
    const char *label, *help;
} boids_viewer_key_text;
#define BOIDS_VIEWER_KEY_TEXT(key, key2, shift, repeats, label, help, action) {label, help},

#endif
