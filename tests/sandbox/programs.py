"""Small C programs that attack the sandbox directly (no static checks in the way), built once."""
from __future__ import annotations

import subprocess
from pathlib import Path

SOURCES = {
    # connect HOST PORT: prints "connected" or "failed: <why>".
    "connect": r"""
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
int main(int argc, char** argv) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) { printf("failed: %s\n", strerror(errno)); return 1; }
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons(atoi(argv[2]));
    inet_pton(AF_INET, argv[1], &a.sin_addr);
    if (connect(s, (struct sockaddr*)&a, sizeof a) == 0) { puts("connected"); return 0; }
    printf("failed: %s\n", strerror(errno));
    return 1;
}
""",
    # forkbomb: forks until refused (children sleep), prints how many succeeded.
    "forkbomb": r"""
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    int made = 0;
    for (int i = 0; i < 100000; i++) {
        pid_t p = fork();
        if (p == 0) { sleep(30); _exit(0); }
        if (p < 0) { printf("refused after %d: %s\n", made, strerror(errno)); return 0; }
        made++;
    }
    printf("never refused: %d\n", made);
    return 0;
}
""",
    # threads: creates threads until refused, prints how many succeeded.
    "threads": r"""
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
static void* idle(void* x) { sleep(30); return x; }
int main(void) {
    int made = 0;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 64 * 1024);
    for (int i = 0; i < 100000; i++) {
        pthread_t t;
        if (pthread_create(&t, &attr, idle, 0) != 0) { printf("refused after %d\n", made); return 0; }
        made++;
    }
    printf("never refused: %d\n", made);
    return 0;
}
""",
    # alloc MIB [SECONDS]: allocates and touches MIB mebibytes, then holds them SECONDS.
    "alloc": r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char** argv) {
    size_t n = (size_t)atol(argv[1]) << 20;
    char* p = malloc(n);
    if (!p) { puts("allocation failed"); return 0; }
    memset(p, 1, n);
    puts("allocated");
    fflush(stdout);
    if (argc > 2) sleep(atoi(argv[2]));
    return p[n / 2] - 1;
}
""",
    # syscalls: calls each refused system call directly, prints "name errno-name".
    "syscalls": r"""
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#define TRY(name, ...) do { errno = 0; long r = syscall(__VA_ARGS__); \
    printf("%s %s\n", name, r == -1 ? strerrorname_np(errno) : "allowed"); } while (0)
int main(void) {
    TRY("ptrace", SYS_ptrace, 0, 0, 0, 0);
    TRY("io_uring_setup", SYS_io_uring_setup, 1, 0);
    TRY("bpf", SYS_bpf, 0, 0, 0);
    TRY("perf_event_open", SYS_perf_event_open, 0, 0, -1, -1, 0);
    TRY("userfaultfd", SYS_userfaultfd, 0);
    TRY("keyctl", SYS_keyctl, 0, 0, 0, 0, 0);
    TRY("unshare", SYS_unshare, 0x40000000);
    TRY("getpid", SYS_getpid);
    return 0;
}
""",
    # stubborn MARKER: ignores every catchable signal, leaves a daemonised grandchild, spins.
    "stubborn": r"""
#include <signal.h>
#include <unistd.h>
int main(int argc, char** argv) {
    for (int s = 1; s < 32; s++) signal(s, SIG_IGN);
    if (fork() == 0) { setsid(); if (fork() == 0) { for (;;) { } } _exit(0); }
    if (fork() == 0) { for (;;) { } }
    for (;;) { }
}
""",
}


def build(folder: Path) -> Path:
    """Compile every program into `folder` with the host's cc; returns the folder."""
    for name, source in SOURCES.items():
        src = folder / f"{name}.c"
        src.write_text(source)
        subprocess.run(["cc", "-O1", "-pthread", "-Werror=implicit-function-declaration", "-o", str(folder / name),
                        str(src)], check=True, capture_output=True)
    return folder
