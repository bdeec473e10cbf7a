// citypack-rusage: runs one program and reports its exit status, wall time and peak resident set size.
//
//   citypack-rusage PROGRAM [ARG...]
//
// `citypack bench` measures other tools through this tiny process instead of spawning them itself. On Linux a
// child's ru_maxrss is floored at the high-water mark of the memory it was started from: exec records the old
// address space's peak before replacing it, and posix_spawn (vfork) starts the child in its parent's address
// space, so every tool spawned by a 24 MB citypack process read as at least 24 MB. Started from this process,
// whose own peak is about a megabyte, the figure is the program's own (as /usr/bin/time -v reports it).
//
// The result goes to file descriptor 3 when it is open (the caller's pipe), else to stderr, as one line:
//   status=N wall_ns=N maxrss_kb=N utime_us=N stime_us=N
// status is the exit code, or 128 + the signal number. This process exits with the same status; it exits 127
// when the program cannot be started.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: citypack-rusage PROGRAM [ARG...]\n");
        return 64;
    }
    int report = 2;
    if (fcntl(3, F_GETFD) != -1) {
        report = 3;
        fcntl(3, F_SETFD, FD_CLOEXEC);  // the measured program does not inherit the report pipe
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t pid;
    int spawned = posix_spawn(&pid, argv[1], NULL, NULL, argv + 1, environ);
    if (spawned != 0) {
        dprintf(report, "error=%s\n", strerror(spawned));
        return 127;
    }
    int status = 0;
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    while (wait4(pid, &status, 0, &usage) < 0) {
        if (errno != EINTR) {
            dprintf(report, "error=%s\n", strerror(errno));
            return 127;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    long long wall = (long long)(end.tv_sec - start.tv_sec) * 1000000000LL + (end.tv_nsec - start.tv_nsec);
    long long utime = (long long)usage.ru_utime.tv_sec * 1000000LL + usage.ru_utime.tv_usec;
    long long stime = (long long)usage.ru_stime.tv_sec * 1000000LL + usage.ru_stime.tv_usec;
#ifdef __APPLE__
    long maxrss_kb = (long)(usage.ru_maxrss / 1024);  // bytes there, kilobytes on Linux
#else
    long maxrss_kb = (long)usage.ru_maxrss;
#endif
    dprintf(report, "status=%d wall_ns=%lld maxrss_kb=%ld utime_us=%lld stime_us=%lld\n", code, wall, maxrss_kb,
            utime, stime);
    return code;
}
