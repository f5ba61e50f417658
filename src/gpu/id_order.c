#include "gpu/id_order.h"

#include <string.h>

#include "boids_shared.h"

#include "gl/context.h"
#include "gl/program.h"
#include "gpu/buffers.h"

void boids_gpu_id_order_free(boids_gpu_id_order *o)
{
    if (o->prog) glDeleteProgram(o->prog);
    GLuint bufs[] = {o->columns, o->columns_z, o->swarm, o->marks};
    boids_gpu_delete(bufs, sizeof bufs / sizeof bufs[0]);
    memset(o, 0, sizeof *o);
}

uint64_t boids_gpu_id_order_bytes(const boids_gpu_id_order *o)
{
    const GLuint bufs[] = {o->columns, o->columns_z, o->swarm, o->marks};
    return boids_gpu_buffers_bytes(bufs, sizeof bufs / sizeof bufs[0]);
}

/* The program once; buffers for at least `count` agents, their marks all 0 (no stamp's). */
static boids_status prepare(boids_gpu_id_order *o, uint32_t count)
{
    if (!o->prog) {
        boids_status st = boids_program_compute("id_order.comp", o->dims == 3 ? 3 : 2, &o->prog);
        if (st != BOIDS_OK) return st;
        o->u_stamp = glGetUniformLocation(o->prog, "u_stamp");
        o->u_agents = glGetUniformLocation(o->prog, "u_agents");
    }
    if (!o->columns || o->capacity < count) {
        GLuint bufs[] = {o->columns, o->columns_z, o->swarm, o->marks};
        boids_gpu_delete(bufs, sizeof bufs / sizeof bufs[0]);
        /* none larger than the state's pos_vel, whose size a driver took */
        o->columns = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(float) * 4 * count);
        o->columns_z = o->dims == 3
                           ? boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(float) * 2 * count)
                           : 0;
        o->swarm = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(uint32_t) * count);
        o->marks = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(uint32_t) * count);
        o->capacity = count;
        o->stamp = 0;
    }
    if (o->stamp == 0 || o->stamp == UINT32_MAX) { /* new marks, or the stamps ran out */
        boids_gpu_clear(o->marks);
        o->stamp = 0;
    }
    return BOIDS_OK;
}

boids_status boids_gpu_id_order_run(boids_gpu_id_order *o, uint32_t which, uint32_t count,
                                    boids_gpu_hot slots)
{
    boids_status st = prepare(o, count ? count : 1);
    if (st != BOIDS_OK) return st;
    ++o->stamp;
    glUseProgram(o->prog);
    glUniform1ui(o->u_stamp, o->stamp);
    glUniform1ui(o->u_agents, which);
    boids_gpu_bind_pos_vel(BOIDS_BIND_POS_VEL_IN, BOIDS_BIND_POS_VEL_Z_IN, slots.pos_vel,
                           slots.depth);
    boids_gpu_bind(BOIDS_BIND_SWARM_IN, slots.swarm);
    boids_gpu_bind(BOIDS_BIND_ID_IN, slots.id);
    boids_gpu_bind(BOIDS_BIND_ORDER_COLUMNS, o->columns);
    boids_gpu_bind(BOIDS_BIND_ORDER_SWARM, o->swarm);
    boids_gpu_bind(BOIDS_BIND_ORDER_MARKS, o->marks);
    if (o->columns_z) boids_gpu_bind(BOIDS_BIND_ORDER_COLUMNS_Z, o->columns_z);
    if (count) boids_gpu_dispatch("the state in id order", boids_gpu_groups(count, BOIDS_WG_SIZE));
    glUseProgram(0);
    return boids_gl_check("ordering the state by id");
}
