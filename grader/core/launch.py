"""Launch configurations written as expressions of a test case's sizes.

A problem (or a student, where the problem allows it) gives the block and grid as short
arithmetic expressions such as ``"16, 16"`` and ``"ceil_div(w, 16), ceil_div(h, 16)"``.
They are parsed with `ast` and evaluated over integers only: no attribute access, no calls
but the few functions below, so a hostile expression cannot run code. An expression that cannot
be evaluated raises LaunchExpressionError, whose `message` is a messages.Message.
"""
from __future__ import annotations

import ast
import operator
import re

from . import messages as M
from .errors import LaunchConfigError
from .kernel import DEFAULT_DYNAMIC_SHARED_BYTES, LaunchConfig

MAX_EXPRESSION_CHARS = 200

# CUDA's limits that hold on every compute capability since 3.0.
MAX_THREADS_PER_BLOCK = 1024
MAX_BLOCK_DIM = (1024, 1024, 64)
MAX_GRID_DIM = (2**31 - 1, 65535, 65535)


class LaunchExpressionError(LaunchConfigError):
    """A launch expression cannot be evaluated. `message` is the messages.Message that says why (its
    str, the exception's text, is the English), so the site can show it in the reader's language."""

    def __init__(self, template: M.Template, **params):
        self.message = template(**params)  # a nested message for a field's error
        super().__init__(str(self.message))


def _ceil_div(a: int, b: int) -> int:
    if b == 0:
        raise LaunchExpressionError(M.LAUNCH_CEIL_DIV_ZERO)
    return -(-a // b)


FUNCTIONS = {"ceil_div": _ceil_div, "cdiv": _ceil_div, "min": min, "max": max}
# How many arguments each function takes: (at least, exactly or None for "any number from there").
ARITY = {"ceil_div": (2, 2), "cdiv": (2, 2), "min": (2, None), "max": (2, None)}

BINARY = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Div: operator.floordiv,  # C integer division (operands are non-negative sizes)
    ast.Mod: operator.mod,
    ast.LShift: operator.lshift,
    ast.RShift: operator.rshift,
}


def _eval(node: ast.AST, names: dict[str, int]) -> int:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in names:
            if not names:
                raise LaunchExpressionError(M.LAUNCH_UNKNOWN_NAME_NO_SIZES, name=node.id)
            raise LaunchExpressionError(M.LAUNCH_UNKNOWN_NAME, name=node.id, known=", ".join(sorted(names)))
        return int(names[node.id])
    if isinstance(node, ast.BinOp) and type(node.op) in BINARY:
        left, right = _eval(node.left, names), _eval(node.right, names)
        if type(node.op) in (ast.FloorDiv, ast.Div, ast.Mod) and right == 0:
            raise LaunchExpressionError(M.LAUNCH_DIVISION_BY_ZERO)
        if type(node.op) in (ast.LShift, ast.RShift) and right < 0:
            raise LaunchExpressionError(M.LAUNCH_SHIFT_NEGATIVE)  # Python raises ValueError for these
        if type(node.op) is ast.LShift and right > 62:
            raise LaunchExpressionError(M.LAUNCH_SHIFT_TOO_LARGE)
        result = BINARY[type(node.op)](left, right)
        if abs(result) > 2**63:
            raise LaunchExpressionError(M.LAUNCH_VALUE_TOO_LARGE)
        return result
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_eval(node.operand, names)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS:
        function = node.func.id
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            raise LaunchExpressionError(M.LAUNCH_POSITIONAL_ONLY, function=function)
        # A wrong count would raise TypeError inside min() or _ceil_div(): a platform fault, not the student's.
        least, most = ARITY[function]
        if len(node.args) < least or (most is not None and len(node.args) > most):
            template = M.LAUNCH_TWO_ARGUMENTS if most is not None else M.LAUNCH_TWO_OR_MORE_ARGUMENTS
            raise LaunchExpressionError(template, function=function, count=len(node.args))
        return FUNCTIONS[function](*[_eval(a, names) for a in node.args])
    raise LaunchExpressionError(M.LAUNCH_NOT_ALLOWED)


def evaluate_dims(expression: str, names: dict[str, int], what: str) -> tuple[int, int, int]:
    """Evaluate ``"x[, y[, z]]"`` to a 3-tuple of ints (missing dimensions are 1).

    `what` names the field in error messages ("block", "grid"). Raises LaunchExpressionError
    (LAUNCH_FIELD_ERROR: the field, and a nested message that says what is expected).
    """
    def error(template: M.Template, **params) -> LaunchExpressionError:
        return LaunchExpressionError(M.LAUNCH_FIELD_ERROR, field=what, error=template(**params))

    text = str(expression).strip()
    if not text:
        raise error(M.LAUNCH_EMPTY)
    if len(text) > MAX_EXPRESSION_CHARS:
        raise error(M.LAUNCH_TOO_LONG, limit=MAX_EXPRESSION_CHARS)
    try:
        tree = ast.parse(f"({text},)", mode="eval")
    except SyntaxError:
        raise error(M.LAUNCH_UNPARSABLE, text=text) from None
    elements = tree.body.elts if isinstance(tree.body, ast.Tuple) else [tree.body]
    if not 1 <= len(elements) <= 3:
        raise error(M.LAUNCH_DIMENSIONS, count=len(elements))
    try:
        values = [_eval(e, names) for e in elements]
    except LaunchExpressionError as exc:
        raise LaunchExpressionError(M.LAUNCH_FIELD_ERROR, field=what, error=exc.message) from None
    while len(values) < 3:
        values.append(1)
    return tuple(values)  # type: ignore[return-value]


def build_launch(block: str, grid: str, shared_bytes: str | int, names: dict[str, int], *,
                 max_dynamic_shared_bytes: int = DEFAULT_DYNAMIC_SHARED_BYTES, cooperative: bool = False) -> LaunchConfig:
    """Evaluate block, grid and dynamic shared memory expressions into a LaunchConfig.

    The values are NOT checked against CUDA's limits here: an invalid launch is the student's
    error and is reported by the backend as the runtime would (cudaErrorInvalidConfiguration).
    `max_dynamic_shared_bytes` (the problem's opt-in) and `cooperative` are carried as they are.
    Raises LaunchExpressionError (a LaunchConfigError) for expressions that cannot be evaluated.
    """
    names = dict(names)
    b = evaluate_dims(block, names, "block")
    names.update({"block_x": b[0], "block_y": b[1], "block_z": b[2]})
    g = evaluate_dims(grid, names, "grid")
    s = evaluate_dims(str(shared_bytes), names, "shared_bytes")[0]
    return LaunchConfig(grid=g, block=b, shared_bytes=s, max_dynamic_shared_bytes=max_dynamic_shared_bytes,
                        cooperative=cooperative)


def launch_problem(launch: LaunchConfig, cc: str | None = None) -> M.Message | None:
    """Why CUDA would refuse this launch, in CUDA's words (a message of M.LAUNCH_REASON), or None when it is valid.

    Limits are those of every compute capability from 3.0 on: 1024 threads per block, block
    dimensions (1024, 1024, 64), grid dimensions (2^31-1, 65535, 65535); dynamic shared memory
    above 48 KiB needs the opt-in (cudaFuncSetAttribute), which the harness makes up to the
    problem's `launch.max_dynamic_shared_bytes`; with `cc` ("9.0") the opt-in cannot go past that
    compute capability's per-block maximum (227 KiB on 9.0). Co-residency of a cooperative launch
    needs the kernel's registers: cooperative_launch_problem checks it.
    """
    if min(launch.block) < 1 or min(launch.grid) < 1:
        grid, block = ",".join(map(str, launch.grid)), ",".join(map(str, launch.block))
        return M.LAUNCH_REASON["zero_dimension"](grid=grid, block=block)
    if launch.threads_per_block > MAX_THREADS_PER_BLOCK:
        return M.LAUNCH_REASON["threads_per_block"](threads=launch.threads_per_block, limit=MAX_THREADS_PER_BLOCK)
    for axis, value, limit in zip("xyz", launch.block, MAX_BLOCK_DIM):
        if value > limit:
            return M.LAUNCH_REASON["block_dimension"](axis=axis, value=value, limit=limit)
    for axis, value, limit in zip("xyz", launch.grid, MAX_GRID_DIM):
        if value > limit:
            return M.LAUNCH_REASON["grid_dimension"](axis=axis, value=value, limit=limit)
    if launch.shared_bytes < 0:
        return M.LAUNCH_REASON["negative_shared"]()
    opt_in = max(launch.max_dynamic_shared_bytes, DEFAULT_DYNAMIC_SHARED_BYTES)
    if launch.shared_bytes > DEFAULT_DYNAMIC_SHARED_BYTES and cc is not None:
        from problems.core.gpus import capability  # plain data, imported late: problems imports this module

        per_block = capability(cc).smem_per_block_optin
        if launch.shared_bytes > per_block:
            return M.LAUNCH_REASON["shared_over_cc"](bytes=launch.shared_bytes, limit=per_block, cc=capability(cc).cc)
    if launch.shared_bytes > opt_in:
        if opt_in > DEFAULT_DYNAMIC_SHARED_BYTES:
            return M.LAUNCH_REASON["shared_over_attribute"](bytes=launch.shared_bytes, limit=opt_in)
        return M.LAUNCH_REASON["shared_no_opt_in"](bytes=launch.shared_bytes, limit=opt_in)
    return None


def cooperative_launch_problem(launch: LaunchConfig, gpu, registers: int | None,
                               shared_static_bytes: int | None) -> M.Message | None:
    """Why a cooperative launch cannot run on `gpu` (problems.core.gpus.GPU), in CUDA's words (a message), or None.

    Every block of a cooperative launch must be resident at once: at most the occupancy model's
    blocks per SM (threads, registers per thread, static + dynamic shared memory per block) times
    the GPU's SMs, as cudaLaunchCooperativeKernel checks with cudaOccupancyMaxActiveBlocksPerMultiprocessor.
    Unknown registers (no ptxas report) count as 0: only a launch too large whatever its registers
    is refused then. None for an ordinary launch.
    """
    if not launch.cooperative:
        return None
    from problems.core.occupancy import occupancy  # plain data, imported late: problems imports this module

    result = occupancy(gpu.cc, launch.threads_per_block, int(registers or 0), int(shared_static_bytes or 0),
                       int(launch.shared_bytes))
    fit = result.blocks_per_sm * gpu.sm_count
    if launch.blocks <= fit:
        return None
    return M.LAUNCH_REASON["cooperative_too_large"](blocks=launch.blocks, gpu=gpu.name, per_sm=result.blocks_per_sm,
                                                    sms=gpu.sm_count, fit=fit)


# One line at a time: a pattern whose leading \s* may cross newlines is tried at every line start and
# re-scans every blank line below it, O(n^2) on a source of blank lines (13-20 s for 65,000 of them).
_LAUNCH_LINE = re.compile(r"\s*//\s*@?launch\s*:?\s*(?P<body>.+)")
_FIELD_KEY = re.compile(r"(block|grid|shared_bytes|shared)\s*=")


def _launch_line(source: str) -> tuple[int, str] | None:
    """(1-based line, body) of the first ``// launch:`` line of `source`, or None. Linear time."""
    for number, line in enumerate(source.split("\n"), start=1):
        if "launch" not in line:
            continue
        match = _LAUNCH_LINE.match(line)
        if match:
            return number, match.group("body")
    return None


def launch_comment_line(source: str) -> int | None:
    """The 1-based line of the ``// launch:`` line that parse_launch_comment reads, or None."""
    found = _launch_line(source)
    return found[0] if found else None


def parse_launch_comment(source: str) -> dict[str, str]:
    """Read a ``// launch: block=256 grid=ceil_div(n, 256)`` line from a source file.

    Returns {"block": ..., "grid": ..., "shared_bytes": ...} with the fields present (possibly
    empty). Surrounding parentheses are dropped: ``block=(16, 16)`` gives ``"16, 16"``. A field's
    value runs to the next ``key=`` after a blank, or to the end of the line; a value holding
    another ``=`` is ignored. Linear in the length of the source (a student controls all of it).
    """
    found = _launch_line(source)
    if not found:
        return {}
    body = found[1].strip()
    keys = list(_FIELD_KEY.finditer(body))
    # A key ends the value before it only when a blank precedes it ("xgrid=" is part of a value).
    starts = [k for k in keys if k.start() > 0 and body[k.start() - 1].isspace()]
    fields: dict[str, str] = {}
    next_start = iter(starts)
    following = next(next_start, None)
    for key in keys:
        while following is not None and following.start() <= key.start():
            following = next(next_start, None)
        end = following.start() if following is not None else len(body)
        value = body[key.end():end].strip()
        if "=" in value:
            continue
        if value.startswith("(") and value.endswith(")"):
            value = value[1:-1]
        fields["shared_bytes" if key.group(1) == "shared" else key.group(1)] = value.strip()
    return fields
