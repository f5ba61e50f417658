/* boids_errors.h: every error the library raises, with a stable id, its status and a short text
 * (part of the public API, included by boids.h).
 *
 *   E(ID, status, text)
 *
 * A failing call returns the status; boids_last_error_info() gives the id, the key it is about
 * (a world-definition field, a parameter, a CSV column), the file and line or the boid, and the
 * message. Programs map an error to what the user typed from the id and the key, never from the
 * message's text (the program's boids_cli_origin, src/app/cli/cli.c, does it for the command
 * line and scenario files). */
#ifndef BOIDS_ERRORS_H
#define BOIDS_ERRORS_H

/* Stable status codes, the coarse classes of errors. */
#define BOIDS_STATUS_LIST(S)                                                                       \
    S(BOIDS_OK, "ok")                                                                              \
    S(BOIDS_ERR_INVALID, "invalid argument")                                                       \
    S(BOIDS_ERR_PARSE, "bad input file")                                                           \
    S(BOIDS_ERR_IO, "input/output error")                                                          \
    S(BOIDS_ERR_NO_MEMORY, "out of memory")                                                        \
    S(BOIDS_ERR_NO_GL, "no OpenGL 4.3 context with compute shaders")                               \
    S(BOIDS_ERR_GL, "OpenGL error")                                                                \
    S(BOIDS_ERR_LIMIT, "a limit of the machine was exceeded")                                      \
    S(BOIDS_ERR_INTERNAL, "internal error")                                                        \
    S(BOIDS_ERR_INTERRUPTED, "stopped by a signal")

#define BOIDS_ERROR_LIST(E)                                                                        \
    E(NONE, BOIDS_OK, "no error")                                                                  \
    /* the world definition: key = its field (model, backend, count, swarms, width, dt, ...) */    \
    E(DEF_NULL, BOIDS_ERR_INVALID, "no world definition")                                          \
    E(DEF_MODEL, BOIDS_ERR_INVALID, "unknown model")                                               \
    E(DEF_BACKEND, BOIDS_ERR_INVALID, "unknown backend")                                           \
    E(DEF_COUNT, BOIDS_ERR_INVALID, "too many boids")                                              \
    E(DEF_SWARMS, BOIDS_ERR_INVALID, "swarms out of range")                                        \
    E(DEF_WORLD, BOIDS_ERR_INVALID, "world size out of range")                                     \
    E(DEF_DT, BOIDS_ERR_INVALID, "time step out of range")                                         \
    E(DEF_CELL_SIZE, BOIDS_ERR_INVALID, "grid cell smaller than the largest radius")               \
    E(DEF_NEIGHBORS, BOIDS_ERR_INVALID, "unknown neighbour search")                                \
    E(DEF_THREADS, BOIDS_ERR_INVALID, "thread count out of range")                                 \
    E(DEF_EVENTS, BOIDS_ERR_INVALID, "event capacity out of range")                                \
    E(DEF_STEP_TOO_LONG, BOIDS_ERR_INVALID, "one step would carry a boid across the world")        \
    E(DEF_LAYOUT, BOIDS_ERR_INVALID, "unknown initial layout")                                     \
    E(DEF_REPLICAS, BOIDS_ERR_INVALID, "replicas out of range or not dividing the boids")          \
    E(DEF_OBSTACLE, BOIDS_ERR_INVALID, "an obstacle outside the world or with a bad radius")       \
    /* parameters: key = the parameter's name */                                                   \
    E(MODEL_UNKNOWN, BOIDS_ERR_INVALID, "no model of that name")                                   \
    E(PARAM_UNKNOWN, BOIDS_ERR_INVALID, "the model has no parameter of that name")                 \
    E(PARAM_NOT_NUMBER, BOIDS_ERR_INVALID, "parameter value is not a decimal number")              \
    E(PARAM_NOT_WHOLE, BOIDS_ERR_INVALID, "parameter value is not a whole number")                 \
    E(PARAM_RANGE, BOIDS_ERR_INVALID, "parameter value outside its range")                         \
    E(PARAM_MIN_ABOVE_MAX, BOIDS_ERR_INVALID, "min_speed above max_speed")                         \
    E(PARAM_CONFLICT, BOIDS_ERR_INVALID, "parameters that contradict each other")                  \
    /* written states: index = the boid, key = the field or attribute */                           \
    E(STATE_COUNT, BOIDS_ERR_INVALID, "state of another size than the world")                      \
    E(STATE_NOT_FINITE, BOIDS_ERR_INVALID, "a boid's position or velocity is not finite")          \
    E(STATE_OUTSIDE, BOIDS_ERR_INVALID, "a boid outside the world")                                \
    E(STATE_SPEED, BOIDS_ERR_INVALID, "a boid's velocity beyond the largest allowed")              \
    E(STATE_SWARM, BOIDS_ERR_INVALID, "a boid's swarm not below the world's swarms")               \
    E(STATE_ATTRIBUTE, BOIDS_ERR_INVALID, "a boid's attribute outside its range")                  \
    E(STATE_CORRUPT, BOIDS_ERR_INTERNAL, "a step produced a non-finite state")                     \
    E(PREDATOR_STATE, BOIDS_ERR_INVALID, "a predator's state out of range")                        \
    E(NO_PREDATORS, BOIDS_ERR_INVALID, "the model has no predators")                               \
    E(TOOL, BOIDS_ERR_INVALID, "bad mouse tool")                                                   \
    E(ARGUMENT, BOIDS_ERR_INVALID, "invalid argument")                                             \
    E(FORKED, BOIDS_ERR_INVALID, "a world or GPU used in a process forked from its creator")       \
    E(USAGE, BOIDS_ERR_INVALID, "bad command line (the program's own checks)")                     \
    /* files: path and line set */                                                                 \
    E(FILE_OPEN, BOIDS_ERR_IO, "cannot open the file")                                             \
    E(FILE_READ, BOIDS_ERR_IO, "cannot read the file")                                             \
    E(FILE_WRITE, BOIDS_ERR_IO, "cannot write the file")                                           \
    E(CSV_HEADER, BOIDS_ERR_PARSE, "bad CSV header")                                               \
    E(CSV_ROW, BOIDS_ERR_PARSE, "bad CSV row")                                                     \
    E(CSV_VALUE, BOIDS_ERR_PARSE, "bad CSV value")                                                 \
    E(CSV_ID, BOIDS_ERR_PARSE, "bad or repeated boid id")                                          \
    E(SCENARIO_SYNTAX, BOIDS_ERR_PARSE, "a scenario line that is not key = value")                 \
    E(SCENARIO_KEY, BOIDS_ERR_PARSE, "unknown scenario key")                                       \
    E(SCENARIO_VALUE, BOIDS_ERR_PARSE, "bad scenario value")                                       \
    /* the machine */                                                                              \
    E(NO_MEMORY, BOIDS_ERR_NO_MEMORY, "out of memory")                                             \
    E(NO_GL, BOIDS_ERR_NO_GL, "no OpenGL 4.3 context")                                             \
    E(GL, BOIDS_ERR_GL, "OpenGL error")                                                            \
    E(SHADER, BOIDS_ERR_GL, "a shader failed to compile or link")                                  \
    E(GPU_LOOP_LIMIT, BOIDS_ERR_LIMIT, "a neighbourhood too dense for one shader invocation")      \
    E(GPU_CORRUPT, BOIDS_ERR_GL, "the GPU state is corrupt")                                       \
    E(GPU_LIMIT, BOIDS_ERR_LIMIT, "a world larger than the GPU driver allows")                     \
    E(ENVIRONMENT, BOIDS_ERR_INVALID, "an environment variable with a bad value")                  \
    E(GRID_TOO_LARGE, BOIDS_ERR_LIMIT, "a grid too large to scan")                                 \
    E(EVENTS_LOST, BOIDS_ERR_LIMIT, "events were lost: more than the event buffer holds")          \
    E(EXPORT_SIZE, BOIDS_ERR_INVALID, "frame size out of range")                                   \
    E(EXPORT, BOIDS_ERR_IO, "writing frames failed")                                               \
    E(INTERRUPTED, BOIDS_ERR_INTERRUPTED, "stopped by a signal (Ctrl-C, SIGTERM)")                 \
    E(INTERNAL, BOIDS_ERR_INTERNAL, "internal error")                                              \
    /* added since, last, so the ids above keep their values */                                    \
    E(DEF_NEAREST, BOIDS_ERR_INVALID, "nearest neighbours out of range, or not the model's")       \
    /* loading a model folder (boids_model_load): path = the folder or its file, key = the name */ \
    E(MODEL_FOLDER, BOIDS_ERR_INVALID, "not a model folder, or one that cannot be loaded")         \
    E(MODEL_COMPILER, BOIDS_ERR_IO, "no C compiler to build a loaded model's CPU rules")           \
    E(MODEL_COMPILE, BOIDS_ERR_PARSE, "a loaded model's files do not compile")                     \
    E(MODEL_MANIFEST, BOIDS_ERR_PARSE, "a loaded model's manifest or parameters are invalid")      \
    E(MODEL_DUPLICATE, BOIDS_ERR_INVALID, "a model or parameter name that is taken")               \
    E(MODEL_CACHE, BOIDS_ERR_IO, "the compiled models' cache cannot be used")

#endif /* BOIDS_ERRORS_H */
