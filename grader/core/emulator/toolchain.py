"""Building the emulator: the runtime library (once per worker) and student binaries (cached).

The runtime library (`src/*.cpp`) is our own trusted code: it is compiled directly, once, into
`<cache>/runtime-<hash>/` where the hash covers the runtime sources, the headers and the compiler
version, under a file lock so concurrent workers never race. Student code is compiled inside the
sandbox, against the light header only, and linked with that library.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shlex
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

from .. import messages as M
from ..errors import PlatformError
from ..results import CompileMessage

EMULATOR_DIR = Path(__file__).resolve().parent
INCLUDE_DIR = EMULATOR_DIR / "include"
SRC_DIR = EMULATOR_DIR / "src"
REPO_ROOT = EMULATOR_DIR.parents[2]
# The C++ compiler: the emulator backend's cxx option (WARPDRILL_CXX) names another only in fault
# tests (a missing compiler is a platform fault). It must lie under /usr: student code is compiled
# inside the sandbox, which sees only /usr.
DEFAULT_CXX = "/usr/bin/g++"

# Inside the sandbox: where our headers and the runtime library appear.
SANDBOX_INCLUDE = "/wd/include"
SANDBOX_LIB = "/wd/lib"

# Flags shared by the runtime and student code. -fwrapv and -fno-strict-aliasing make integer
# overflow and type punning behave as they do on a GPU instead of being optimised as UB; -fcoroutines
# gives C++17 the coroutines of coro mode (include/warpdrill/detail/coro.hpp); -no-pie
# makes fault addresses map directly to lines with addr2line.
COMMON_FLAGS = ["-std=c++17", "-fcoroutines", "-g", "-fno-omit-frame-pointer", "-fwrapv", "-fno-strict-aliasing"]
VARIANTS = {
    "fast": {"opt": ["-O2"], "link": []},
    # Race checking: ThreadSanitizer instruments the student's code (see docs/emulator.md).
    # memcpy/memset/memmove stay calls there (ThreadSanitizer intercepts them): g++ expands a
    # constant-size call inline into moves that the instrumentation does not see. No redundant-load
    # elimination either: `s[0] = t; int k = s[0];` must read s[0] as the source says (other threads
    # store there too), not reuse `t`, or the read that races is not seen.
    "tsan": {"opt": ["-O1", "-fsanitize=thread", "-DWD_TSAN=1", "-fno-builtin-memcpy", "-fno-builtin-memset",
                     "-fno-builtin-memmove", "-fno-tree-fre", "-fno-tree-pre", "-fno-tree-dominator-opts"],
             "link": ["-fsanitize=thread"]},
    # The write map: every store of the student's code calls the runtime (src/writemap.cpp), through
    # the kernel-address sanitizer's instrumentation in call mode, without its runtime or shadow.
    # memcpy/memset stay calls the instrumentation does not see (a limit: docs/emulator.md).
    "writemap": {"opt": ["-O2", "-fsanitize=kernel-address", "--param", "asan-instrumentation-with-call-threshold=0",
                         "--param", "asan-instrument-reads=0", "--param", "asan-stack=0", "--param", "asan-globals=0",
                         "-DWD_WRITEMAP=1"], "link": []},
    # The shared-memory initcheck (check mode): every load and store of the student's code calls the
    # runtime (src/initcheck.cpp), which knows which shared bytes the running block has written.
    "initcheck": {"opt": ["-O2", "-fsanitize=kernel-address", "--param", "asan-instrumentation-with-call-threshold=0",
                          "--param", "asan-stack=0", "--param", "asan-globals=0", "-DWD_INITCHECK=1"], "link": []},
}
LOG_CAP = 16 * 1024


def default_cache_dir(cache_root: str | Path | None = None) -> Path:
    """`cache_root`/emulator (the site's cache folder: config/settings.py's WARPDRILL_CACHE_DIR, handed
    to the backends as their cache_root option, so a site moved by WARPDRILL_VAR_DIR takes its compile
    cache with it), else var/cache/emulator under the repository root."""
    return (Path(cache_root) if cache_root else REPO_ROOT / "var" / "cache") / "emulator"


def _compiler_version(cxx: str) -> str:
    try:
        return subprocess.run([cxx, "--version"], capture_output=True, text=True, check=True).stdout.splitlines()[0]
    except (OSError, subprocess.CalledProcessError, IndexError) as exc:
        raise PlatformError(f"the C++ compiler ({cxx}) is not available: {exc}") from exc


def runtime_hash(cxx: str = DEFAULT_CXX) -> str:
    """A hash of everything the runtime library and student builds depend on (`cxx`: the compiler)."""
    h = hashlib.sha256(_compiler_version(cxx).encode())
    for path in sorted(list(SRC_DIR.rglob("*")) + list(INCLUDE_DIR.rglob("*"))):
        if path.is_file():
            h.update(str(path.relative_to(EMULATOR_DIR)).encode())
            h.update(path.read_bytes())
    h.update(repr(COMMON_FLAGS).encode() + repr(VARIANTS).encode())
    return h.hexdigest()[:16]


@dataclass
class Runtime:
    """A built runtime library for every variant: `lib_dir/libwdrt-<variant>.a`."""

    hash: str
    lib_dir: Path


def runtime_built(cache_dir: Path, variant: str = "fast", cxx: str = DEFAULT_CXX) -> bool:
    """Whether `variant`'s runtime library for the compiler `cxx` is built in `cache_dir` (its done marker)."""
    return (cache_dir / f"runtime-{runtime_hash(cxx)}" / f".done-{variant}").exists()


def runtime_building(cache_dir: Path, variants, cxx: str = DEFAULT_CXX) -> bool:
    """Whether another process is building the runtime in `cache_dir` now (it holds the runtime's lock)
    while one of `variants` is not built yet: a grading started now would wait for it."""
    if all(runtime_built(cache_dir, v, cxx) for v in variants):
        return False
    path = cache_dir / f"runtime-{runtime_hash(cxx)}.lock"
    try:
        with open(path, "r") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(lock, fcntl.LOCK_UN)
    except OSError:  # no lock file: nobody has started a build
        return False
    return False


class BuildStoppedError(PlatformError):
    """A runtime build was stopped by stop_builds (its worker is shutting down); nothing is wrong."""


# The compilers of runtime builds in progress in this process, and whether new builds may start.
_builds: set[subprocess.Popen] = set()
_builds_lock = threading.Lock()
_stopping = threading.Event()


def stop_builds() -> None:
    """Stop this process's runtime builds now and start no more: a worker that is shutting down
    (grader.tasks) does not make Ctrl+C wait for a build, nor log it as broken (BuildStoppedError)."""
    _stopping.set()
    with _builds_lock:
        for proc in _builds:
            proc.terminate()


def build_runtime(cache_dir: Path, variant: str = "fast", cxx: str = DEFAULT_CXX) -> Runtime:
    """Build (or reuse) the runtime library for `variant` with the compiler `cxx`. Raises PlatformError
    if it does not compile, BuildStoppedError if stop_builds stopped it."""
    digest = runtime_hash(cxx)
    lib_dir = cache_dir / f"runtime-{digest}"
    done = lib_dir / f".done-{variant}"
    if done.exists():
        return Runtime(digest, lib_dir)
    cache_dir.mkdir(parents=True, exist_ok=True)
    with open(cache_dir / f"runtime-{digest}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if done.exists():
            return Runtime(digest, lib_dir)
        lib_dir.mkdir(parents=True, exist_ok=True)
        objects, procs = [], []
        with _builds_lock:
            if _stopping.is_set():
                raise BuildStoppedError("the runtime build was not started: the worker is stopping")
            procs = _start_compilers(lib_dir, variant, cxx, objects)
            _builds.update(procs)
        try:
            for proc in procs:  # the sources compile in parallel: this runs once per worker and cache
                output, _ = proc.communicate()
                if _stopping.is_set():
                    raise BuildStoppedError("the runtime build was stopped: the worker is stopping")
                if proc.returncode != 0:
                    raise PlatformError(f"the emulator runtime does not compile: {output[-2000:]}")
        finally:
            with _builds_lock:
                _builds.difference_update(procs)
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
        archive = lib_dir / f"libwdrt-{variant}.a"
        subprocess.run(["ar", "rcs", str(archive), *objects], check=True, capture_output=True)
        done.write_text(digest)
    return Runtime(digest, lib_dir)


def _start_compilers(lib_dir: Path, variant: str, cxx: str, objects: list[str]) -> list[subprocess.Popen]:
    """Start one compiler per runtime source (appending each object's path to `objects`)."""
    procs = []
    for src in sorted(SRC_DIR.glob("*.cpp")):
        obj = lib_dir / f"{src.stem}-{variant}.o"
        # The runtime itself is never instrumented: TSan sees only the student's accesses
        # plus the happens-before annotations the runtime makes explicitly.
        opt = ["-O2"] + {"tsan": ["-DWD_TSAN=1"], "writemap": ["-DWD_WRITEMAP=1"],
                         "initcheck": ["-DWD_INITCHECK=1"]}.get(variant, [])
        cmd = [cxx, *COMMON_FLAGS, *opt, "-I", str(INCLUDE_DIR), "-I", str(INCLUDE_DIR / "warpdrill"),
               "-c", str(src), "-o", str(obj)]
        procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
        objects.append(str(obj))
    return procs


# A translation unit that compiles and links whenever the toolchain works: it defines the two
# functions the runtime calls and nothing else. Used to tell a broken toolchain from a student's
# error when a failed compile names no line of the student's code.
PROBE_SOURCE = ('extern "C" void wd_user_setup(void* const*) {}\n'
                'extern "C" void wd_user_thread() {}\n'
                'extern "C" void* wd_user_coro() { return nullptr; }\n')


def missing_compiler(cxx: str = DEFAULT_CXX) -> str | None:
    """Why the C++ compiler `cxx` cannot be started on this worker (user-safe), or None when it is there.

    Only checks that `cxx` is an executable file: a compiler whose own parts are gone (cc1plus, as,
    ld, a library) is found by compiling PROBE_SOURCE instead.
    """
    if not (os.path.isfile(cxx) and os.access(cxx, os.X_OK)):
        return f"the C++ compiler ({cxx}) is not available on this worker"
    return None


def names_student_line(messages: list[CompileMessage]) -> bool:
    """True when a compile error points at a line of the student's code: the student's failure,
    whatever else went wrong."""
    return any(m.line is not None and m.severity == "error" for m in messages)


OBJCOPY = "/usr/bin/objcopy"  # binutils, which g++ needs anyway
# The only symbols of the student's object the runtime may see (jobs.harness_source defines them).
ENTRY_POINTS = ("wd_user_setup", "wd_user_thread", "wd_user_coro")


PRELUDE = "warpdrill/prelude.hpp"


def pch_dir(variant: str) -> str:
    """Where the precompiled prelude of `variant` lies inside the sandbox: a folder of the runtime's
    cache (bound at SANDBOX_LIB) holding only `warpdrill/prelude.hpp.gch`. It comes first on the
    include path, so g++ takes the .gch when it is valid for the flags and the header otherwise."""
    return f"{SANDBOX_LIB}/pch-{variant}"


def _cc_flags(variant: str, cxx: str) -> list[str]:
    return [cxx, *COMMON_FLAGS, *VARIANTS[variant]["opt"], "-I", pch_dir(variant), "-I", SANDBOX_INCLUDE]


def pch_argv(variant: str, output_name: str, cxx: str = DEFAULT_CXX) -> list[str]:
    """The command that precompiles the prelude for `variant` (paths inside the sandbox, with the
    same flags as compile_argv, so the .gch is valid for the student's compile): parsing the
    prelude's ~23,000 preprocessed lines is most of a submission's compile."""
    return [*_cc_flags(variant, cxx), "-x", "c++-header", f"{SANDBOX_INCLUDE}/{PRELUDE}", "-o", output_name]


# gold links a submission in about a third of the CPU time of the default bfd linker (0.06 s
# against 0.15 s: bench/emulator_compile.py); bfd where gold is not installed.
LINKER = ["-fuse-ld=gold"] if os.path.exists("/usr/bin/ld.gold") else []


def compile_argv(variant: str, source_name: str, output_name: str, cxx: str = DEFAULT_CXX) -> list[str]:
    """The command that builds a student's binary, with paths as seen inside the sandbox.

    Three steps in one shell: g++ compiles the student's translation unit to an object (the prelude
    from its .gch in pch_dir when the backend built one, else parsed); objcopy
    makes every symbol it defines local except ENTRY_POINTS; g++ links it with the runtime.
    Without the second step a student's definition of a libc function (`snprintf`: <cstdio> gives
    it C linkage) or of `main` (`int (main)(...)` escapes the rename) would be the one the runtime's
    own calls reach, and could write the result file; local symbols never resolve another
    object's references, so the runtime always gets libc's and its own.
    """
    flags = VARIANTS[variant]
    obj = f"{output_name}.o"
    cc = [*_cc_flags(variant, cxx), "-include", PRELUDE, "-x", "c++", "-c", source_name, "-o", obj]
    localize = [OBJCOPY, *(f"--keep-global-symbol={name}" for name in ENTRY_POINTS), obj]
    link = [cxx, "-no-pie", *LINKER, *flags["link"], obj, f"{SANDBOX_LIB}/libwdrt-{variant}.a", "-Wl,-Bstatic",
            "-lboost_context", "-Wl,-Bdynamic", "-lpthread", "-o", output_name]
    script = " && ".join(" ".join(shlex.quote(a) for a in step) for step in (cc, localize, link))
    return ["/bin/sh", "-c", script]


_MESSAGE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>fatal error|error|warning|note): (?P<msg>.*)$")


def parse_messages(log: str, student_file: str = "kernel.cu") -> list[CompileMessage]:
    """Compiler diagnostics, with lines in the student's file (None for lines in our code)."""
    messages = []
    for raw in log.splitlines():
        m = _MESSAGE.match(raw)
        if not m:
            continue
        sev = "error" if m["sev"] == "fatal error" else m["sev"]
        if os.path.basename(m["file"]) == student_file:
            messages.append(CompileMessage(int(m["line"]), int(m["col"]), sev, m["msg"]))
        elif sev == "error":
            msg = m["msg"]
            if "harness" in m["file"]:
                msg = M.COMPILE_MESSAGE["harness_call"](compiler=msg)
            messages.append(CompileMessage(None, None, sev, msg))
    return messages


def clean_log(log: str) -> str:
    """Hide sandbox paths and cap the log, noting how much was dropped."""
    log = log.replace(SANDBOX_INCLUDE + "/", "<emulator>/").replace("/box/", "")
    if len(log) > LOG_CAP:
        log = log[:LOG_CAP] + f"\n[log truncated: {len(log) - LOG_CAP} more characters dropped]\n"
    return log
