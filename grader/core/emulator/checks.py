"""Static checks on the student's source, before the emulator rewrites and compiles it.

The tokens (tokens.py) are checked against a whitelist of includes and preprocessor directives and a
blacklist of host escapes (FORBIDDEN_IDENTIFIERS, the runtime's reserved names, inline assembly, goto,
digraphs, kernel launches); attributes, linkage and `__constant__` writes are checked by
declarations.py. `check` returns every problem found; it never raises on bad code. The checks are
defence in depth; the sandbox is the security boundary.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .. import messages as M
from . import declarations, pasting
from .tokens import Token, directive_text, tokenize

ALLOWED_INCLUDES = frozenset({
    "cuda_runtime.h", "cuda.h", "device_launch_parameters.h", "cuda_runtime_api.h",
    "cstdio", "stdio.h", "cstdint", "stdint.h", "cmath", "math.h", "cfloat", "float.h",
    "climits", "limits.h", "cassert", "assert.h", "cooperative_groups.h", "cooperative_groups/reduce.h", "cstdlib",
    "stdlib.h", "cuda_fp16.h", "curand_kernel.h",
    "cstring", "string.h",
})

# Identifiers that reach the host: files, processes, the environment, the network, the loader. A kernel
# never needs them (device code has printf and nothing else of the C library's I/O). The list is by
# family, not by what was seen: any function of a family reaches what its family reaches. Names are
# refused whatever glibc alias spells them (`_forbidden`: the ...64 large-file, ..._unlocked, __isoc99_,
# __libc_ and __ spellings, and GCC's __builtin_ and fortified __..._chk ones), and a stream cannot
# even be named (FILE, stdin, stdout, stderr), so stdio's whole file family is closed off by its type.
# tests/emulator/test_refused_names.py checks every function <cstdio> declares on a stream is here.
FORBIDDEN_IDENTIFIERS = frozenset({
    # stdio: streams and every function on them (printf to the device log is the one output kernels have).
    "FILE", "stdin", "stdout", "stderr", "fopen", "freopen", "fdopen", "fmemopen", "fopencookie",
    "open_memstream", "fclose", "fcloseall", "fflush", "fpurge", "fread", "fwrite", "fgetc", "getc",
    "getchar", "ungetc", "fgets", "gets", "getline", "getdelim", "getw", "fputc", "putc", "putchar",
    "fputs", "puts", "putw", "fprintf", "vfprintf", "dprintf", "vdprintf", "fscanf", "vfscanf", "scanf",
    "vscanf", "fseek", "fseeko", "ftell", "ftello", "rewind", "fgetpos", "fsetpos", "feof", "ferror",
    "clearerr", "fileno", "setbuf", "setbuffer", "setlinebuf", "setvbuf", "flockfile", "ftrylockfile",
    "funlockfile", "popen", "pclose", "tmpfile", "tmpnam", "tempnam", "ctermid", "cuserid", "perror",
    "__uflow", "__overflow", "__underflow", "__wuflow", "__woverflow", "__wunderflow", "fputwc", "fputws", "fgetwc", "fgetws", "getwc", "putwc", "fwprintf",
    "fwscanf", "fwide",
    # POSIX files and descriptors: opening, reading, writing, naming, mapping.
    "open", "openat", "openat2", "creat", "close", "close_range", "read", "write", "pread", "pwrite",
    "readv", "writev", "preadv", "pwritev", "preadv2", "pwritev2", "lseek", "dup", "dup2", "dup3", "pipe",
    "pipe2", "mkfifo", "mkfifoat", "mknod", "mknodat", "fcntl", "ioctl", "stat", "lstat", "fstat",
    "fstatat", "statx", "statfs", "fstatfs", "statvfs", "fstatvfs", "access", "faccessat", "euidaccess",
    "eaccess", "readlink", "readlinkat", "realpath", "canonicalize_file_name", "symlink", "symlinkat",
    "link", "linkat", "unlink", "unlinkat", "remove", "rename", "renameat", "renameat2", "mkdir",
    "mkdirat", "rmdir", "opendir", "fdopendir", "readdir", "readdir_r", "scandir", "scandirat",
    "closedir", "glob", "ftw", "nftw", "fts_open", "chdir", "fchdir", "chroot", "getcwd", "get_current_dir_name",
    "getwd", "chmod", "fchmod", "fchmodat", "chown", "fchown", "lchown", "fchownat", "truncate", "ftruncate",
    "utime", "utimes", "futimes", "lutimes", "utimensat", "futimens", "sendfile", "splice", "vmsplice",
    "copy_file_range", "fallocate", "posix_fallocate", "posix_fadvise", "flock", "lockf", "fsync",
    "fdatasync", "syncfs", "mkstemp", "mkstemps", "mkostemp", "mkostemps", "mkdtemp", "mktemp",
    "memfd_create", "inotify_init", "inotify_init1", "inotify_add_watch", "fanotify_init", "name_to_handle_at",
    "open_by_handle_at", "mmap", "mremap", "munmap", "mprotect", "msync", "madvise", "mlock", "remap_file_pages",
    "shm_open", "shm_unlink", "sem_open", "mq_open", "shmget", "shmat", "msgget", "semget",
    "getxattr", "setxattr", "listxattr", "removexattr",
    # Processes and signals.
    "system", "fork", "vfork", "clone", "clone3", "execl", "execlp", "execle", "execv", "execvp", "execve",
    "execvpe", "execveat", "fexecve", "posix_spawn", "posix_spawnp", "wait", "waitpid", "wait3", "wait4",
    "waitid", "kill", "killpg", "tkill", "tgkill", "sigqueue", "raise", "signal", "sigaction", "sigprocmask",
    "sigaltstack", "signalfd", "pidfd_open", "pidfd_send_signal", "pidfd_getfd", "ptrace", "prctl",
    "personality", "unshare", "setns", "setrlimit", "prlimit", "setpriority", "nice", "sched_setaffinity",
    "sched_setscheduler", "setuid", "setgid", "seteuid", "setegid", "setreuid", "setregid", "setresuid",
    "setresgid", "setgroups", "setsid", "setpgid", "daemon", "process_vm_readv", "process_vm_writev",
    "pthread_create", "pthread_kill", "pthread_sigqueue", "syscall", "exit", "_exit", "_Exit", "abort",
    "quick_exit", "atexit", "at_quick_exit", "on_exit", "cxa_atexit", "cxa_thread_atexit", "longjmp",
    "setjmp", "siglongjmp", "sigsetjmp", "getcontext", "setcontext", "makecontext", "swapcontext",
    # The environment and the loader.
    "getenv", "secure_getenv", "setenv", "putenv", "unsetenv", "clearenv", "environ", "dlopen", "dlmopen",
    "dlsym", "dlvsym", "dladdr", "dladdr1", "dlinfo", "dl_iterate_phdr", "getauxval",
    # The network.
    "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4", "send", "sendto", "sendmsg",
    "sendmmsg", "recv", "recvfrom", "recvmsg", "recvmmsg", "getaddrinfo", "gethostbyname", "getsockopt",
    "setsockopt",
    # Control flow behind the compiler's back.
    "__builtin_frame_address", "__builtin_return_address", "asm", "__asm__", "__asm", "goto", "_Pragma",
    "__builtin_trap_", "__has_include", "__has_include_next", "__builtin_longjmp", "__builtin_setjmp",
    "__builtin_apply", "__builtin_apply_args", "__builtin_return", "__builtin_eh_return",
    "__builtin_unwind_init",
})
# glibc's other spellings of one function (fopen64, fgetc_unlocked, __isoc99_fscanf, __libc_open,
# __secure_getenv): `_forbidden` strips these and checks what is left.
ALIAS_PREFIXES = ("__builtin___", "__builtin_", "__isoc99_", "__isoc23_", "__libc_", "__GI_", "_IO_", "__", "_")
ALIAS_SUFFIXES = ("_chk", "_unlocked", "64", "_time64")

# The emulator's own names (namespace wd, the harness's wd_* functions, the WD_* macros): calling its
# internals could write the result file directly, and a macro of that name could change what the
# runtime's macros expand to (they name nothing else; see macros.py and tests/emulator/test_macros.py).
RESERVED_NAME = re.compile(r"^(wd|wd_\w*|__warpdrill\w*)$", re.IGNORECASE)
# Predefined macros that the code written into the student's file relies on (barrier sites, lines).
BUILTIN_MACROS = frozenset({"__LINE__", "__COUNTER__", "__FILE__"})
# Digraphs spell # and [[ without those characters; no kernel needs them.
DIGRAPHS = ("%:", "<%", "%>", "<:", ":>")


def _forbidden(name: str) -> bool:
    """A forbidden name, as written or as one of glibc's and GCC's other spellings of it (ALIAS_PREFIXES,
    ALIAS_SUFFIXES: fopen64, fputs_unlocked, __isoc99_fscanf, __builtin_execve, __builtin___fprintf_chk)."""
    if name in FORBIDDEN_IDENTIFIERS or RESERVED_NAME.match(name):
        return True
    return any(core in FORBIDDEN_IDENTIFIERS for core in _alias_cores(name))


def _alias_cores(name: str) -> set[str]:
    """What `name` may spell once one alias prefix and any alias suffixes are taken off ({} for a name
    with none): "__isoc99_fscanf" -> {"fscanf"}, "fgetc_unlocked" -> {"fgetc"}, "open64" -> {"open"}."""
    stems = {name} | {name[len(p):] for p in ALIAS_PREFIXES if name.startswith(p) and len(name) > len(p)}
    cores = set()
    for stem in stems:
        while True:
            cores.add(stem)
            suffix = next((x for x in ALIAS_SUFFIXES if stem.endswith(x) and len(stem) > len(x)), None)
            if suffix is None:
                break
            stem = stem[:-len(suffix)]
    cores.discard(name)
    return {c for c in cores if c}




@dataclass
class Problem:
    """A static-check failure: reported as a COMPILE_ERROR message."""

    line: int
    message: M.Message  # a compile message of the catalogue (messages.COMPILE_MESSAGE)




_INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]*)[>"]\s*(//.*|/\*.*\*/)?\s*$', re.DOTALL)
_DIRECTIVE = re.compile(r"^\s*#\s*(\w*)")
ALLOWED_DIRECTIVES = frozenset({"define", "undef", "if", "ifdef", "ifndef", "elif", "else", "endif",
                                "pragma", "error", "warning", ""})



def _check_directive(tok: Token, problems: list[Problem]) -> None:
    text = directive_text(tok.text)
    name = _DIRECTIVE.match(text).group(1)
    if name == "include":
        m = _INCLUDE.match(text)
        header = m.group(2).strip() if m else text.strip()
        if not m or header not in ALLOWED_INCLUDES:
            allowed = ", ".join(sorted(ALLOWED_INCLUDES))
            problems.append(Problem(tok.line, M.COMPILE_MESSAGE["include"](header=header, allowed=allowed)))
        return
    if name not in ALLOWED_DIRECTIVES:
        problems.append(Problem(tok.line, M.COMPILE_MESSAGE["directive"](name=name)))
        return
    if name == "pragma" and re.search(r"\bdependency\b", text):
        problems.append(Problem(tok.line, M.COMPILE_MESSAGE["pragma_dependency"]()))
    # Macro bodies may not spell host escapes either (names built by pasting: pasting.py).
    inner_tokens = tokenize(text[text.find("#") + 1:])
    if name in ("define", "undef") and len(inner_tokens) > 1 and inner_tokens[1].text in BUILTIN_MACROS:
        problems.append(Problem(tok.line, M.COMPILE_MESSAGE["predefined_macro"](name=inner_tokens[1].text)))
    for k, inner in enumerate(inner_tokens):
        if inner.text in ("__attribute__", "__attribute") or _cxx11_attribute_start(inner_tokens, k):
            _check_attributes(inner_tokens, k, tok.line, problems)
        if inner.kind == "ident" and _forbidden(inner.text):
            problems.append(Problem(tok.line, _forbidden_message(inner.text)))
        elif _digraph(inner_tokens, k):
            problems.append(Problem(tok.line, _DIGRAPH_MESSAGE))


_DIGRAPH_MESSAGE = M.COMPILE_MESSAGE["digraphs"]()


def _digraph(tokens: list[Token], k: int) -> bool:
    """Whether tokens[k] starts a digraph (two adjacent punctuators; `<::` is not one, as in C++11)."""
    if k + 1 >= len(tokens) or tokens[k].kind != "punct" or tokens[k + 1].start != tokens[k].end:
        return False
    pair = tokens[k].text + tokens[k + 1].text
    if pair == "<:" and k + 2 < len(tokens) and tokens[k + 2].text == ":" and tokens[k + 2].start == tokens[k + 1].end:
        after = tokens[k + 3].text if k + 3 < len(tokens) and tokens[k + 3].start == tokens[k + 2].end else ""
        return after in (":", ">")
    return pair in DIGRAPHS


def _cxx11_attribute_start(tokens: list[Token], k: int) -> bool:
    """Whether tokens[k] opens a C++11 attribute list `[[`."""
    return tokens[k].text == "[" and k + 1 < len(tokens) and tokens[k + 1].text == "["


def _check_attributes(tokens: list[Token], k: int, line: int, problems: list[Problem]) -> None:
    """A problem for each attribute of the list at tokens[k] that is not harmless (declarations.py)."""
    if tokens[k].text == "[":
        names, _ = declarations.cxx11_attributes(tokens, k)
        spell = "[[%s]]"
    else:
        names, _ = declarations.gnu_attributes(tokens, k)
        spell = "__attribute__((%s))"
    for name in declarations.refused_attributes(names):
        problems.append(Problem(line, M.COMPILE_MESSAGE["attribute_named"](attribute=spell % name)))


def _forbidden_message(name: str) -> M.Message:
    if RESERVED_NAME.match(name):
        return M.COMPILE_MESSAGE["reserved_name"](name=name)
    if name in ("asm", "__asm__", "__asm"):
        return M.COMPILE_MESSAGE["asm"]()
    if name == "goto":
        return M.COMPILE_MESSAGE["goto"]()
    return M.COMPILE_MESSAGE["host_function"](name=name)



def check(tokens: list[Token]) -> list[Problem]:
    """Every static problem of the source's `tokens` (tokens.tokenize), in source order, one per line and
    message. Never raises on bad code."""
    problems: list[Problem] = []
    for i, tok in enumerate(tokens):
        if tok.kind == "pp":
            _check_directive(tok, problems)
            continue
        if tok.kind == "splice" or tok.text == "\\":
            problems.append(Problem(tok.line, M.COMPILE_MESSAGE["backslash"]()))
            continue
        if _digraph(tokens, i):
            problems.append(Problem(tok.line, _DIGRAPH_MESSAGE))
        if _cxx11_attribute_start(tokens, i) or tok.text in ("__attribute__", "__attribute"):
            _check_attributes(tokens, i, tok.line, problems)
        if tok.kind == "ident" and _forbidden(tok.text):
            problems.append(Problem(tok.line, _forbidden_message(tok.text)))
        elif tok.text == "<" and i + 2 < len(tokens) and tokens[i + 1].text == "<" and tokens[i + 2].text == "<" \
                and tokens[i + 1].start == tok.end and tokens[i + 2].start == tok.end + 1:
            problems.append(Problem(tok.line, M.COMPILE_MESSAGE["launch_in_kernel"]()))
    for line, message in declarations.linkage_problems(tokens) + declarations.constant_write_problems(tokens):
        problems.append(Problem(line, message))
    pastes = pasting.check_pastes(tokens, lambda name: _forbidden_message(name) if _forbidden(name) else None)
    problems.extend(Problem(line, message) for line, message in pastes.problems)
    return problems
