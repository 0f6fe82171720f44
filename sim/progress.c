/* progress.c — see progress.h. */
#include "sim/progress.h"

void vbc_progress_init(vbc_progress *p, vbc_progress_mode mode, FILE *out) {
  p->mode = mode;
  p->out = out;
  p->start = vbc_now();
  p->last_draw = -1.0;
}

static void format_seconds(double s, char *buf, size_t size) {
  if (s < 120.0) snprintf(buf, size, "%.0f s", s);
  else if (s < 7200.0) snprintf(buf, size, "%.1f min", s / 60.0);
  else snprintf(buf, size, "%.1f h", s / 3600.0);
}

void vbc_progress_update(vbc_progress *p, long step, long nsteps, double t, double mean_iters,
                         double rel_residual, int output_step) {
  if (p->mode == VBC_PROGRESS_OFF) return;
  double now = vbc_now(), elapsed = now - p->start;
  int last = step == nsteps;
  if (p->mode == VBC_PROGRESS_BAR && !last && now - p->last_draw < 0.2) return;
  if (p->mode == VBC_PROGRESS_LINES && !output_step && !last) return;
  p->last_draw = now;
  char eta[32], el[32];
  format_seconds(step > 0 ? elapsed * (double)(nsteps - step) / (double)step : 0.0, eta,
                 sizeof eta);
  format_seconds(elapsed, el, sizeof el);
  if (p->mode == VBC_PROGRESS_BAR) {
    enum { WIDTH = 24 };
    char bar[WIDTH + 1];
    int filled = (int)((double)WIDTH * (double)step / (double)(nsteps > 0 ? nsteps : 1));
    for (int i = 0; i < WIDTH; ++i) bar[i] = i < filled ? '#' : '.';
    bar[WIDTH] = '\0';
    fprintf(p->out, "\r[%s] step %ld/%ld  t = %.4g s  ETA %s  iter %.1f  res %.2e ", bar, step,
            nsteps, t, eta, mean_iters, rel_residual);
  } else {
    fprintf(p->out, "step %ld/%ld t=%.6g s iterations=%.1f residual=%.3e elapsed=%s eta=%s\n",
            step, nsteps, t, mean_iters, rel_residual, el, eta);
  }
  fflush(p->out);
}

void vbc_progress_done(vbc_progress *p) {
  if (p->mode == VBC_PROGRESS_BAR) fputc('\n', p->out);
}
