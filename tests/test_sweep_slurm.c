/* test_sweep_slurm.c — the sbatch array script of `vbc sweep --emit-slurm`
 * (experiments/runner/sweep_jobs.c) submitted to a real single-node Slurm (munged, slurmctld,
 * slurmd from Debian's packages) that the test starts on loopback and stops: a 4-case sweep in a
 * directory whose name holds spaces, both quotes, ;, $(…), # and %; every task completes, task k's
 * log reports one run, of the k-th case; rerunning the sweep writes a complete table without
 * running anything; the shipped convergence sweep's script passes `sbatch --test-only`.
 *
 * The cluster: its own munge key and socket, state and spool directories under a mkdtemp
 * directory in /tmp (a UNIX socket path must stay under 108 bytes), ports below the ephemeral
 * range checked free, ProctrackType=proctrack/pgid and TaskPlugin=task/none so no cgroups are
 * needed, SlurmUser=root. One cluster at a time per machine (a flock on /tmp/vbc-slurm-test.lock)
 * because `make test` runs the test in two build trees at once. The daemons run in the foreground
 * as children with a parent-death signal, so even a test killed by its timeout leaves none
 * running; the teardown stops them, then kills and counts any process whose command line or
 * environment names the cluster's directory (slurmstepd, a job), and the test asserts that there
 * was none. Skipped, saying why, only where the packages are missing or the test is not root. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/support.h"
#include "tests/sweep_engines.h"

/* The single-node cluster. Static because Criterion's .fini, which must stop the daemons after a
 * failed assertion too, takes no argument. */
enum { MUNGED, SLURMCTLD, SLURMD, SBATCH, SQUEUE, SCONTROL, SINFO, ENV, NPROGRAMS };
static const char *const program_names[NPROGRAMS] = {
    "munged", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "sinfo", "env"};
static struct slurm_cluster {
  char bin[NPROGRAMS][256];
  char dir[64];       /* mkdtemp in /tmp, "" when there is none */
  char conf[128];
  char conf_env[160]; /* SLURM_CONF=conf, for every Slurm command and daemon */
  pid_t daemon[3];    /* munged, slurmctld, slurmd (0: not running) */
  int lock;           /* /tmp/vbc-slurm-test.lock, held while the cluster exists (-1: not) */
} cluster = {.lock = -1};

/* A daemon in the foreground, output to dir/NAME.out, killed when this process dies. */
static pid_t start_daemon(const char *const *argv, const char *name) {
  char out[200];
  snprintf(out, sizeof out, "%s/%s.out", cluster.dir, name);
  pid_t pid = fork();
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0) _exit(126);
    execv(argv[0], (char *const *)argv);
    _exit(127);
  }
  cr_assert_gt(pid, 0, "fork: %s", strerror(errno));
  return pid;
}

/* A Slurm command with SLURM_CONF set, output to dir/cmd.out; its exit code, the output in
 * *text (malloc'd) when text is not NULL. */
static int slurm_command(const char *const *args, const char *cwd, char **text) {
  const char *argv[16] = {cluster.bin[ENV], cluster.conf_env};
  int n = 2;
  for (; *args && n < 15; ++args) argv[n++] = *args;
  argv[n] = NULL;
  char out[200];
  snprintf(out, sizeof out, "%s/cmd.out", cluster.dir);
  int rc = run_program(argv, cwd, NULL, out);
  if (text) *text = read_text(out);
  return rc;
}

/* A TCP port from 10000 up (below Linux's ephemeral range, so no client connection takes it
 * meanwhile) that nothing is bound to, starting at a place that depends on the pid. */
static int free_port(int after) {
  for (int k = 0; k < 5000; ++k) {
    int port = 10000 + (int)((getpid() * 7 + after + k) % 20000);
    if (port == after) continue;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    cr_assert_geq(fd, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((unsigned short)port)};
    int ok = bind(fd, (struct sockaddr *)&a, sizeof a) == 0;
    close(fd);
    if (ok) return port;
  }
  cr_assert_fail("no free TCP port");
  return -1;
}

/* Whether /proc/PID/file (NUL-separated strings) holds needle. */
static int proc_file_holds(const char *pid, const char *file, const char *needle) {
  char path[64], buf[65536];
  snprintf(path, sizeof path, "/proc/%s/%s", pid, file);
  FILE *f = fopen(path, "rb");
  if (f == NULL) return 0;
  size_t n = fread(buf, 1, sizeof buf - 1, f), len = strlen(needle);
  fclose(f);
  for (size_t i = 0; i + len <= n; ++i)
    if (memcmp(buf + i, needle, len) == 0) return 1;
  return 0;
}

/* The parent of process pid (0 if gone). */
static long parent_of(long pid) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%ld/stat", pid);
  FILE *f = fopen(path, "r");
  long ppid = 0;
  if (f && fscanf(f, "%*d (%*[^)]) %*c %ld", &ppid) != 1) ppid = 0;
  if (f) fclose(f);
  return ppid;
}

static int is_daemon(long pid) {
  for (int d = 0; d < 3; ++d)
    if (cluster.daemon[d] > 0 && pid == (long)cluster.daemon[d]) return 1;
  return 0;
}

/* The processes but this one whose command line or environment names the cluster's directory
 * (slurmstepd, a job's shell, a vbc it started), not counting the running daemons and their
 * children (slurmctld's slurmscriptd); killed (SIGKILL) if kill_them. Returns how many. */
static int cluster_processes(int kill_them) {
  int found = 0;
  DIR *proc = opendir("/proc");
  cr_assert_not_null(proc);
  for (struct dirent *e; (e = readdir(proc)) != NULL;) {
    char *end;
    long pid = strtol(e->d_name, &end, 10);
    if (*end != '\0' || pid <= 0 || pid == (long)getpid() || is_daemon(pid) ||
        is_daemon(parent_of(pid)))
      continue;
    if (proc_file_holds(e->d_name, "cmdline", cluster.dir) ||
        proc_file_holds(e->d_name, "environ", cluster.dir)) {
      ++found;
      if (kill_them) kill((pid_t)pid, SIGKILL);
    }
  }
  closedir(proc);
  return found;
}

/* Wait at most ms milliseconds for the cluster's other processes to end; how many are left. */
static int wait_for_cluster_processes(long ms) {
  int left = cluster_processes(0);
  for (long t = 0; t < ms && left > 0; t += 50) sleep_ms(50), left = cluster_processes(0);
  return left;
}

/* Stop the daemons (SIGTERM, then SIGKILL after 10 s), give what else named the cluster 5 s to
 * end, kill what is left, remove the directory, release the lock. Returns the number of
 * processes that had to be killed (0 when the cluster shut down cleanly). */
static int stop_cluster(void) {
  for (int d = 2; d >= 0; --d) { /* slurmd, slurmctld, munged */
    pid_t pid = cluster.daemon[d];
    if (pid <= 0) continue;
    kill(pid, SIGTERM);
    int status;
    for (int t = 0; t < 200 && waitpid(pid, &status, WNOHANG) == 0; ++t) sleep_ms(50);
    if (waitpid(pid, &status, WNOHANG) == 0) kill(pid, SIGKILL), waitpid(pid, &status, 0);
    cluster.daemon[d] = 0;
  }
  int strays = 0;
  if (cluster.dir[0]) {
    strays = wait_for_cluster_processes(5000);
    if (strays > 0) cluster_processes(1);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cluster.dir);
    if (system(cmd) != 0) cr_log_warn("could not remove %s", cluster.dir);
    cluster.dir[0] = '\0';
  }
  if (cluster.lock >= 0) close(cluster.lock), cluster.lock = -1;
  return strays;
}

static void stop_cluster_fini(void) { stop_cluster(); }

/* The last lines of dir/name, for a failure message. */
static const char *tail_of(const char *name) {
  static char buf[4][1600];
  static int k;
  char *b = buf[k++ % 4], cmd[300];
  snprintf(cmd, sizeof cmd, "tail -n 8 '%s/%s' 2>&1", cluster.dir, name);
  FILE *f = popen(cmd, "r");
  size_t n = f ? fread(b, 1, sizeof buf[0] - 1, f) : 0;
  b[n] = '\0';
  if (f) pclose(f);
  return b;
}

static void write_cluster_files(int ctld_port, int slurmd_port) {
  const char *d = cluster.dir;
  char path[200], text[3000];
  FILE *f;
  snprintf(path, sizeof path, "%s/munge.key", d);
  unsigned char key[128];
  f = fopen("/dev/urandom", "rb");
  cr_assert(f && fread(key, 1, sizeof key, f) == sizeof key);
  fclose(f);
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0400);
  cr_assert(fd >= 0 && write(fd, key, sizeof key) == (ssize_t)sizeof key);
  close(fd);
  for (const char *sub = "state\0spool\0"; *sub; sub += strlen(sub) + 1) {
    snprintf(path, sizeof path, "%s/%s", d, sub);
    cr_assert_eq(mkdir(path, 0755), 0);
  }
  snprintf(text, sizeof text,
           "ClusterName=vbctest\nSlurmctldHost=localhost(127.0.0.1)\n"
           "SlurmctldPort=%d\nSlurmdPort=%d\nSlurmUser=root\nSlurmdUser=root\n"
           "AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket=%s/munge.sock\n"
           "StateSaveLocation=%s/state\nSlurmdSpoolDir=%s/spool\n"
           "SlurmctldPidFile=%s/slurmctld.pid\nSlurmdPidFile=%s/slurmd.pid\n"
           "SlurmctldLogFile=%s/slurmctld.log\nSlurmdLogFile=%s/slurmd.log\n"
           "ProctrackType=proctrack/pgid\nTaskPlugin=task/none\n"
           "JobAcctGatherType=jobacct_gather/none\nAccountingStorageType=accounting_storage/none\n"
           "JobCompType=jobcomp/none\nSchedulerType=sched/builtin\nSelectType=select/cons_tres\n"
           "SelectTypeParameters=CR_CPU\nSlurmdParameters=config_overrides\nReturnToService=2\n"
           "MpiDefault=none\nMinJobAge=600\nKillWait=5\nInactiveLimit=0\n"
           "NodeName=vbcnode NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN\n"
           "PartitionName=vbc Nodes=vbcnode Default=YES MaxTime=INFINITE State=UP\n",
           ctld_port, slurmd_port, d, d, d, d, d, d, d);
  cr_assert_not_null(write_text(d, "slurm.conf", text));
}

/* Lock, directory, key, configuration, munged, slurmctld, slurmd; waits (at most 30 s) until
 * the node is idle. Skips the test where the packages are not installed. */
static void start_cluster(void) {
  for (int i = 0; i < NPROGRAMS; ++i)
    if (!find_program(program_names[i], cluster.bin[i], sizeof cluster.bin[i]))
      SKIP_SAYING("Slurm is not installed: no %s (scripts/install-deps.sh installs Debian's "
                   "munge, slurmctld, slurmd and slurm-client)", program_names[i]);
  if (geteuid() != 0)
    SKIP_SAYING("the single-node Slurm runs its daemons as root (SlurmUser=root): run as root");
  cluster.lock = open("/tmp/vbc-slurm-test.lock", O_RDWR | O_CREAT, 0666);
  cr_assert(cluster.lock >= 0 && flock(cluster.lock, LOCK_EX) == 0, "/tmp/vbc-slurm-test.lock");
  snprintf(cluster.dir, sizeof cluster.dir, "/tmp/vbc-slurm-XXXXXX");
  cr_assert_not_null(mkdtemp(cluster.dir), "mkdtemp: %s", strerror(errno));
  cr_assert_eq(chmod(cluster.dir, 0711), 0); /* munged wants its socket's directory searchable */
  snprintf(cluster.conf, sizeof cluster.conf, "%s/slurm.conf", cluster.dir);
  snprintf(cluster.conf_env, sizeof cluster.conf_env, "SLURM_CONF=%s", cluster.conf);
  int ctld_port = free_port(0);
  write_cluster_files(ctld_port, free_port(ctld_port));
  const char *d = cluster.dir;
  char key[100], sock[100], pidf[100], logf[100], seed[100];
  snprintf(key, sizeof key, "--key-file=%s/munge.key", d);
  snprintf(sock, sizeof sock, "--socket=%s/munge.sock", d);
  snprintf(pidf, sizeof pidf, "--pid-file=%s/munged.pid", d);
  snprintf(logf, sizeof logf, "--log-file=%s/munged.log", d);
  snprintf(seed, sizeof seed, "--seed-file=%s/munged.seed", d);
  cluster.daemon[0] = start_daemon((const char *[]){cluster.bin[MUNGED], "-F", "-f", key, sock,
                                                    pidf, logf, seed, NULL}, "munged");
  char path[120];
  snprintf(path, sizeof path, "%s/munge.sock", d);
  for (int t = 0; t < 100 && !file_exists(path); ++t) sleep_ms(50);
  cr_assert(file_exists(path), "munged did not start:\n%s", tail_of("munged.out"));
  cluster.daemon[1] = start_daemon((const char *[]){cluster.bin[ENV], cluster.conf_env,
                                                    cluster.bin[SLURMCTLD], "-D", "-f",
                                                    cluster.conf, NULL}, "slurmctld");
  cluster.daemon[2] = start_daemon((const char *[]){cluster.bin[ENV], cluster.conf_env,
                                                    cluster.bin[SLURMD], "-D", "-f", cluster.conf,
                                                    "-N", "vbcnode", NULL}, "slurmd");
  char *state = NULL;
  for (int t = 0; t < 150; ++t, sleep_ms(200)) {
    free(state);
    state = NULL;
    if (slurm_command((const char *[]){cluster.bin[SINFO], "-h", "-n", "vbcnode", "-o", "%t",
                                       NULL}, NULL, &state) == 0 &&
        state && strncmp(state, "idle", 4) == 0)
      break;
  }
  cr_assert(state && strncmp(state, "idle", 4) == 0,
            "the node is not idle after 30 s (sinfo: %s)\nslurmctld.log:\n%s\nslurmd.log:\n%s",
            state ? state : "", tail_of("slurmctld.log"), tail_of("slurmd.log"));
  free(state);
}

static double seconds_since(const struct timespec *t0) {
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

/* Wait (at most 120 s) until the array job has left the queue; every task must have completed
 * with exit code 0, in the partition, time limit and throttle the script asked for. */
static void wait_for_array(const char *job) {
  char *text = NULL;
  for (int t = 0; t < 600; ++t, sleep_ms(200)) {
    free(text);
    text = NULL;
    int rc = slurm_command((const char *[]){cluster.bin[SQUEUE], "-h", "-j", job, "-o", "%i",
                                            NULL}, NULL, &text);
    if (rc == 0 && text && text[0] == '\0') break;
  }
  cr_assert(text && text[0] == '\0', "job %s still queued after 120 s:\n%s", job,
            text ? text : "");
  free(text);
  cr_assert_eq(slurm_command((const char *[]){cluster.bin[SCONTROL], "-o", "show", "job", job,
                                              NULL}, NULL, &text), 0);
  int completed = 0, ok = 0;
  for (const char *p = text ? strstr(text, "JobState=COMPLETED ") : NULL; p;
       p = strstr(p + 1, "JobState=COMPLETED "))
    ++completed;
  for (const char *p = text ? strstr(text, "ExitCode=0:0 ") : NULL; p;
       p = strstr(p + 1, "ExitCode=0:0 "))
    ++ok;
  cr_assert(completed == NCASES && ok == NCASES, "%d tasks completed, %d exit 0:\n%s", completed,
            ok, text);
  /* the script's --partition, --time-limit 5 and --throttle 2, as Slurm read them */
  cr_assert(strstr(text, "Partition=vbc ") && strstr(text, "TimeLimit=00:05:00 ") &&
                strstr(text, "ArrayTaskThrottle=2 "),
            "%s", text);
  free(text);
}

/* Task k's log (OUT/slurm/slurm-JOB_k.log) reports exactly one run: of the k-th case of the
 * script. */
static void expect_task_logs(const char *dir, const char *job, char ids[][16]) {
  for (int k = 1; k <= NCASES; ++k) {
    char path[2400];
    snprintf(path, sizeof path, "%s/" OUT_NAME "/slurm/slurm-%s_%d.log", dir, job, k);
    char *text = read_text(path), ran[NCASES + 1][16];
    cr_assert_not_null(text, "no log of task %d: %s", k, path);
    cr_assert_eq(ran_ids(text, ran, NCASES + 1), 1, "task %d:\n%s", k, text);
    cr_assert_str_eq(ran[0], ids[k - 1], "task %d ran case %s, not %s", k, ran[0], ids[k - 1]);
    free(text);
  }
}

Test(sweep_slurm, a_slurm_array_runs_each_case_once_on_a_single_node_cluster, .timeout = 300,
     .fini = stop_cluster_fini) {
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  start_cluster();
  const double up = seconds_since(&t0);
  const char *root = test_dir("engines_slurm");
  char dir[1200], script[1200], log[1200];
  cat_path(dir, sizeof dir, root, HOSTILE_SLURM);
  cr_assert_eq(mkdir(dir, 0755), 0);
  write_spec(dir);
  cat_path(script, sizeof script, root, "jobs.sbatch");
  cat_path(log, sizeof log, root, "emit.txt");
  cr_assert_eq(sweep_in(dir, log, (const char *[]){"--emit-slurm", script, "--partition", "vbc",
                                                   "--time-limit", "5", "--throttle", "2", NULL}),
               0);
  char *text = read_text(script), ids[NCASES + 1][16];
  cr_assert_eq(case_ids(text, ids, NCASES + 1), NCASES, "%s", text);
  free(text);
  /* sbatch run from the hostile directory: the tasks start there */
  cr_assert_eq(slurm_command((const char *[]){cluster.bin[SBATCH], "--parsable", script, NULL},
                             dir, &text), 0, "sbatch: %s", text);
  char job[32];
  cr_assert(text && sscanf(text, "%31[0-9]", job) == 1, "sbatch: %s", text);
  free(text);
  wait_for_array(job);
  const double ran = seconds_since(&t0) - up;
  expect_task_logs(dir, job, ids);
  cr_assert_eq(wait_for_cluster_processes(10000), 0, "the tasks' processes outlived the array");
  expect_no_injection(root);
  expect_complete_without_running(dir, ids);
  /* the shipped convergence sweep's script, written as docs/sweep-format.md shows it (a relative
   * --out D and D/jobs.sbatch, here run in root), is one sbatch accepts */
  const char *emit[] = {VBC_BINARY, "sweep",
                        source_path("experiments/sweeps/circular_patch_convergence.json"),
                        "--out", "D", "--emit-slurm", "D/jobs.sbatch", NULL};
  cr_assert_eq(run_program(emit, root, NULL, log), 0);
  cr_assert_eq(slurm_command((const char *[]){cluster.bin[SBATCH], "--test-only",
                                              "D/jobs.sbatch", NULL}, root, &text), 0,
               "sbatch --test-only: %s", text);
  cr_assert(text && strstr(text, " to start at "), "sbatch --test-only: %s", text);
  free(text);
  cr_assert_eq(stop_cluster(), 0, "processes of the cluster outlived its daemons");
  cr_log_info("Slurm: cluster up in %.1f s, the 4-task array done %.1f s after, %.1f s in all",
              up, ran, seconds_since(&t0));
}
