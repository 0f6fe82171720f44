/* state_file.c — see state_file.h. The reader loads the whole file and parses it with a cursor
 * that knows how many bytes remain, so a truncated file is reported as such wherever it ends, and
 * nothing is allocated from a header the file cannot back. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/files.h"
#include "sim/state_file.h"

static const char state_magic[8] = {'V', 'B', 'C', 'S', 'T', 'A', 'T', 'E'};
#define BYTE_ORDER_MARK 0x01020304u
#define MAX_SECTION_NAME 64

/* ---- writing ---- */

static int put(vbc_file *f, const void *data, size_t size) {
  return size == 0 || fwrite(data, size, 1, f->f) == 1;
}
static int put_u32(vbc_file *f, uint32_t v) { return put(f, &v, sizeof v); }
static int put_u64(vbc_file *f, uint64_t v) { return put(f, &v, sizeof v); }
static int put_name(vbc_file *f, const char *s) {
  size_t n = strlen(s);
  return put_u32(f, (uint32_t)n) && put(f, s, n);
}

static int put_header(vbc_file *f, const vbc_state_header *h, size_t nsections) {
  int64_t step = h->step;
  return put(f, state_magic, sizeof state_magic) && put_u32(f, VBC_STATE_VERSION) &&
         put_u32(f, BYTE_ORDER_MARK) && put_u32(f, (uint32_t)h->dim) && put_u64(f, h->n) &&
         put(f, &step, sizeof step) && put(f, &h->time, sizeof h->time) &&
         put(f, &h->spacing, sizeof h->spacing) && put(f, &h->dt, sizeof h->dt) &&
         put_name(f, h->scene) && put_u32(f, (uint32_t)nsections);
}

int vbc_state_write_sections(const char *path, const vbc_state_header *h,
                             const vbc_state_section *sections, size_t nsections,
                             vbc_error *err) {
  vbc_file f;
  if (vbc_file_open(&f, path, ".tmp", err) != VBC_OK) return err->code;
  int ok = put_header(&f, h, nsections);
  for (size_t s = 0; s < nsections && ok; ++s) {
    const vbc_state_section *sec = &sections[s];
    ok = put_name(&f, sec->name) && put_u64(&f, sec->count) && put_u64(&f, sec->size) &&
         put(&f, sec->data, sec->count * sec->size);
  }
  if (!ok) {
    int e = errno;
    vbc_file_discard(&f);
    return vbc_error_set(err, VBC_EXIT_SYSTEM, "%s: cannot write: %s", path, strerror(e));
  }
  return vbc_file_commit(&f, err);
}

vbc_state_header vbc_state_header_of(const vbc_sim *sim) {
  vbc_state_header h = {.dim = sim->sys.dim, .n = sim->particles.n, .step = sim->step,
                        .time = sim->time, .spacing = sim->sys.spacing,
                        .dt = sim->scene->dt}; /* the scene's, even where steps adapt */
  snprintf(h.scene, sizeof h.scene, "%s", sim->scene->name);
  return h;
}

size_t vbc_state_particle_sections(const vbc_sim *sim, vbc_vec domain[2],
                                   vbc_state_section *s) {
  const vbc_particles *p = &sim->particles;
  domain[0] = sim->domain_min;
  domain[1] = sim->domain_max;
  const vbc_state_section all[VBC_STATE_PARTICLE_SECTIONS] = {
      {"pos", p->n, sizeof *p->pos, p->pos},
      {"vel", p->n, sizeof *p->vel, p->vel},
      {"kind", p->n, sizeof *p->kind, p->kind},
      {"body", p->n, sizeof *p->body, p->body},
      {"pressure", p->n, sizeof *p->pressure, p->pressure},
      {"pressure_smoothed", p->n, sizeof *p->pressure_smoothed, p->pressure_smoothed},
      {"number_density", p->n, sizeof *p->number_density, p->number_density},
      {"domain", 2, sizeof *domain, domain},
  };
  memcpy(s, all, sizeof all);
  return VBC_STATE_PARTICLE_SECTIONS;
}

int vbc_state_write(const char *path, const vbc_sim *sim, vbc_error *err) {
  const vbc_state_header h = vbc_state_header_of(sim);
  vbc_vec domain[2];
  vbc_state_section s[VBC_STATE_PARTICLE_SECTIONS];
  const size_t n = vbc_state_particle_sections(sim, domain, s);
  return vbc_state_write_sections(path, &h, s, n, err);
}

/* ---- reading ---- */

typedef struct cursor {
  const unsigned char *p;
  size_t left;
  const char *path;
  vbc_error *err;
} cursor;

static const void *take(cursor *c, size_t n, const char *what) {
  if (n > c->left) {
    vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: truncated: the file ends inside %s (%zu of %zu "
                  "bytes present)", c->path, what, c->left, n);
    return NULL;
  }
  const void *q = c->p;
  c->p += n;
  c->left -= n;
  return q;
}

static int take_into(cursor *c, void *dst, size_t n, const char *what) {
  const void *q = take(c, n, what);
  if (q) memcpy(dst, q, n);
  return q != NULL;
}

static int bad(cursor *c, const char *what, const char *detail) {
  return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: %s: %s", c->path, what, detail);
}

static int read_magic(cursor *c) {
  if (c->left < sizeof state_magic || memcmp(c->p, state_magic, sizeof state_magic) != 0)
    return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: not a vbc state file (expected it to start "
                         "with \"VBCSTATE\", as `vbc run --dump-state` writes)", c->path);
  take(c, sizeof state_magic, "the magic");
  uint32_t version, mark;
  if (!take_into(c, &version, 4, "the header") || !take_into(c, &mark, 4, "the header"))
    return c->err->code;
  if (version != VBC_STATE_VERSION)
    return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: state format version %u, this vbc reads "
                         "version %u", c->path, version, VBC_STATE_VERSION);
  if (mark != BYTE_ORDER_MARK)
    return bad(c, "header", "byte-order mark does not match: written on a machine of another "
                            "byte order, or corrupt");
  return VBC_OK;
}

static int read_header(cursor *c, vbc_state_header *h, uint32_t *nsections) {
  if (read_magic(c) != VBC_OK) return c->err->code;
  uint32_t dim, len;
  uint64_t n;
  int64_t step;
  if (!take_into(c, &dim, 4, "the header") || !take_into(c, &n, 8, "the header") ||
      !take_into(c, &step, 8, "the header") || !take_into(c, &h->time, 8, "the header") ||
      !take_into(c, &h->spacing, 8, "the header") || !take_into(c, &h->dt, 8, "the header") ||
      !take_into(c, &len, 4, "the header"))
    return c->err->code;
  if (dim != 2 && dim != 3) return bad(c, "header", "dim is neither 2 nor 3 (corrupt?)");
  if (n == 0 || n > UINT32_MAX) return bad(c, "header", "particle count out of range (corrupt?)");
  if (step < 0 || !(h->spacing > 0.0) || !(h->dt > 0.0))
    return bad(c, "header", "step, spacing or dt out of range (corrupt?)");
  if (len >= sizeof h->scene) return bad(c, "header", "scene name longer than 255 bytes");
  if (!take_into(c, h->scene, len, "the scene name")) return c->err->code;
  h->scene[len] = '\0';
  h->dim = (int)dim;
  h->n = (size_t)n;
  h->step = (long)step;
  if (!take_into(c, nsections, 4, "the header")) return c->err->code;
  /* allocate only what the file can hold: the positions alone take n vectors */
  if (h->n > c->left / sizeof(vbc_vec))
    return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: truncated: the positions of %zu particles "
                         "take %zu bytes, %zu remain after the header", c->path, h->n,
                         h->n * sizeof(vbc_vec), c->left);
  return VBC_OK;
}

/* A section this version reads: where it goes and the shape it must have. */
typedef struct known_section {
  const char *name;
  size_t count, size;
  void *dst;
  int seen;
} known_section;

static known_section *find_known(known_section *k, size_t nk, const char *name) {
  for (size_t i = 0; i < nk; ++i)
    if (strcmp(k[i].name, name) == 0) return &k[i];
  return NULL;
}

static int read_section(cursor *c, uint32_t index, known_section *k, size_t nk,
                        vbc_state *st) {
  char what[128], name[MAX_SECTION_NAME + 1];
  snprintf(what, sizeof what, "section %u", index + 1);
  uint32_t len;
  uint64_t count, size;
  if (!take_into(c, &len, 4, what)) return c->err->code;
  if (len == 0 || len > MAX_SECTION_NAME) return bad(c, what, "name length out of range");
  if (!take_into(c, name, len, what)) return c->err->code;
  name[len] = '\0';
  snprintf(what, sizeof what, "section '%s'", name);
  if (!take_into(c, &count, 8, what) || !take_into(c, &size, 8, what)) return c->err->code;
  if (size != 0 && count > SIZE_MAX / size) return bad(c, what, "size out of range (corrupt?)");
  const void *data = take(c, (size_t)(count * size), what);
  if (data == NULL) return c->err->code;
  known_section *ks = find_known(k, nk, name);
  if (ks == NULL) { /* a checkpoint's, or a later version's: kept for who asks */
    if (st->nextra < VBC_STATE_MAX_EXTRA) {
      vbc_state_extra *x = &st->extra[st->nextra++];
      snprintf(x->name, sizeof x->name, "%s", name);
      x->count = (size_t)count, x->size = (size_t)size, x->data = data;
    }
    return VBC_OK;
  }
  if (ks->seen) return bad(c, what, "appears twice");
  if (count != ks->count || size != ks->size)
    return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: %s: expected %zu elements of %zu bytes, got "
                         "%llu of %llu", c->path, what, ks->count, ks->size,
                         (unsigned long long)count, (unsigned long long)size);
  memcpy(ks->dst, data, (size_t)(count * size));
  ks->seen = 1;
  return VBC_OK;
}

static int read_sections(cursor *c, uint32_t nsections, vbc_state *st) {
  vbc_particles *p = &st->particles;
  const size_t n = st->h.n;
  vbc_vec domain[2];
  known_section k[] = {
      {"pos", n, sizeof *p->pos, p->pos, 0},
      {"vel", n, sizeof *p->vel, p->vel, 0},
      {"kind", n, sizeof *p->kind, p->kind, 0},
      {"body", n, sizeof *p->body, p->body, 0},
      {"pressure", n, sizeof *p->pressure, p->pressure, 0},
      {"pressure_smoothed", n, sizeof *p->pressure_smoothed, p->pressure_smoothed, 0},
      {"number_density", n, sizeof *p->number_density, p->number_density, 0},
      {"domain", 2, sizeof *domain, domain, 0},
  };
  const size_t nk = sizeof k / sizeof *k;
  for (uint32_t s = 0; s < nsections; ++s)
    if (read_section(c, s, k, nk, st) != VBC_OK) return c->err->code;
  if (c->left > 0)
    return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: %zu bytes after the last of %u sections "
                         "(corrupt?)", c->path, c->left, nsections);
  for (size_t i = 0; i < nk; ++i)
    if (!k[i].seen)
      return vbc_error_set(c->err, VBC_EXIT_INPUT, "%s: no section '%s' (version %u files have "
                           "pos, vel, kind, body, pressure, pressure_smoothed, number_density, "
                           "domain)", c->path, k[i].name, VBC_STATE_VERSION);
  st->domain_min = domain[0];
  st->domain_max = domain[1];
  return VBC_OK;
}

static unsigned char *slurp(const char *path, size_t *size, vbc_error *err) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    vbc_error_set(err, VBC_EXIT_INPUT, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  unsigned char *buf = NULL;
  if (n < 0 || fseek(f, 0, SEEK_SET) != 0)
    vbc_error_set(err, VBC_EXIT_INPUT, "%s: cannot read: %s", path, strerror(errno));
  else if ((buf = vbc_calloc((size_t)n + 1, 1, err)) != NULL &&
           fread(buf, 1, (size_t)n, f) != (size_t)n) {
    vbc_error_set(err, VBC_EXIT_INPUT, "%s: read error", path);
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *size = buf ? (size_t)n : 0;
  return buf;
}

int vbc_state_read(const char *path, vbc_state *st, vbc_error *err) {
  memset(st, 0, sizeof *st);
  size_t size;
  unsigned char *buf = slurp(path, &size, err);
  if (buf == NULL) return err->code;
  cursor c = {buf, size, path, err};
  uint32_t nsections = 0;
  int rc = read_header(&c, &st->h, &nsections);
  if (rc == VBC_OK) rc = vbc_particles_reserve(&st->particles, st->h.n, err);
  if (rc == VBC_OK) {
    st->particles.n = st->h.n;
    rc = read_sections(&c, nsections, st);
  }
  st->file = buf;
  return rc;
}

const vbc_state_extra *vbc_state_find(const vbc_state *st, const char *name) {
  for (size_t i = 0; i < st->nextra; ++i)
    if (strcmp(st->extra[i].name, name) == 0) return &st->extra[i];
  return NULL;
}

void vbc_state_free(vbc_state *st) {
  vbc_particles_free(&st->particles);
  free(st->file);
  memset(st, 0, sizeof *st);
}

/* ---- applying ---- */

static int mismatch(const vbc_state *st, const char *path, const vbc_sim *sim, const char *what,
                    vbc_error *err) {
  return vbc_error_set(err, VBC_EXIT_INPUT, "%s: the state (scene \"%s\", before step %ld) does "
                       "not fit %s: %s", path, st->h.scene, st->h.step + 1, sim->scene->file, what);
}

/* The state's particles must be the ones this scene generates: same count, kind and body of
 * each, on the same lattice and time step. Names the first difference. */
static int check_fits(const vbc_state *st, const char *path, const vbc_sim *sim, vbc_error *err) {
  const vbc_particles *a = &st->particles, *b = &sim->particles;
  char what[256];
  if (st->h.dim != sim->sys.dim)
    snprintf(what, sizeof what, "dim %d in the state, %d in the scene", st->h.dim, sim->sys.dim);
  else if (a->n != b->n)
    snprintf(what, sizeof what, "%zu particles in the state, %zu generated by the scene (%zu "
             "fluid)", a->n, b->n, sim->nfluid);
  else if (st->h.spacing != sim->sys.spacing)
    snprintf(what, sizeof what, "spacing %.10g in the state, %.10g in the scene", st->h.spacing,
             sim->sys.spacing);
  else if (st->h.dt != sim->scene->dt)
    snprintf(what, sizeof what, "time.dt %.10g in the state, %.10g in the scene", st->h.dt,
             sim->scene->dt);
  else
    what[0] = '\0';
  for (size_t i = 0; i < a->n && what[0] == '\0'; ++i)
    if (a->kind[i] != b->kind[i] || a->body[i] != b->body[i])
      snprintf(what, sizeof what, "particle %zu is %s (body %d) in the state, %s (body %d) in "
               "the scene", i, vbc_kind_name((vbc_kind)a->kind[i]), a->body[i],
               vbc_kind_name((vbc_kind)b->kind[i]), b->body[i]);
  return what[0] ? mismatch(st, path, sim, what, err) : VBC_OK;
}

int vbc_state_apply(const vbc_state *st, const char *path, vbc_sim *sim, vbc_error *err) {
  /* version 1 holds particles only: a body's x, q, v, w would be lost, and the replay wrong */
  if (sim->sys.nbodies > 0)
    return vbc_error_set(err, VBC_EXIT_INPUT, "%s: --from-state: expected a scene without "
                         "bodies: frozen states do not hold rigid-body states yet", path);
  return vbc_state_apply_particles(st, path, sim, err);
}

/* Finite values, a finite domain with min < max, every particle inside it: what the time loop
 * checks after every step holds for a state it starts from (found by fuzz/state.c). */
static int check_values(const vbc_state *st, const char *path, vbc_error *err) {
  const vbc_particles *a = &st->particles;
  for (int ax = 0; ax < st->h.dim; ++ax) {
    const double lo = vbc_vec_get(st->domain_min, ax), hi = vbc_vec_get(st->domain_max, ax);
    if (!(isfinite(lo) && isfinite(hi) && lo < hi))
      return vbc_error_set(err, VBC_EXIT_INPUT, "%s: domain: expected finite bounds with min < "
                           "max on axis %d, got [%g, %g]", path, ax, lo, hi);
  }
  for (size_t i = 0; i < a->n; ++i) {
    const vbc_vec x = a->pos[i];
    int ok = vbc_vec_isfinite(x) && vbc_vec_isfinite(a->vel[i]) && isfinite(a->pressure[i]) &&
             isfinite(a->pressure_smoothed[i]) && isfinite(a->number_density[i]);
    for (int ax = 0; ok && ax < st->h.dim; ++ax)
      ok = vbc_vec_get(x, ax) >= vbc_vec_get(st->domain_min, ax) &&
           vbc_vec_get(x, ax) <= vbc_vec_get(st->domain_max, ax);
    if (!ok)
      return vbc_error_set(err, VBC_EXIT_INPUT, "%s: particle %zu: expected finite values and a "
                           "position inside the state's domain, got position (%g, %g, %g)",
                           path, i, x.x, x.y, x.z);
  }
  return VBC_OK;
}

int vbc_state_apply_particles(const vbc_state *st, const char *path, vbc_sim *sim,
                              vbc_error *err) {
  if (check_fits(st, path, sim, err) != VBC_OK || check_values(st, path, err) != VBC_OK)
    return err->code;
  const vbc_particles *a = &st->particles;
  vbc_particles *b = &sim->particles;
  memcpy(b->pos, a->pos, a->n * sizeof *a->pos);
  memcpy(b->vel, a->vel, a->n * sizeof *a->vel);
  memcpy(b->pressure, a->pressure, a->n * sizeof *a->pressure);
  memcpy(b->pressure_smoothed, a->pressure_smoothed, a->n * sizeof *a->pressure_smoothed);
  memcpy(b->number_density, a->number_density, a->n * sizeof *a->number_density);
  sim->domain_min = st->domain_min;
  sim->domain_max = st->domain_max;
  sim->step = st->h.step;
  sim->time = st->h.time;
  return VBC_OK;
}
