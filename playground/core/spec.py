"""What a playground run is asked to do: a kernel's arguments, their initial values, and the launch.

    parse_arguments(rows) -> tuple[ArgumentSpec, ...]     (PlaygroundSpecError on the first bad row)
    initial_value(arg) -> np.ndarray | np.generic        (the value the kernel starts with)
    parse_launch(grid, block, shared_bytes, args) -> LaunchConfig
    kernel_name(source, given) -> str

Rows come from the page's form or the API's JSON alike: dicts of strings (or numbers) with the keys
name, kind, dtype, size, init, value. Everything here is hostile input: every size is capped, every
dtype comes from a list, the bytes of all arrays together are capped, and typed-in values are
counted before they are parsed. Plain Python: no Django.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from grader.core import messages as M
from grader.core.kernel import C_TYPES, ArgRole, ArgSpec, KernelSpec, LaunchConfig
from grader.core.launch import LaunchExpressionError, build_launch, launch_problem

from .errors import PlaygroundSpecError

MAX_ARGUMENTS = 8
MAX_ELEMENTS = 1 << 20  # elements of one array (1M: a 1024 x 1024 matrix)
MAX_TOTAL_BYTES = 16 << 20  # bytes of all arrays together
MAX_TYPED_VALUES = 4096  # numbers typed in for one array
MAX_VALUE_CHARS = 64 * 1024  # characters of one row's value field
MAX_THREADS = 1 << 20  # threads of one launch: the emulator runs each one on a CPU
MAX_SHARED_BYTES = 48 * 1024  # dynamic shared memory without the opt-in
RANDOM_INT_RANGE = (0, 100)  # random integers are drawn from [0, 100): small enough to read

NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,31}")
SIZE_RE = re.compile(r"\s*(\d{1,30})\s*(?:[x×,*]\s*(\d{1,30})\s*)?")  # any count: the range check names the limit

# The error templates: grader.core.messages.PLAYGROUND (codes and parameters, translated at the edge).
E_TOO_MANY = M.PLAYGROUND["too_many"]
E_NAME = M.PLAYGROUND["name"]
E_NAME_TWICE = M.PLAYGROUND["name_twice"]
E_KIND = M.PLAYGROUND["kind"]
E_DTYPE = M.PLAYGROUND["dtype"]
E_SIZE = M.PLAYGROUND["size"]
E_SIZE_RANGE = M.PLAYGROUND["size_range"]
E_TOTAL = M.PLAYGROUND["total"]
E_INIT = M.PLAYGROUND["init"]
E_SEED = M.PLAYGROUND["seed"]
E_VALUES_COUNT = M.PLAYGROUND["values_count"]
E_VALUES_MANY = M.PLAYGROUND["values_many"]
E_VALUES_LONG = M.PLAYGROUND["values_long"]
E_NUMBER = M.PLAYGROUND["number"]
E_SCALAR_EMPTY = M.PLAYGROUND["scalar_empty"]
E_LAUNCH = M.PLAYGROUND["launch"]
E_THREADS = M.PLAYGROUND["threads"]
E_SHARED = M.PLAYGROUND["shared"]
E_NO_KERNEL = M.PLAYGROUND["no_kernel"]
E_KERNEL_NAME = M.PLAYGROUND["kernel_name"]
E_NO_ARGUMENTS = M.PLAYGROUND["no_arguments"]


class ArgKind(StrEnum):
    """What an argument is to the kernel."""

    INPUT = "input"  # an array the kernel reads (const T*); not shown after the run
    OUTPUT = "output"  # an array the kernel writes (T*); starts as its initialiser says, shown after the run
    SCALAR = "scalar"  # a value passed by value


class Init(StrEnum):
    """How an array starts."""

    ZEROS = "zeros"  # every element 0
    RANGE = "range"  # element i is i (0, 1, 2, ... in row-major order)
    RANDOM = "random"  # seeded: floats uniform in [0, 1), integers uniform in [0, 100)
    VALUES = "values"  # typed in, separated by commas, spaces or new lines


@dataclass(frozen=True)
class ArgumentSpec:
    """One kernel parameter and its starting value.

    `shape` is () for a scalar, (n,) or (rows, cols) for an array; `value` is the scalar's value,
    the random initialiser's seed (an int) or the typed-in numbers (a tuple), by `init`."""

    name: str
    kind: ArgKind
    dtype: str  # a key of grader.core.backends.base.C_TYPES
    shape: tuple[int, ...] = ()
    init: Init = Init.ZEROS
    value: object = None

    @property
    def is_array(self) -> bool:
        return self.kind is not ArgKind.SCALAR

    @property
    def size(self) -> int:
        """Elements of an array (1 for a scalar)."""
        return int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1

    @property
    def nbytes(self) -> int:
        return self.size * np.dtype(self.dtype).itemsize if self.is_array else 0

    def arg_spec(self) -> ArgSpec:
        """The judge's view: inputs are IN, outputs INOUT (their initial values are copied in)."""
        role = {ArgKind.INPUT: ArgRole.IN, ArgKind.OUTPUT: ArgRole.INOUT, ArgKind.SCALAR: ArgRole.SCALAR}[self.kind]
        return ArgSpec(self.name, role, self.dtype)

    def to_dict(self) -> dict:
        """The row as the form and the API write it (strings), so that a run can be opened again."""
        if self.init is Init.VALUES and self.is_array:
            value = ", ".join(_format(v) for v in self.value)
        else:
            value = "" if self.value is None else _format(self.value)
        return {"name": self.name, "kind": str(self.kind), "dtype": self.dtype,
                "size": "x".join(map(str, self.shape)), "init": str(self.init) if self.is_array else "",
                "value": value}


def _format(value) -> str:
    return repr(value) if isinstance(value, float) else str(value)


def _text(row: dict, key: str) -> str:
    value = row.get(key, "")
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return "\0"  # never valid: a list or an object where a string belongs
    return str(value).strip()


def parse_number(text: str, dtype: str, name: str, where: str = "args"):
    """`text` as a NumPy scalar of `dtype`, refusing what does not fit (300 for uint8, 1.5 for int32)."""
    np_type = np.dtype(dtype)
    try:
        if np_type.kind == "f":
            number = float(text)
            return np_type.type(number)
        number = int(text, 0) if text.lower().startswith(("0x", "-0x")) else int(text)
    except (ValueError, OverflowError):
        raise PlaygroundSpecError(f"{where}.value", E_NUMBER, name=name, value=text[:40], dtype=dtype) from None
    info = np.iinfo(np_type)
    if not info.min <= number <= info.max:
        raise PlaygroundSpecError(f"{where}.value", E_NUMBER, name=name, value=text[:40], dtype=dtype)
    return np_type.type(number)


def _shape(text: str, name: str, where: str) -> tuple[int, ...]:
    match = SIZE_RE.fullmatch(text)
    if not match:
        raise PlaygroundSpecError(f"{where}.size", E_SIZE, name=name, size=text[:40])
    shape = tuple(int(g) for g in match.groups() if g is not None)
    count = math.prod(shape)  # Python integers: 10**20 elements is "too many", not an overflow
    if not 1 <= count <= MAX_ELEMENTS:
        raise PlaygroundSpecError(f"{where}.size", E_SIZE_RANGE, name=name, count=count, max=MAX_ELEMENTS)
    return shape


def _typed_values(text: str, dtype: str, name: str, where: str) -> tuple:
    if len(text) > MAX_VALUE_CHARS:
        raise PlaygroundSpecError(f"{where}.value", E_VALUES_LONG, name=name, max=MAX_VALUE_CHARS)
    words = [w for w in re.split(r"[\s,;]+", text) if w]
    if len(words) > MAX_TYPED_VALUES:
        raise PlaygroundSpecError(f"{where}.value", E_VALUES_MANY, name=name, max=MAX_TYPED_VALUES)
    return tuple(parse_number(w, dtype, name, where).item() for w in words)


def parse_argument(row: dict, number: int) -> ArgumentSpec | None:
    """One row (`number` counts from 1, for messages) as an ArgumentSpec; None for a row left empty.

    Raises PlaygroundSpecError naming the row's field as args.<index>.<key>, the index counting from
    0 as in the API's JSON array."""
    name = _text(row, "name")
    if not name:
        return None
    where = f"args.{number - 1}"
    if not NAME_RE.fullmatch(name):
        raise PlaygroundSpecError(f"{where}.name", E_NAME, number=number, name=name[:40])
    kind_text = _text(row, "kind") or "input"
    if kind_text not in ArgKind.__members__.values():
        raise PlaygroundSpecError(f"{where}.kind", E_KIND, name=name, kind=kind_text[:20],
                                  kinds=", ".join(ArgKind))
    kind = ArgKind(kind_text)
    dtype = _text(row, "dtype") or ("int32" if kind is ArgKind.SCALAR else "float32")
    if dtype not in C_TYPES:
        raise PlaygroundSpecError(f"{where}.dtype", E_DTYPE, name=name, dtype=dtype[:20], dtypes=", ".join(C_TYPES))
    value_text = _text(row, "value")
    if kind is ArgKind.SCALAR:
        if not value_text:
            raise PlaygroundSpecError(f"{where}.value", E_SCALAR_EMPTY, name=name)
        return ArgumentSpec(name, kind, dtype, value=parse_number(value_text, dtype, name, where).item())
    init_text = _text(row, "init") or "zeros"
    if init_text not in Init.__members__.values():
        raise PlaygroundSpecError(f"{where}.init", E_INIT, name=name, init=init_text[:20], inits=", ".join(Init))
    init = Init(init_text)
    size_text = _text(row, "size")
    value: object = None
    if init is Init.VALUES:
        value = _typed_values(value_text, dtype, name, where)
        shape = _shape(size_text, name, where) if size_text else _shape(str(len(value)), name, where)
        if len(value) != int(np.prod(shape)):
            raise PlaygroundSpecError(f"{where}.value", E_VALUES_COUNT, name=name, count=len(value),
                                      size=int(np.prod(shape)))
    else:
        shape = _shape(size_text, name, where)
        if init is Init.RANDOM:
            try:
                value = int(value_text or "0")
            except ValueError:
                value = -1
            if not 0 <= value < 2**32:
                raise PlaygroundSpecError(f"{where}.value", E_SEED, name=name, value=value_text[:40])
    return ArgumentSpec(name, kind, dtype, shape, init, value)


def parse_arguments(rows) -> tuple[ArgumentSpec, ...]:
    """Every non-empty row as an ArgumentSpec, in order (the kernel's parameter order).

    Raises PlaygroundSpecError: too many rows, a bad row, a name used twice, no output array, or
    more than MAX_TOTAL_BYTES of arrays."""
    if not isinstance(rows, (list, tuple)):
        rows = []
    if len(rows) > MAX_ARGUMENTS and sum(1 for r in rows if isinstance(r, dict) and _text(r, "name")) > MAX_ARGUMENTS:
        raise PlaygroundSpecError("args", E_TOO_MANY, max=MAX_ARGUMENTS)
    args: list[ArgumentSpec] = []
    for number, row in enumerate(rows, start=1):
        arg = parse_argument(row if isinstance(row, dict) else {}, number)
        if arg is None:
            continue
        if any(a.name == arg.name for a in args):
            raise PlaygroundSpecError(f"args.{number - 1}.name", E_NAME_TWICE, number=number, name=arg.name)
        args.append(arg)
    if not any(a.kind is ArgKind.OUTPUT for a in args):
        raise PlaygroundSpecError("args", E_NO_ARGUMENTS)
    total = sum(a.nbytes for a in args)
    if total > MAX_TOTAL_BYTES:
        raise PlaygroundSpecError("args", E_TOTAL, mib=f"{total / (1 << 20):.1f}", max=MAX_TOTAL_BYTES >> 20)
    return tuple(args)


def initial_value(arg: ArgumentSpec):
    """The value `arg` starts with: a C-contiguous array of its shape and dtype, or a NumPy scalar.

    RANDOM draws from numpy's default_rng(seed): the same seed gives the same array on every machine."""
    dtype = np.dtype(arg.dtype)
    if not arg.is_array:
        return dtype.type(arg.value)
    if arg.init is Init.ZEROS:
        return np.zeros(arg.shape, dtype=dtype)
    if arg.init is Init.RANGE:
        return np.arange(arg.size, dtype=np.int64).astype(dtype).reshape(arg.shape)
    if arg.init is Init.VALUES:
        return np.array(arg.value, dtype=dtype).reshape(arg.shape)
    rng = np.random.default_rng(int(arg.value or 0))
    if dtype.kind == "f":
        return rng.random(arg.shape).astype(dtype)
    return rng.integers(*RANDOM_INT_RANGE, size=arg.shape).astype(dtype)


def launch_names(args) -> dict[str, int]:
    """The integers a launch expression may name: every integer scalar (n in `ceil_div(n, 256)`)."""
    return {a.name: int(a.value) for a in args if not a.is_array and np.dtype(a.dtype).kind in "iu"}


def parse_launch(grid: str, block: str, shared_bytes: str, args=()) -> LaunchConfig:
    """The launch from its three fields (dim3 as "x[, y[, z]]", each an expression of the integer
    scalars). Raises PlaygroundSpecError for an expression that cannot be evaluated, a launch CUDA
    refuses, more than MAX_THREADS threads or dynamic shared memory past MAX_SHARED_BYTES."""
    try:
        launch = build_launch(block or "1", grid or "1", shared_bytes or "0", launch_names(args))
    except LaunchExpressionError as exc:
        field = f"launch.{exc.message.params.get('field', 'grid')}"
        raise PlaygroundSpecError(field, E_LAUNCH, reason=exc.message) from None
    if not 0 <= launch.shared_bytes <= MAX_SHARED_BYTES:
        raise PlaygroundSpecError("launch.shared_bytes", E_SHARED, bytes=launch.shared_bytes, max=MAX_SHARED_BYTES)
    refused = launch_problem(launch)
    if refused:
        raise PlaygroundSpecError("launch.block", E_LAUNCH, reason=refused)
    threads = launch.blocks * launch.threads_per_block
    if threads > MAX_THREADS:
        raise PlaygroundSpecError("launch.grid", E_THREADS, threads=threads, max=MAX_THREADS)
    return launch


_GLOBAL = re.compile(r"\b__global__\b")
_LAUNCH_BOUNDS = re.compile(r"__launch_bounds__\s*\([^()]*\)")
_WORD = re.compile(r"[A-Za-z_]\w*")
HEAD_CHARS = 400  # characters after `__global__` in which the kernel's name and its `(` must be


def kernel_name(source: str, given: str = "") -> str:
    """The kernel to launch: `given` when set, else the first `__global__` function of `source`: the
    last identifier before the first `(` that follows `__global__` (after `__launch_bounds__(...)`).

    Linear in the source's length (each `__global__` looks at HEAD_CHARS characters at most: the
    source is hostile). Raises PlaygroundSpecError when `given` is no identifier or no kernel is found."""
    given = (given or "").strip()
    if given:
        if not NAME_RE.fullmatch(given):
            raise PlaygroundSpecError("kernel", E_KERNEL_NAME, name=given[:40])
        return given
    for found in _GLOBAL.finditer(source):
        head = _LAUNCH_BOUNDS.sub(" ", source[found.end():found.end() + HEAD_CHARS])
        paren = head.find("(")
        words = [w for w in _WORD.findall(head[:paren]) if w != "__launch_bounds__"] if paren >= 0 else []
        if words:
            return words[-1]
    raise PlaygroundSpecError("kernel", E_NO_KERNEL)


def kernel_spec(name: str, args) -> KernelSpec:
    """The judge's KernelSpec of the kernel `name` with `args` in order."""
    return KernelSpec(name, tuple(a.arg_spec() for a in args))
