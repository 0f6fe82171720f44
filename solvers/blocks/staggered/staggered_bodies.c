/* staggered_bodies.c — free and pinned bodies inside the p^v solve (body_load "implicit"; not
 * He et al.'s: their Alg. 1 moves the bodies after the solve, staggered.c's head comment).
 *
 * A fluid row i touches body k through its imposed staggered particles P_{i-j}, j a particle of
 * the body. Their velocity is the body's condition, so the divergence of eq. 10 depends on the
 * body's velocity (U, w): with u_j = U + w x (x_j - X) and e_ij = V_{i-j} |W'(r_ij/2)|,
 *     d div_i / d u_j = e_ij a_ij,   a_ij = (n_ij . n^s) n^s (free slip, eq. 27), n_ij (no slip),
 * and its row of D (the body's column of the divergence) is
 *     D_ik = (f, t) = (sum_j e_ij a_ij, sum_j (x_j - X) x e_ij a_ij).
 * The pressure's impulse on the body is the adjoint, scaled: c D_k^T lambda with lambda = h p and
 * c = kappa l^d, kappa such that a flat wall of the ideal lattice takes exactly p A (the lattice
 * sum below: the divergence's pair weights are the kernel's, not a surface integral). The
 * body's velocity then changes by M_k^-1 c D_k^T lambda, and the divergence of its rows with it,
 * so the rows ask
 *     (A + c sum_k D_k M_k^-1 D_k^T) lambda = b,
 * symmetric positive semi-definite like A: the coupled pressure projection of Batty, Bertails &
 * Bridson (ACM Trans. Graph. 26(3) 100, 2007), which He et al. cite, on the staggered operator.
 * M_k^-1 is the body's inverse mass with its locks and its world inverse inertia (core/body.h).
 * A pinned body is treated as free here; its pin is the contact stage's. Only imposed staggered
 * particles couple: with no_sticking, a pair left free keeps the body's velocity from before the
 * solve in its mixed velocity (eq. 8).
 *
 * The block keeps y = A' lambda: the diagonal carries c D_rk M^-1 D_rk^T, apply and the sweep add
 * the coupling through each body's rows, and assemble writes it as a dense block over the rows of
 * each body, merged with the pair entries. After the solve the imposed changes of a body's
 * staggered particles take the body's velocity change before the remap, and the body takes
 * c lambda_i e_ij a_ij on each particle j (boundary_impulses), which is exactly M^-1 c D^T lambda.
 * Fixed and scripted bodies stay walls (their velocity is known); the same impulse on them is
 * recorded for drag and lift. Serial and in a fixed order throughout (deterministic). */
#include <math.h>
#include <stdlib.h>

#include "core/body.h"
#include "solvers/blocks/staggered/staggered.h"

double vbc_staggered_body_scale(const vbc_sph_kernel *k, int dim, double l) {
  const int n = (int)ceil(k->H / l), zn = dim == 3 ? n : 0;
  size_t count = 0;
  for (int a = -n; a <= n; ++a)
    for (int b = -n; b <= n; ++b)
      for (int c = -zn; c <= zn; ++c)
        count += vbc_staggered_pair(l * sqrt((double)(a * a + b * b + c * c)), k->H);
  const double V0 = dim == 3 ? l * l * l : l * l, Vij = 2.0 * V0 / (double)count;
  double sum = 0.0; /* fluid layers y = 1..n above a solid filling y <= 0; per column */
  for (int y = 1; y <= n; ++y)
    for (int a = -n; a <= n; ++a)
      for (int b = -n; b <= n; ++b)
        for (int c = -zn; c <= zn; ++c) {
          const double r = l * sqrt((double)(a * a + b * b + c * c));
          if (y + b > 0 || !vbc_staggered_pair(r, k->H)) continue;
          sum += V0 * Vij * fabs(vbc_sph_dW(k, 0.5 * r)) * (-(double)b * l / r);
        }
  return V0 * (dim == 3 ? l * l : l) / sum;
}

static int grow(void **ptr, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return 1;
  size_t c = *cap ? *cap : 64;
  while (c < need) c *= 2;
  void *q = realloc(*ptr, c * size);
  if (q == NULL) return 0;
  *ptr = q, *cap = c;
  return 1;
}

/* Whether pair q (particle j) couples to body k. */
static inline int of_body(const vbc_system *sys, const vbc_staggered_state *s, size_t j, size_t k,
                          size_t q) {
  const vbc_particles *p = sys->particles;
  return p->kind[j] == VBC_RIGID && (size_t)p->body[j] == k && vbc_vec_norm2(s->body_a[q]) > 0.0;
}

/* Row r's links, appended at s->links[s->nlinks...]: one per movable body it touches. */
static int link_row(vbc_staggered_state *s, const vbc_system *sys, size_t r) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  const size_t i = s->particle_of[r], first = s->nlinks;
  for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
    const size_t j = nb->index[q];
    if (p->kind[j] != VBC_RIGID || vbc_vec_norm2(s->body_a[q]) == 0.0) continue;
    const size_t k = p->body[j];
    const vbc_body *b = &sys->bodies[k];
    if (!vbc_body_movable(b)) continue;
    size_t a = first;
    while (a < s->nlinks && s->links[a].body != k) ++a;
    if (a == s->nlinks) {
      if (!grow((void **)&s->links, &s->cap_links, s->nlinks + 1, sizeof *s->links)) return 0;
      s->links[s->nlinks++] = (vbc_staggered_link){.row = r, .body = k};
    }
    vbc_staggered_link *l = &s->links[a];
    l->f = vbc_vec_add(l->f, s->body_a[q]);
    l->t = vbc_vec_add(l->t, vbc_vec_cross(vbc_vec_sub(p->pos[j], b->x), s->body_a[q]));
  }
  return 1;
}

int vbc_staggered_link_bodies(vbc_staggered_state *s, const vbc_system *sys, vbc_rows *rows,
                              vbc_error *err) {
  const size_t nb_bodies = sys->nbodies;
  s->nlinks = 0;
  if (!grow((void **)&s->row_first, &s->cap_row_first, s->nrows + 1, sizeof *s->row_first) ||
      !grow((void **)&s->body_first, &s->cap_body_first, nb_bodies + 1, sizeof *s->body_first))
    goto oom;
  for (size_t r = 0; r < s->nrows; ++r)
    if (!link_row(s, sys, r)) goto oom;
  /* group by body, rows ascending within each (a stable counting sort) */
  const size_t n = s->nlinks;
  if (!grow((void **)&s->links, &s->cap_links, 2 * n + 1, sizeof *s->links)) goto oom;
  vbc_staggered_link *src = s->links + n;
  for (size_t a = 0; a < n; ++a) src[a] = s->links[a];
  for (size_t k = 0; k <= nb_bodies; ++k) s->body_first[k] = 0;
  for (size_t a = 0; a < n; ++a) ++s->body_first[src[a].body + 1];
  for (size_t k = 0; k < nb_bodies; ++k) s->body_first[k + 1] += s->body_first[k];
  for (size_t a = 0; a < n; ++a) s->links[s->body_first[src[a].body]++] = src[a];
  for (size_t k = nb_bodies; k > 0; --k) s->body_first[k] = s->body_first[k - 1];
  s->body_first[0] = 0;
  for (size_t r = 0; r < s->nrows; ++r) s->row_first[r] = -1;
  for (size_t a = n; a-- > 0;) {
    vbc_staggered_link *l = &s->links[a];
    const vbc_body *b = &sys->bodies[l->body];
    l->du = vbc_vec_scale(vbc_body_unlocked(b, l->f), b->inv_mass); /* M^-1 (f, t) */
    l->dw = vbc_mat3_mul(&b->inv_inertia, l->t);
    l->next = s->row_first[l->row], s->row_first[l->row] = (long)a;
  }
  for (size_t a = 0; a < n; ++a) {
    const vbc_staggered_link *l = &s->links[a];
    rows->diag[l->row] += s->body_scale * (vbc_vec_dot(l->f, l->du) + vbc_vec_dot(l->t, l->dw));
  }
  return VBC_OK;
oom:
  vbc_error_set(err, VBC_EXIT_SYSTEM, "staggered: out of memory coupling the bodies");
  return err->code;
}

/* c D_m M^-1 D_l^T: the coupling between the rows of links m and l of one body. */
static inline double couple(const vbc_staggered_state *s, const vbc_staggered_link *m,
                            const vbc_staggered_link *l) {
  return s->body_scale * (vbc_vec_dot(m->f, l->du) + vbc_vec_dot(m->t, l->dw));
}

/* The velocity change (du, dw) of body k for the row values x: M^-1 c D_k^T x. */
static void body_change(const vbc_staggered_state *s, size_t k, const double *x, vbc_vec *du,
                        vbc_vec *dw) {
  *du = *dw = vbc_vec_zero();
  for (size_t a = s->body_first[k]; a < s->body_first[k + 1]; ++a) {
    const vbc_staggered_link *l = &s->links[a];
    *du = vbc_vec_axpy(*du, s->body_scale * x[l->row], l->du);
    *dw = vbc_vec_axpy(*dw, s->body_scale * x[l->row], l->dw);
  }
}

void vbc_staggered_bodies_apply(const vbc_staggered_state *s, size_t nbodies, const double *d) {
  for (size_t k = 0; k < nbodies; ++k) {
    vbc_vec du, dw;
    body_change(s, k, d, &du, &dw);
    for (size_t a = s->body_first[k]; a < s->body_first[k + 1]; ++a) {
      const vbc_staggered_link *l = &s->links[a];
      /* the pair pass added the whole diagonal, this link's own coupling included */
      s->y[l->row] += vbc_vec_dot(l->f, du) + vbc_vec_dot(l->t, dw) - couple(s, l, l) * d[l->row];
    }
  }
}

void vbc_staggered_bodies_row_changed(const vbc_staggered_state *s, size_t r, double delta) {
  for (long a = s->row_first[r]; a >= 0; a = s->links[a].next) {
    const vbc_staggered_link *l = &s->links[a];
    for (size_t b = s->body_first[l->body]; b < s->body_first[l->body + 1]; ++b)
      if (b != (size_t)a) s->y[s->links[b].row] += couple(s, &s->links[b], l) * delta;
  }
}

int vbc_staggered_bodies_assemble(const vbc_staggered_state *s, const vbc_neighbors *nb,
                                  const vbc_rows *rows, vbc_sparse *A, vbc_error *err) {
  long *at = malloc((rows->n + 1) * sizeof *at); /* per row: its entry in the row being built */
  if (at == NULL) {
    vbc_error_set(err, VBC_EXIT_SYSTEM, "staggered: out of memory assembling the bodies' coupling");
    return err->code;
  }
  size_t nnz = 0;
  for (size_t r = 0; r < rows->n; ++r) {
    const size_t i = s->particle_of[r];
    nnz += 1 + (nb->start[i + 1] - nb->start[i]);
    for (long a = s->row_first[r]; a >= 0; a = s->links[a].next)
      nnz += s->body_first[s->links[a].body + 1] - s->body_first[s->links[a].body];
  }
  if (vbc_sparse_reserve(A, rows->n, nnz, err) != VBC_OK) {
    free(at);
    return err->code;
  }
  for (size_t r = 0; r < rows->n; ++r) at[r] = -1;
  size_t e = 0;
  for (size_t r = 0; r < rows->n; ++r) {
    const size_t i = s->particle_of[r], first = e;
    A->start[r] = e;
    A->col[e] = r, A->val[e] = rows->diag[r], at[r] = (long)e++;
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
      const long rj = s->row_of[nb->index[q]];
      if (rj < 0 || s->coef[q] == 0.0) continue;
      A->col[e] = (size_t)rj, A->val[e] = -s->coef[q], at[rj] = (long)e++;
    }
    for (long a = s->row_first[r]; a >= 0; a = s->links[a].next) {
      const vbc_staggered_link *l = &s->links[a];
      for (size_t b = s->body_first[l->body]; b < s->body_first[l->body + 1]; ++b) {
        const size_t m = s->links[b].row;
        if (b == (size_t)a) continue; /* on the diagonal already */
        const double v = couple(s, &s->links[b], l);
        if (at[m] >= 0) {
          A->val[at[m]] += v;
        } else {
          A->col[e] = m, A->val[e] = v, at[m] = (long)e++;
        }
      }
    }
    for (size_t x = first; x < e; ++x) at[A->col[x]] = -1;
  }
  free(at);
  A->start[rows->n] = e;
  A->nnz = e;
  A->nrows = A->ndofs = rows->n;
  return VBC_OK;
}

void vbc_staggered_bodies_finish(vbc_staggered_state *s, const vbc_system *sys,
                                 const vbc_rows *rows) {
  const vbc_particles *p = sys->particles;
  const vbc_neighbors *nb = sys->nbrs;
  for (size_t k = 0; k < sys->nbodies; ++k) {
    if (s->body_first[k] == s->body_first[k + 1]) continue;
    const vbc_body *b = &sys->bodies[k];
    vbc_vec du, dw;
    body_change(s, k, rows->impulse, &du, &dw);
    for (size_t a = s->body_first[k]; a < s->body_first[k + 1]; ++a) {
      const size_t i = s->particle_of[s->links[a].row];
      for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q) {
        const size_t j = nb->index[q];
        if (!of_body(sys, s, j, k, q)) continue;
        vbc_vec duj = vbc_vec_add(du, vbc_vec_cross(dw, vbc_vec_sub(p->pos[j], b->x)));
        if (!s->wall_share) /* the mixed particle's change: i's share of P_{i-j} (eq. 8) */
          duj = vbc_vec_scale(duj, s->count[j] / (s->count[i] + s->count[j]));
        if (s->body_no_slip) { /* eq. 26: the particle's share follows the solid */
          s->wall_dv[q] = vbc_vec_add(s->wall_dv[q], duj);
          const double len = vbc_vec_norm(s->wall_dv[q]);
          if (len > 0.0) s->wall_dir[q] = vbc_vec_scale(s->wall_dv[q], 1.0 / len);
        } else { /* eq. 27: its normal part does */
          const vbc_vec ns = s->wall_dir[q];
          s->wall_dv[q] = vbc_vec_axpy(s->wall_dv[q], vbc_vec_dot(duj, ns), ns);
        }
      }
    }
  }
}

void vbc_staggered_bodies_impulses(const vbc_staggered_state *s, const vbc_system *sys,
                                   const vbc_rows *rows, vbc_vec *impulse) {
  const vbc_neighbors *nb = sys->nbrs;
  for (size_t r = 0; r < s->nrows; ++r) {
    const double lambda = rows->impulse[r];
    if (lambda == 0.0) continue;
    const size_t i = s->particle_of[r];
    for (size_t q = nb->start[i]; q < nb->start[i + 1]; ++q)
      if (vbc_vec_norm2(s->body_a[q]) > 0.0)
        impulse[nb->index[q]] = vbc_vec_axpy(impulse[nb->index[q]], s->body_scale * lambda,
                                             s->body_a[q]);
  }
}
