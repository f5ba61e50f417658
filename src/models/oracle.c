/* The registry of the models' oracles (oracle.h): the built-in models' by their enum ids, a
 * loaded model's as its folder's object gave it (world/model_load.c). The geometry they share is
 * oracle_geometry.c. */
#include "models/oracle.h"

#include "core/models.h"

/* Each folder's oracle.c defines boids_oracle_<ID> for its models; a weak reference is NULL
 * where none does, so a model without an oracle builds and the tests name it. */
#define BOIDS_X_ORACLE_DECL(ID, ...)                                                               \
    extern const boids_oracle boids_oracle_##ID __attribute__((weak));
BOIDS_MODEL_LIST(BOIDS_X_ORACLE_DECL)
#undef BOIDS_X_ORACLE_DECL

const boids_oracle *boids_oracle_of(boids_model m)
{
    static const boids_oracle *const table[BOIDS_MODEL_COUNT] = {
#define BOIDS_X_ORACLE_ROW(ID, ...) [BOIDS_MODEL_##ID] = &boids_oracle_##ID,
        BOIDS_MODEL_LIST(BOIDS_X_ORACLE_ROW)
#undef BOIDS_X_ORACLE_ROW
    };
    return (unsigned)m < BOIDS_MODEL_COUNT ? table[m] : boids_model_oracle(m);
}
