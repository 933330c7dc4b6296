/* Joint sizes, joint transforms, configuration integration, random states and
 * the user <-> internal (depth-first) renumbering of vectors. */
#include <math.h>
#include "model/joint.h"

int rbd_joint_nq(rbd_joint_type t)
{
    static const int nq[RBD_JOINT_NTYPES] = { 1, 1, 4, 7, 2 };
    return t >= 0 && t < RBD_JOINT_NTYPES ? nq[t] : 0;
}

int rbd_joint_nv(rbd_joint_type t)
{
    static const int nv[RBD_JOINT_NTYPES] = { 1, 1, 3, 6, 1 };
    return t >= 0 && t < RBD_JOINT_NTYPES ? nv[t] : 0;
}

const char *rbd_joint_type_name(rbd_joint_type t)
{
    static const char *name[RBD_JOINT_NTYPES] = { "revolute", "prismatic", "spherical", "freeflyer",
                                                      "continuous" };
    return t >= 0 && t < RBD_JOINT_NTYPES ? name[t] : "unknown";
}

void rbd_jcalc(const rbd_model *m, int i, const double *q, sp_xform *XJ)
{
    sp_jcalc_joint(&m->joint[i], q + m->idx_q[i], XJ);
}

void rbd_integrate(const rbd_model *m, const double *q, const double *dv, double h, double *q_out)
{
    for (int i = 0; i < m->nb; i++)
        sp_integrate_joint(&m->joint[i], q + m->idx_q[i], dv + m->idx_v[i], h, q_out + m->idx_q[i]);
}

void rbd_neutral(const rbd_model *m, double *q)
{
    for (int i = 0; i < m->nb; i++) {
        double *qi = q + m->idx_q[i];
        for (int k = 0; k < m->nq_of[i]; k++) qi[k] = 0;
        switch (m->joint[i].type) {
        case RBD_JOINT_CONTINUOUS: qi[0] = 1; break;
        case RBD_JOINT_SPHERICAL: qi[3] = 1; break;
        case RBD_JOINT_FREEFLYER: qi[6] = 1; break;
        default: break;
        }
    }
}

/* xoshiro256** (Blackman & Vigna), seeded through splitmix64. */
static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rbd_rng_seed(rbd_rng *r, uint64_t seed)
{
    for (int k = 0; k < 4; k++) r->s[k] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t rng_next(rbd_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t; s[3] = rotl(s[3], 45);
    return result;
}

double rbd_rng_uniform(rbd_rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-52 - 1.0;
}

void rbd_random_state(const rbd_model *m, rbd_rng *r, double *q, double *v, double *a, double *tau)
{
    for (int i = 0; i < m->nb; i++) {
        double *qi = q + m->idx_q[i];
        switch (m->joint[i].type) {
        case RBD_JOINT_SPHERICAL:
        case RBD_JOINT_FREEFLYER: {
            int o = m->joint[i].type == RBD_JOINT_FREEFLYER ? 3 : 0;
            for (int k = 0; k < o; k++) qi[k] = rbd_rng_uniform(r);
            /* uniform on S^3: normalise a Gaussian-free draw by rejection */
            double n2;
            do {
                n2 = 0;
                for (int k = 0; k < 4; k++) { qi[o + k] = rbd_rng_uniform(r); n2 += qi[o + k] * qi[o + k]; }
            } while (n2 > 1 || n2 < 1e-4);
            for (int k = 0; k < 4; k++) qi[o + k] /= sqrt(n2);
            break;
        }
        case RBD_JOINT_CONTINUOUS: {
            /* the angle takes the draw a revolute joint would: the same seed
             * gives the same configuration whichever way the joint is loaded */
            double t = rbd_rng_uniform(r);
            qi[0] = cos(t); qi[1] = sin(t);
            break;
        }
        default:
            qi[0] = rbd_rng_uniform(r);
            break;
        }
    }
    double *vec[3] = { v, a, tau };
    for (int w = 0; w < 3; w++)
        if (vec[w])
            for (int k = 0; k < m->nv; k++) vec[w][k] = rbd_rng_uniform(r);
}

void rbd_q_from_user(const rbd_model *m, const double *user, double *internal)
{
    for (int k = 0; k < m->nq; k++) internal[k] = user[m->user_q[k]];
}

void rbd_q_to_user(const rbd_model *m, const double *internal, double *user)
{
    for (int k = 0; k < m->nq; k++) user[m->user_q[k]] = internal[k];
}

void rbd_v_from_user(const rbd_model *m, const double *user, double *internal)
{
    for (int k = 0; k < m->nv; k++) internal[k] = user[m->user_v[k]];
}

void rbd_v_to_user(const rbd_model *m, const double *internal, double *user)
{
    for (int k = 0; k < m->nv; k++) user[m->user_v[k]] = internal[k];
}

void rbd_mat_to_user(const rbd_model *m, const double *internal, double *user)
{
    int n = m->nv;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) user[m->user_v[i] + (size_t)n * m->user_v[j]] = internal[i + (size_t)n * j];
}
