/**
 * @file openatc/omrun/driver.h
 * The omrun tool behind its thin main: load an OM, feed inputs (.npy/.bin/.pb or seeded random),
 * run (with --warmup/--loop timing), print a summary per output, write outputs and compare with
 * expected outputs. Returns the exit code of README.md "omrun" (0 ok, 1 mismatch, 2 usage, 3 bad
 * input, 4 not an OM / wrong target, 5 corrupt OM, 6 custom op failed, 7 internal).
 */
#ifndef OPENATC_OMRUN_DRIVER_H_
#define OPENATC_OMRUN_DRIVER_H_

namespace openatc::omrun {
int RunOmrun(int argc, const char *const *argv);
}

#endif  // OPENATC_OMRUN_DRIVER_H_
