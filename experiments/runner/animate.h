/* animate.h — `vbc animate DIR`: a run's frames (DIR/frames.pvd and the .vtu files it lists,
 * raw or compressed) as an animation, drawn by gnuplot as one PNG per frame and joined into an
 * MP4 by ffmpeg, or into an animated GIF by gnuplot when ffmpeg is not installed
 * (docs/cli.md#watching-a-run-vbc-animate). Fluid particles are coloured by a point array (default
 * pressure_smoothed, else pressure; a vector by its magnitude) on one colour scale for the whole
 * run, walls grey, body particles white with a black outline, the time in the top-left corner.
 * 2D frames are drawn in the x-y plane; 3D frames are projected onto the x-y plane (a side view
 * along -z, gravity along -y in vbc's scenes) with nearer particles (larger z) drawn last. */
#ifndef VBC_ANIMATE_H
#define VBC_ANIMATE_H

#include "core/error.h"

typedef struct vbc_animate_options {
  const char *dir;   /* the run directory */
  const char *array; /* NULL: pressure_smoothed, else pressure */
  const char *out;   /* NULL: DIR/animation.mp4 (DIR/animation.gif without ffmpeg); *.gif: GIF */
  int fps;           /* frames per second, 1..100 */
  int keep_png;      /* keep OUT_STEM_frames/ (PNGs, data, gnuplot script) */
} vbc_animate_options;

/* Exit codes: 2 bad input (no frames.pvd, a frame that cannot be read, an unknown array, an
 * output that cannot be written), naming the path; 4 gnuplot or ffmpeg missing or failing. */
int vbc_animate(const vbc_animate_options *o, vbc_error *err);
/* `vbc animate DIR [--array NAME] [--out FILE] [--fps N] [--keep-png]`; argv[1] is "animate". */
int vbc_animate_main(int argc, char **argv);

#endif
