"""The static checks' refused names (grader/core/emulator/checks.py): every function of the C library's
file, process, environment, network and loader families, under any of glibc's spellings, is refused on
the student's line with a message naming it; the CUDA a kernel really writes is not.

The list's purpose is a clear COMPILE_ERROR for code that reaches the host, before the sandbox (the
boundary) has to contain it. A security tester's playground kernel read /proc/self/maps with fopen64
and fgetc, which the list did not know: these tests name families, not only what was seen."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from grader.core.emulator.checks import FORBIDDEN_IDENTIFIERS, _forbidden
from grader.core.emulator.rewrite import ALLOWED_INCLUDES, rewrite


def refusals(source: str, kernel: str = "k") -> list[tuple[int, str]]:
    return [(p.line, str(p.message)) for p in rewrite(source, kernel).problems]


def refused_message(name: str) -> str:
    return f"'{name}' is not available in kernels (no file, process or host access)"


# The tester's kernel, and one name of each family the brief named, in the spellings glibc gives them.
FAMILY = [
    "fopen64", "freopen", "freopen64", "fgetc", "fgetc_unlocked", "getc_unlocked", "fgets", "fgets_unlocked",
    "fread", "fread_unlocked", "getline", "getdelim", "fscanf", "__isoc99_fscanf", "fileno", "open64",
    "openat", "openat64", "creat64", "readlink", "readlinkat", "realpath", "stat64", "lstat", "access",
    "opendir", "readdir64", "scandir", "dlopen", "dlmopen", "dlsym", "dladdr", "dl_iterate_phdr", "mmap",
    "mmap64", "msync", "memfd_create", "syscall", "execveat", "posix_spawn", "waitpid", "prctl", "ptrace",
    "secure_getenv", "__secure_getenv", "getauxval", "environ", "on_exit", "__libc_open", "_IO_getc",
    "__uflow", "sendfile", "splice", "socketpair", "recvmsg", "pread64", "lseek64", "ftruncate64",
    "renameat2", "unlinkat", "mkdtemp", "tmpfile64", "dprintf", "fputs_unlocked", "fwrite_unlocked",
    "__builtin___fprintf_chk", "__builtin_execve", "FILE", "stdin", "stdout", "stderr",
]


@pytest.mark.parametrize("name", FAMILY)
def test_each_file_process_and_loader_name_is_refused_on_its_line(name):
    """Called, or merely named, in a kernel: a COMPILE_ERROR on that line naming it."""
    source = f"__global__ void k(int* out) {{\n    int x = 0;\n    (void){name};\n    out[0] = x;\n}}\n"
    assert (3, refused_message(name)) in refusals(source)


def test_the_testers_playground_kernel_is_refused_at_both_names():
    source = ("#include <cstdio>\n__global__ void k(int* out) {\n"
              "    auto m = fopen64(\"/proc/self/maps\", \"r\");\n"
              "    out[0] = m ? fgetc(m) : 0;\n}\n")
    found = refusals(source)
    assert (3, refused_message("fopen64")) in found and (4, refused_message("fgetc")) in found


def test_a_refused_name_declared_by_hand_or_built_in_a_macro_is_refused_too():
    """No header is needed to declare a libc function; a macro body that names one is refused where
    it is written, and a paste that builds one where it is used."""
    declared = "long syscall(long, ...);\n__global__ void k(int* out) { out[0] = (int)syscall(39); }\n"
    assert (1, refused_message("syscall")) in refusals(declared)
    macro = "#define READ_MAPS fopen64(\"/proc/self/maps\", \"r\")\n__global__ void k(int* out) { out[0] = READ_MAPS != 0; }\n"
    assert (1, refused_message("fopen64")) in refusals(macro)
    pasted = "#define CAT(a, b) a##b\n__global__ void k(int* out) { out[0] = CAT(fge, tc)(0); }\n"
    assert any(message == refused_message("fgetc") for _, message in refusals(pasted))


def _stream_functions() -> set[str]:
    """Every function the allowed headers declare that takes or returns a stream (FILE): the stdio
    file family as glibc's <cstdio> declares it here, aliases included."""
    headers = "".join(f"#include <{h}>\n" for h in sorted(ALLOWED_INCLUDES) if not h.startswith(("cuda", "cooperative",
                                                                                                   "device_", "curand")))
    text = subprocess.run([shutil.which("g++") or "/usr/bin/g++", "-E", "-P", "-x", "c++", "-D_GNU_SOURCE", "-"],
                          input=headers, capture_output=True, text=True, check=True).stdout
    names = set()
    for declaration in text.split(";"):
        if not re.search(r"\bFILE\b|\b_IO_FILE\b", declaration):
            continue
        head = declaration.split("(", 1)[0]  # the declared name is the last word before its parameters
        words = re.findall(r"[A-Za-z_]\w*", head)
        if words and "(" in declaration and not head.rstrip().endswith(("operator", "=")):
            names.add(words[-1])
    return {n for n in names if n not in ("FILE", "_IO_FILE", "typedef", "struct", "extern")}


@pytest.mark.skipif(shutil.which("g++") is None, reason="no g++ to read the headers with")
def test_every_stream_function_the_allowed_headers_declare_is_refused():
    """Read from the headers, not from a list: a glibc that adds an alias (fopen64 was one) is caught."""
    functions = _stream_functions()
    assert {"fopen64", "fgetc", "freopen", "fread", "getline", "fgets_unlocked"} <= functions
    assert sorted(name for name in functions if not _forbidden(name)) == []


@pytest.mark.parametrize("name", [
    "threadIdx", "blockIdx", "__syncthreads", "__syncwarp", "__shfl_down_sync", "__ldg", "atomicAdd", "__nanosleep",
    "printf", "snprintf", "memcpy", "memset", "malloc", "free", "strtoul", "sqrtf", "expf", "__expf", "fmaxf",
    "overflow", "sum", "data", "wait_count", "reader", "file_index", "open_count", "stats", "linked", "sync",
])
def test_cuda_and_ordinary_names_stay_allowed(name):
    """What kernels use, and ordinary words that only look like a refused name, pass."""
    assert not _forbidden(name)


def test_every_listed_name_is_an_identifier():
    assert all(re.fullmatch(r"[A-Za-z_]\w*", name) for name in FORBIDDEN_IDENTIFIERS)
