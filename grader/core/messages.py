"""Every sentence the judge says to a student: a `Message`, a code of the catalogue below with parameters.
Over 400 lines: the catalogue of message templates (data), two hundred codes and their English, with the
Message type that carries them; cutting it would scatter one table.


A producer (the judge, the backends, the launch checks, the rewriter, the nvcc wrapper) makes a
`Message(code, params)`; results carry it and store it as ``{"code": ..., "params": {...}}``. Text is
made only at the edge: `Message.render(translate)` looks the code up in this catalogue, translates the
English template (the msgid of the Korean catalogue, locale/ko) and fills in the parameters (line
numbers, sizes, thread ids, CUDA error names, exactly as they are); a Korean particle written in both forms
after a parameter ("%(name)s은(는)") is chosen there from the value (practice.core.korean.fill). A Message is also a `str`, its
English text, so logs, the API's English `message` and `in` tests read it as it is.

The catalogue is this module's upper-case constants: each is a `Template` (its English, a str) whose
code is its name ("SOURCE_TOO_LARGE"), or in a dict of them the dict's name and the key
("RUNTIME_FAULT.assert"). Calling a template makes the message: ``M.SOURCE_TOO_LARGE(kib=64)``. A
parameter may itself be a Message, or a list of them (joined with "; "): the summary quotes a
diagnostic, a deadlock lists groups of threads, an access is a translated word. Text we cannot name (a
compiler's own words) is `Message.verbatim(text)`: code "", shown as it is. Codes are stored: a
code's English may be reworded, but a code is renamed or removed only together with a data migration
that rewrites the stored results (as grader's 0010 did for eight of them). The emulator's C++
runtime writes its messages the same way, a code and its parameters in result.json (src/runtime.hpp
JsonObject; grader/core/emulator/jobs.py runtime_said takes only RUNTIME_CODES):
nothing parses English back into a template.

`gettext_noop` marks a template for extraction and returns it unchanged. It is a plain function
of this module (no Django here) that bears the name makemessages already extracts (Django's
makemessages has no option for another keyword), so the Korean catalogue is refreshed with

    .venv/bin/python manage.py makemessages -l ko && .venv/bin/python manage.py compilemessages -l ko

Every template must be translated (tests/grader/test_messages.py checks the compiled catalogue),
and a template must write a literal percent sign as ``%%``.
"""
from __future__ import annotations

from typing import Any, Callable

from practice.core.korean import fill


def gettext_noop(template: str) -> str:
    """Mark `template` for makemessages; it is translated where it is shown (never here)."""
    return template


def _identity(text: str) -> str:
    return text


VERBATIM = ""  # the code of text we cannot name: its one parameter "text" is shown as it is


class Template(str):
    """The English of one catalogue entry (the msgid of its translations); `code` names it."""

    code = VERBATIM

    def __call__(self, **params: Any) -> Message:
        """The message of this template with `params` (KeyError when one the template writes is missing)."""
        return Message(self.code, params)


CATALOGUE: dict[str, Template] = {}  # code -> template; filled from the constants at the end of this module


class Message(str):
    """A code of the catalogue and its parameters; as a str, its English text.

    `params` values are strings, numbers, Messages or lists of them. Raises KeyError for an unknown code
    or a parameter the template writes but `params` lacks."""

    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, params: dict[str, Any] | None = None) -> Message:
        params = dict(params or {})
        self = super().__new__(cls, _fill(code, params, _identity))
        self.code, self.params = code, params
        return self

    @classmethod
    def verbatim(cls, text: str) -> Message:
        """Text we cannot name, shown as it is in every language."""
        return cls(VERBATIM, {"text": str(text)})

    @property
    def template(self) -> str:
        """The English template ("" for verbatim text)."""
        return CATALOGUE[self.code] if self.code else ""

    def render(self, translate: Callable[[str], str] = _identity) -> str:
        """The text in the language of `translate` (gettext), nested messages too; English without."""
        return _fill(self.code, self.params, translate)

    def names_param(self, name: str) -> bool:
        """True when the text writes parameter `name` (e.g. "line"), itself or in a nested message: a
        summary then need not add that value again."""
        if self.code and f"%({name})s" in self.template:
            return True
        return any(isinstance(v, Message) and v.names_param(name)
                   for value in self.params.values() for v in (value if isinstance(value, list) else [value]))

    def to_dict(self) -> dict:
        """{"code": ..., "params": {...}}, nested messages as the same form (JSON)."""
        return {"code": self.code, "params": {key: _dump(value) for key, value in self.params.items()}}

    @classmethod
    def from_dict(cls, d: dict) -> Message:
        """The message of `to_dict`'s form, {"code": ..., "params": {...}} (KeyError for an unknown code or
        a missing parameter). Results stored in older forms were converted by grader's migrations 0009-0010."""
        return cls(d["code"], {key: _load(value) for key, value in (d.get("params") or {}).items()})

    def __reduce__(self):
        return Message, (self.code, self.params)

    def __repr__(self) -> str:
        return f"Message({self.code!r}, {self.params!r})"


def _fill(code: str, params: dict, translate: Callable[[str], str]) -> str:
    if code == VERBATIM:
        return str(params.get("text", ""))
    # fill, not %: a Korean template's both-forms particle after a placeholder ("%(name)s은(는)") is chosen
    # from the value filled in (practice/core/korean.py).
    return fill(translate(CATALOGUE[code]), {key: _render_value(value, translate) for key, value in params.items()})


def _dump(value: Any) -> Any:
    if isinstance(value, Message):
        return value.to_dict()
    if isinstance(value, list):
        return [_dump(v) for v in value]
    return value


def _load(value: Any) -> Any:
    if isinstance(value, dict) and "code" in value:
        return Message.from_dict(value)
    if isinstance(value, list):
        return [_load(v) for v in value]
    return value


def as_message(value: Message | str | None) -> Message:
    """`value` as a Message: a plain str (text we cannot name) becomes verbatim."""
    if isinstance(value, Message):
        return value
    return Message.verbatim(value or "")


def api_params(params: dict) -> dict:
    """`params` in the form the API has always shown ("message_params"): nested messages as {"template",
    "params"}, verbatim ones as their text. Give it the params of a message with a code (verbatim text has
    none to show: its template is "")."""
    def form(value):
        if isinstance(value, Message):
            return {"template": value.template, "params": api_params(value.params)} if value.code else str(value)
        if isinstance(value, list):
            return [form(v) for v in value]
        return value
    return {key: form(value) for key, value in params.items()}


def text(template: Template, **params: Any) -> Message:
    """The message of `template` (a constant of this module) with `params`."""
    return Message(template.code, params)


def _render_value(value: Any, translate: Callable[[str], str]) -> Any:
    if isinstance(value, Message):
        return value.render(translate)
    if isinstance(value, list):
        return "; ".join(str(_render_value(v, translate)) for v in value)
    return value


def and_list(items: list) -> Any:
    """`items` (at least one) as "a and b and c" in English, "a, b, c" in Korean: a nested message (one
    item: the item as it is)."""
    found = items[0]
    for item in items[1:]:
        found = AND(before=found, after=item)
    return found


def check_name(kind: str) -> Message:
    """The pass of the check stage that finds diagnostics of `kind`, as a translatable message."""
    return text(CHECK_NAMES.get(str(kind), CHECK_PASS))


def word(value: str) -> Any:
    """A closed-set word of a tool's report ("read", "shared", ...) as a translatable message; other text as is."""
    return text(WORDS[value]) if value in WORDS else value


# ---- words inside messages ----

# Two items of a list of numbers ("lines 5 and 7"); a longer list nests it ("5 and 7 and 9"). Korean
# writes the list with commas ("5, 7").
AND = gettext_noop("%(before)s and %(after)s")

WORDS = {
    "read": gettext_noop("read"),
    "write": gettext_noop("write"),
    "atomic": gettext_noop("atomic"),
    "shared": gettext_noop("shared memory"),
    "global": gettext_noop("global memory"),
    "read-after-write": gettext_noop("read-after-write"),
    "write-after-read": gettext_noop("write-after-read"),
    "write-after-write": gettext_noop("write-after-write"),
}

# ---- the judge ----

SOURCE_EMPTY = gettext_noop("The source is empty.")
SOURCE_TOO_LARGE = gettext_noop("The source is larger than %(kib)s KiB.")
SOURCE_NUL = gettext_noop("The source contains a NUL byte.")
INVALID_LAUNCH = gettext_noop("Invalid launch configuration: %(error)s")
COMPILATION_FAILED = gettext_noop("Compilation failed.")
COMPILATION_FAILED_AT = gettext_noop("Compilation failed (line %(line)s).")
# A first mismatch, by the number of elements that differ (English has two forms and Korean one; the
# Django side renders templates with gettext only, so the core picks the form by the count).
MISMATCH_ONE = gettext_noop("%(output)s%(index)s: expected %(expected)s, got %(got)s (1 element differs)")
MISMATCH_MANY = gettext_noop("%(output)s%(index)s: expected %(expected)s, got %(got)s (%(count)s elements differ)")
# Float outputs: the tolerance at the element and the difference found ("allowed 1.0e-03, off by 9.9e-03").
MISMATCH_ONE_TOLERANCE = gettext_noop("%(output)s%(index)s: expected %(expected)s, got %(got)s (allowed %(allowed)s, "
                                      "off by %(error)s; 1 element differs)")
MISMATCH_MANY_TOLERANCE = gettext_noop("%(output)s%(index)s: expected %(expected)s, got %(got)s (allowed "
                                       "%(allowed)s, off by %(error)s; %(count)s elements differ)")
# The index of an element of a 2-D output, which the harness stores row-major: [row, col], not (x, y).
INDEX_ROW_COL = gettext_noop("[row %(row)s, col %(col)s]")
# The summary names the test case that explains the verdict and why; the page states the count of
# passed test cases once, above it (an ACCEPTED result has no summary: the count says it all).
SUMMARY_TEST = gettext_noop("Test %(test)s: %(reason)s")
SUMMARY_TEST_AT_LINE = gettext_noop("Test %(test)s: %(reason)s (line %(line)s)")
# What is secret about a hidden test is its data: its inputs and expected outputs. The line and the
# student's own code quoted by a diagnostic are not, so the notes name what is hidden.
SUMMARY_HIDDEN_TEST = gettext_noop("Test %(test)s failed (a hidden test: its inputs and expected outputs are not "
                                   "shown).")
# What replaces a diagnostic's message found on a hidden test (for grader/serializers.py, which still has its
# own older wording, "details of hidden tests are not shown").
HIDDEN_DIAGNOSTIC = gettext_noop("%(kind)s on a hidden test (its inputs and expected outputs are not shown).")
SUMMARY_TEST_FAILED = gettext_noop("Test %(test)s failed.")
# A finding of the check pass (the smallest test run again under racecheck, synccheck and memcheck, or
# the emulator's race pass), which no test run shows: the rows below may all be ACCEPTED or all
# WRONG_ANSWER while the verdict is SYNC_ERROR or MEMORY_ERROR, so the summary says where the verdict
# comes from and what the rows are, in words true whichever result the rows have.
SUMMARY_CHECK = gettext_noop("The %(check)s (a separate run of test %(test)s) found: %(reason)s The verdict comes "
                             "from this finding; the rows below are the plain test runs.")
SUMMARY_CHECK_AT_LINE = gettext_noop("The %(check)s (a separate run of test %(test)s) found (line %(line)s): "
                                     "%(reason)s The verdict comes from this finding; the rows below are the plain "
                                     "test runs.")
# The pass that found a diagnostic of the check pass, by the diagnostic's kind (others: CHECK_PASS).
CHECK_NAMES = {
    "race": gettext_noop("race check"),
    "divergent_barrier": gettext_noop("synchronisation check"),
    "warp_mask": gettext_noop("synchronisation check"),
    "out_of_bounds": gettext_noop("memory check"),
    "misaligned": gettext_noop("memory check"),
}
CHECK_PASS = gettext_noop("check pass")
ERROR_PREFIXED = gettext_noop("%(error)s: %(message)s")
# The message of a test case not run because an earlier one hung, by the verdict of the one that hung.
NOT_RUN_AFTER = {
    "TIME_LIMIT": gettext_noop("Skipped because test %(test)s ran past the time limit."),
    "DEADLOCK": gettext_noop("Skipped because test %(test)s deadlocked."),
    # a run stopped at the limit that the emulator then explained (a divergent barrier): SYNC_ERROR
    "SYNC_ERROR": gettext_noop("Skipped because test %(test)s hung."),
}
NOT_RUN_BUDGET = gettext_noop("Skipped because the submission's time budget ran out on test %(test)s.")

# ---- launch expressions that cannot be evaluated (grader/core/launch.py raises these) ----

LAUNCH_FIELD_ERROR = gettext_noop("%(field)s: %(error)s")  # field: block, grid or shared_bytes
LAUNCH_EMPTY = gettext_noop("empty expression (expected e.g. '256' or '16, 16')")
LAUNCH_TOO_LONG = gettext_noop("expression longer than %(limit)s characters")
LAUNCH_UNPARSABLE = gettext_noop("cannot parse '%(text)s' (expected e.g. 'ceil_div(n, 256)')")
LAUNCH_DIMENSIONS = gettext_noop("give 1 to 3 dimensions, got %(count)s")
LAUNCH_UNKNOWN_NAME = gettext_noop("unknown name '%(name)s' (known sizes: %(known)s)")
LAUNCH_UNKNOWN_NAME_NO_SIZES = gettext_noop("unknown name '%(name)s' (the test case has no sizes)")
LAUNCH_CEIL_DIV_ZERO = gettext_noop("ceil_div(a, b) with b = 0")
LAUNCH_DIVISION_BY_ZERO = gettext_noop("division by zero in a launch expression")
LAUNCH_SHIFT_TOO_LARGE = gettext_noop("shift too large in a launch expression")
LAUNCH_SHIFT_NEGATIVE = gettext_noop("negative shift in a launch expression")
LAUNCH_VALUE_TOO_LARGE = gettext_noop("launch expression value is too large")
LAUNCH_POSITIONAL_ONLY = gettext_noop("%(function)s() takes positional arguments only")
LAUNCH_TWO_ARGUMENTS = gettext_noop("%(function)s() takes 2 arguments, got %(count)s")
LAUNCH_TWO_OR_MORE_ARGUMENTS = gettext_noop("%(function)s() takes at least 2 arguments, got %(count)s")
LAUNCH_NOT_ALLOWED = gettext_noop("only integers, sizes, + - * / %% << >>, parentheses and ceil_div/min/max are "
                                  "allowed")

# ---- launches refused as CUDA would (grader/core/launch.py writes these) ----

LAUNCH_REFUSED = gettext_noop("The launch was refused: %(reason)s.")
LAUNCH_REASON = {
    "zero_dimension": gettext_noop("cudaErrorInvalidConfiguration: a grid or block dimension is zero or negative "
                 "(grid (%(grid)s), block (%(block)s))"),
    "threads_per_block": gettext_noop(
        "cudaErrorInvalidConfiguration: %(threads)s threads per block (the limit is %(limit)s)"),
    "block_dimension": gettext_noop("cudaErrorInvalidConfiguration: blockDim.%(axis)s = %(value)s exceeds %(limit)s"),
    "grid_dimension": gettext_noop("cudaErrorInvalidConfiguration: gridDim.%(axis)s = %(value)s exceeds %(limit)s"),
    "negative_shared": gettext_noop("cudaErrorInvalidValue: negative dynamic shared memory size"),
    "shared_no_opt_in": gettext_noop(
        "cudaErrorInvalidValue: %(bytes)s bytes of dynamic shared memory exceed %(limit)s without the "
       "cudaFuncAttributeMaxDynamicSharedMemorySize opt-in"),
    "shared_over_attribute": gettext_noop(
        "cudaErrorInvalidValue: %(bytes)s bytes of dynamic shared memory exceed %(limit)s, the kernel's "
                 "cudaFuncAttributeMaxDynamicSharedMemorySize"),
    "shared_over_cc": gettext_noop(
        "cudaErrorInvalidValue: %(bytes)s bytes of dynamic shared memory exceed %(limit)s, the most a block "
                 "may have on compute capability %(cc)s"),
    "cooperative_too_large": gettext_noop(
        "cudaErrorCooperativeLaunchTooLarge: a cooperative launch of %(blocks)s blocks does not fit on the "
                 "%(gpu)s at once: %(per_sm)s blocks per SM x %(sms)s SMs = %(fit)s"),
}
LAUNCH_REASONS = tuple(LAUNCH_REASON.values())
# What a student reads in place of a launch refused on a hidden test case: CUDA's reason names the grid,
# block or shared memory that the test's sizes imply (gridDim.y = 102500 says n), so only the fact is said.
LAUNCH_HIDDEN = gettext_noop("The launch does not fit a hidden test case: CUDA would refuse it with that test's "
                             "sizes (which are not shown). Make the launch expressions hold for every size.")
# ... and in place of launch expressions that cannot be evaluated for a hidden test case (judge.evaluate_launches:
# a division by zero, a negative shift at that test's sizes).
LAUNCH_EXPRESSION_HIDDEN = gettext_noop("The launch expressions cannot be evaluated for a hidden test case (its sizes "
                                        "are not shown). Make them hold for every size.")

# ---- validate_problem: warnings for a package's author ----

VALIDATE_OUT_READ_BEFORE_WRITE = gettext_noop(
    "%(file)s reads the out buffer '%(name)s' before writing it: it is ACCEPTED only when '%(name)s' starts "
    "zeroed. out buffers start poisoned; declare it `init: zeros` in problem.yaml if the kernel accumulates into it.")

# A course's harness.py failed in the sandbox (grader/harness_box.py) on a validation run: for the problem's
# authors only. `detail` is what the box said: the exception, harness.py's line and the traceback, or the
# limit it ran past (Python's own words, shown as they are).
HARNESS_FAILED = gettext_noop(
    "Not graded: the problem's harness.py failed (a fault of the problem, not of this source). Fix harness.py, "
    "save and validate again.\n%(detail)s")

# ---- the playground's refusals of a run as written (playground/core/spec.py, signature.py) ----

# PlaygroundSpecError carries one of these; the field it names is the form's or the API's key at fault.
PLAYGROUND = {
    "too_many": gettext_noop("At most %(max)s arguments."),
    "name": gettext_noop("Argument %(number)s: the name %(name)s is not a C identifier of at most 32 characters."),
    "name_twice": gettext_noop("Argument %(number)s: the name %(name)s is used twice."),
    "kind": gettext_noop("Argument %(name)s: the kind %(kind)s is not one of %(kinds)s."),
    "dtype": gettext_noop("Argument %(name)s: the type %(dtype)s is not one of %(dtypes)s."),
    "size": gettext_noop("Argument %(name)s: the size %(size)s is not a count (1024) or rows x columns (32x32)."),
    "size_range": gettext_noop("Argument %(name)s: %(count)s elements; an array has 1 to %(max)s."),
    "total": gettext_noop("The arrays need %(mib)s MiB together; the playground allows %(max)s MiB."),
    "init": gettext_noop("Argument %(name)s: the initialiser %(init)s is not one of %(inits)s."),
    "seed": gettext_noop("Argument %(name)s: the seed %(value)s is not a whole number from 0 to 2^32-1."),
    "values_count": gettext_noop("Argument %(name)s: %(count)s values typed for %(size)s elements."),
    "values_many": gettext_noop("Argument %(name)s: at most %(max)s values can be typed in; use another initialiser."),
    "values_long": gettext_noop("Argument %(name)s: the value field is longer than %(max)s characters."),
    "number": gettext_noop("Argument %(name)s: %(value)s is not a number of type %(dtype)s."),
    "scalar_empty": gettext_noop("Argument %(name)s: a scalar needs a value."),
    "launch": gettext_noop("Launch: %(reason)s"),
    "threads": gettext_noop("Launch: %(threads)s threads in all; the playground runs at most %(max)s."),
    "shared": gettext_noop("Launch: %(bytes)s bytes of dynamic shared memory; the playground allows 0 to %(max)s."),
    "no_kernel": gettext_noop("No __global__ function found: write a kernel, or name it in the Kernel field."),
    "kernel_name": gettext_noop("The kernel name %(name)s is not a C identifier."),
    "no_arguments": gettext_noop("Declare at least one output array: its values are the run's result."),
    "signature_mismatch": gettext_noop(
        "The arguments do not match the kernel: %(kernel)s takes %(params)s parameter(s) "
        "(%(names)s) and %(rows)s argument(s) are given. The rows now follow the kernel's parameters: check them and run again."),
}

# ---- compile stage: what we write, never what the compiler printed ----

COMPILE_TOO_LONG = gettext_noop("compilation took too long")
COMPILE_DISK_LIMIT = gettext_noop("the compiler wrote more than %(limit)s of files")
COMPILE_FAILED_SEE_LOG = gettext_noop("compilation failed (see the log)")
COMPILE_TIME_LIMIT = gettext_noop("Compilation took more than %(limit)s s of CPU time and was stopped "
                                  "(a huge template instantiation or #pragma unroll?).")
# A compile that used little CPU time but did not end: the wall clock stopped it (grader/core/compile_limits.py).
COMPILE_WALL_LIMIT = gettext_noop("Compilation did not finish within %(wall)s s and was stopped (its limit is "
                                  "%(limit)s s of CPU time; a huge template instantiation or #pragma unroll?).")
COMPILE_MEMORY_LIMIT = gettext_noop("Compilation used more than %(mib)s MiB of memory and was stopped "
                                    "(a huge template instantiation or #pragma unroll?).")
# The compile errors that are a limit the compile was stopped at: the summary quotes them as they are.
COMPILE_LIMITS = (COMPILE_TIME_LIMIT, COMPILE_WALL_LIMIT, COMPILE_MEMORY_LIMIT)
COMPILE_MESSAGE = {
    # grader/core/gpu/nvcc.py: the signature check compiled after the student's code
    "signature": gettext_noop("the kernel must be declared at file scope as %(signature)s"),
    "signature_compiler": gettext_noop(
        "the kernel must be declared at file scope as %(signature)s (compiler: %(compiler)s)"),
    "not_a_kernel": gettext_noop("'%(name)s' is not a __global__ kernel (found no kernel of that name)"),
    "kernel_twice": gettext_noop("more than one kernel is named '%(name)s'"),
    "nvcc_silent": gettext_noop("nvcc failed without an error message (see the log)"),
    # grader/core/emulator/toolchain.py: the harness could not call the kernel
    "harness_call": gettext_noop("the kernel cannot be called with the expected arguments: %(compiler)s"),
    # grader/core/emulator/rewrite.py: what the emulator refuses before compiling
    "no_kernel": gettext_noop("no __global__ function named '%(name)s' was found"),
    "launch_in_kernel": gettext_noop("kernel launches (<<<...>>>) are not allowed: the harness launches your kernel"),
    "asm": gettext_noop("inline assembly (asm) is not allowed"),
    "attribute": gettext_noop("__attribute__ is not allowed"),
    "attribute_brackets": gettext_noop("attributes ([[...]]) are not allowed"),
    # stored results only: pasting.py checks pastes now
    "token_pasting": gettext_noop("token pasting (##) is not allowed"),
    "token_pasting_unfollowed": gettext_noop(
        "token pasting (##) here builds a name this check cannot follow: paste names and numbers "
        "written directly as the macro's arguments"),
    "directive": gettext_noop("the preprocessor directive #%(name)s is not allowed"),
    "include": gettext_noop("#include of '%(header)s' is not allowed here (allowed: %(allowed)s)"),
    "extern": gettext_noop("extern declarations are not allowed (except `extern __shared__`)"),
    "file_scope_shared": gettext_noop(
        "file-scope __shared__ variables are not supported: declare the array inside the kernel"),
    "shared_initializer": gettext_noop("__shared__ variable '%(name)s' cannot have an initializer (CUDA forbids it)"),
    "shared_declaration": gettext_noop(
        "cannot understand this __shared__ declaration; write it as `__shared__ float name[SIZE];`"),
    "reserved_name": gettext_noop("'%(name)s' is reserved for the emulator's runtime: choose another name"),
    "host_function": gettext_noop("'%(name)s' is not available in kernels (no file, process or host access)"),
    "goto": gettext_noop("goto is not allowed"),
    "pragma_dependency": gettext_noop("#pragma GCC dependency is not allowed"),
    "backslash": gettext_noop("a backslash at the end of a line (or outside a string) is only allowed in #define"),
    "digraphs": gettext_noop("digraphs (%%: <: :> <%% %%>) are not allowed: write # [ ] { }"),
    "predefined_macro": gettext_noop("the predefined macro %(name)s cannot be redefined"),
    # grader/core/emulator/static_shared.py: ptxas's limit on static shared memory
    "too_much_shared": gettext_noop(
        "ptxas error: Entry function '%(kernel)s' uses too much shared data (%(hex)s bytes, 0xc000 max): its "
                 "static __shared__ arrays need %(bytes)s bytes, more than the 49152 bytes (48 KiB) a block may declare"),
    # grader/core/gpu/nvcc.py: a store nvcc only warns about
    "constant_store": gettext_noop(
        "kernels can only read __constant__ memory: this line writes to it (nvcc: Cannot store to pointer "
                 "that points to constant memory space; on the GPU the store faults)"),
    # grader/core/linkerrors.py: a declared function that is never defined (both backends)
    "undefined_reference": gettext_noop(
        "undefined reference to '%(function)s': it is declared but never defined (define it in this file: the "
                 "judge compiles your file alone, without separate compilation)"),
    # grader/core/emulator/declarations.py: linkage, attributes, __constant__ writes
    "attribute_named": gettext_noop(
        "%(attribute)s is not allowed (harmless attributes such as always_inline, noinline, unused and "
                 "aligned are)"),
    "extern_c": gettext_noop('extern declarations are not allowed (except `extern __shared__`, and `extern "C"` on functions)'),
    "extern_c_undefined": gettext_noop(
        "extern declarations are not allowed: '%(name)s' is declared extern \"C\" but not defined in this "
                 "file (define it here, or drop extern \"C\")"),
    "constant_write": gettext_noop(
        "expression must be a modifiable lvalue: '%(name)s' is __constant__ memory, which kernels can only "
                 "read (nvcc refuses this write)"),
    "time_limit": COMPILE_TIME_LIMIT,
}
COMPILE_MESSAGES = tuple(COMPILE_MESSAGE.values())

# ---- running: limits ----

TIME_LIMIT = gettext_noop("The kernel ran past the time limit of %(limit)s s of CPU time.")
# A run that used little CPU time but never ended: the wall clock (three times the limit plus 2 s) stopped it.
TIME_LIMIT_WALL = gettext_noop("The run did not end within %(wall)s s of wall-clock time (three times its limit of "
                               "%(limit)s s of CPU time, plus 2 s) while using little CPU time: a kernel that waits "
                               "for something that never comes is stopped there.")
# All the runs of a submission together passed its time budget (grader/core/budget.py).
RUN_BUDGET_SPENT = gettext_noop("The submission's time budget ran out: all its runs together (tests and checks) may "
                                "use %(budget)s s, and those up to this one used it up (the limit of one test is "
                                "%(limit)s s). Judging stopped here.")
TIME_LIMIT_STOPPED = gettext_noop("The kernel ran past the %(limit)s s limit and was stopped.")
KILLED_CPU_OR_MEMORY = gettext_noop("The run was killed at its CPU-time or memory limit.")
KILLED_BEFORE_REPORT = gettext_noop("The run was killed at %(what)s before it could report.")
KILLED_BY = {
    "cpu": gettext_noop("its CPU-time limit"),
    "file": gettext_noop("its file-size limit"),
    "signal": gettext_noop("%(signal)s (e.g. memory exhausted or the runtime's state overwritten)"),
}
DISK_LIMIT = gettext_noop("The run wrote more than %(mib)s MiB of files (its disk limit) and was stopped.")
MEMORY_LIMIT = gettext_noop("The run used more than %(mib)s MiB of memory (its memory limit) and was stopped.")
RESULT_FILE_INVALID = gettext_noop("The run's result file was not one the emulator writes (%(reason)s), so code in "
                                   "the run's process changed it; the run counts as a runtime error.")
OUTPUT_FILE_INVALID = gettext_noop("The run reported success but its output buffer %(name)s was missing or of the "
                                   "wrong size, so code in the run's process ended it early; the run counts as a "
                                   "runtime error.")
RUN_ENDED_WITHOUT_RESULT = gettext_noop("The run ended (exit status %(status)s) without reporting a result; code in the "
                                        "run's process ended it, so it counts as a runtime error.")
RUNTIME_OUT_OF_MEMORY = gettext_noop("The emulator ran out of memory in the run's process (%(what)s); the run counts "
                                     "as a runtime error.")
PRINTF_TRUNCATED = gettext_noop("printf output was truncated at 64 KiB.")
PRINTF_TRUNCATED_GPU = gettext_noop("The kernel's printf output was truncated.")
# Notes that say nothing of a test case's data (no sizes, values or indices): a student may read them
# as they are even when they were found on a hidden test case.
PUBLIC_NOTES = (PRINTF_TRUNCATED, PRINTF_TRUNCATED_GPU)
# What a student reads, on a hidden test, in place of a watchdog's stop whose limit grows with the
# inputs (MEMORY_LIMIT, DISK_LIMIT name it): what happened, without the size.
MEMORY_LIMIT_HIDDEN = gettext_noop("The run used more memory than its memory limit allows and was stopped, on a "
                                   "hidden test (its inputs and expected outputs are not shown).")
DISK_LIMIT_HIDDEN = gettext_noop("The run wrote more files than its disk limit allows and was stopped, on a hidden "
                                 "test (its inputs and expected outputs are not shown).")
# Short outcome messages the emulator backend gives a test case.
OUTCOME_TIME_LIMIT = gettext_noop("time limit")
OUTCOME_KILLED = gettext_noop("the run was killed (CPU time or memory limit)")
OUTCOME_DEADLOCK = gettext_noop("deadlock")

# ---- the emulator's runtime (grader/core/emulator/src/*.cpp writes these in result.json) ----

RUNTIME_TIMEOUT = gettext_noop("The kernel ran past the time limit of %(limit)s s of CPU time; thread %(thread)s of "
                               "block %(block)s was looping on line %(line)s.")
RUNTIME_SKIPPED_BARRIER = gettext_noop(
    "Divergent __syncthreads() on line %(line)s: in warp %(warp)s of block %(block)s lanes %(arrived)s reached it "
    "while lanes %(skipped)s (e.g. thread %(thread)s) skipped it and exited. The condition around a barrier must be "
    "the same for the whole block.")
# A divergent barrier named after the block ended: some threads waited at it while the others went past it to a
# barrier every thread reached (the emulator's src/barrier.cpp rewrites its first report into one of these).
RUNTIME_DIVERGENT_BARRIER_PASSED = gettext_noop(
    "Divergent __syncthreads() on line %(line)s: in warp %(warp)s of block %(block)s lanes %(arrived)s wait at it "
    "while lanes %(passed)s (e.g. thread %(thread)s) went past it to the barrier on line %(other_line)s. Every thread "
    "reaches the barrier on line %(other_line)s, only some reach the one on line %(line)s: the condition around a "
    "barrier must be the same for the whole block.")
RUNTIME_DIVERGENT_BARRIER_PASSED_WARPS = gettext_noop(
    "Divergent __syncthreads() on line %(line)s: in block %(block)s threads such as %(thread)s wait at it while "
    "threads such as %(other_thread)s went past it to the barrier on line %(other_line)s. Every thread reaches the "
    "barrier on line %(other_line)s, only some reach the one on line %(line)s: the condition around a barrier must be "
    "the same for the whole block.")
RUNTIME_DIVERGENT_BARRIERS = gettext_noop(
    "Divergent __syncthreads(): in block %(block)s threads wait at barriers on lines %(lines)s at the same time "
    "(e.g. thread %(thread)s on line %(line)s, thread %(other_thread)s on line %(other_line)s). A barrier must be "
    "reached by every live thread of the block through the same call.")
# The barrier rule's note (docs/synchronization.md): lanes that skip a barrier and exit are not waited for.
RUNTIME_SKIPPED_BARRIER_NOTE = gettext_noop(
    "The __syncthreads() on line %(line)s is skipped inside a warp: in warp %(warp)s of block %(block)s lanes "
    "%(arrived)s reached it while lanes %(skipped)s (e.g. thread %(thread)s) skipped it and exited. Undefined by the "
    "Programming Guide's rule (the condition around a barrier must be the same for the whole block); completes on "
    "sm_70+ because exited threads are not waited for.")
# The same note when whole warps skip the barrier and exit (no lane of theirs reached it).
RUNTIME_SKIPPED_BARRIER_WARPS_NOTE = gettext_noop(
    "The __syncthreads() on line %(line)s is skipped by whole warps: in block %(block)s warps %(warps)s (e.g. thread "
    "%(thread)s) skipped it and exited while %(arrived)s threads reached it. Undefined by the Programming Guide's rule "
    "(the condition around a barrier must be the same for the whole block); completes on sm_70+ because exited "
    "threads are not waited for.")
# A warp split between two barrier sites: where sm_90 hangs (docs/synchronization.md row 8).
RUNTIME_DIVERGENT_BARRIERS_SPLIT = gettext_noop(
    "Divergent __syncthreads(): in block %(block)s threads wait at barriers on lines %(lines)s at the same time "
    "(e.g. thread %(thread)s on line %(line)s, thread %(other_thread)s on line %(other_line)s). A barrier must be "
    "reached by every live thread of the block through the same call. Warp %(warp)s is split between the two "
    "barriers: on sm_70+ this hangs unless the compiler predicates the branch.")
RUNTIME_DIVERGENT_BARRIER_PASSED_SPLIT = gettext_noop(
    "Divergent __syncthreads() on line %(line)s: in warp %(warp)s of block %(block)s lanes %(arrived)s wait at it "
    "while lanes %(passed)s (e.g. thread %(thread)s) went past it to the barrier on line %(other_line)s. Every thread "
    "reaches the barrier on line %(other_line)s, only some reach the one on line %(line)s: the condition around a "
    "barrier must be the same for the whole block. Warp %(warp)s is split between the two barriers: on sm_70+ this "
    "hangs unless the compiler predicates the branch.")
RUNTIME_WARP_EXITED = gettext_noop(
    "Warp operation on line %(line)s (block %(block)s, warp %(warp)s) names lanes in its mask %(mask)s that exited "
    "without reaching it (exited lanes %(exited)s). On a GPU this is undefined and may hang.")
RUNTIME_WARP_MISMATCH = gettext_noop(
    "Lanes of one warp meet at different warp operations or with different masks: lane %(lane)s at line %(line)s "
    "with mask %(mask)s, lane %(other_lane)s at line %(other_line)s with mask %(other_mask)s (block %(block)s).")
RUNTIME_TOO_MUCH_SHARED = gettext_noop(
    "Too much shared data: __shared__ '%(array)s' on line %(line)s brings the kernel's static shared memory to "
    "%(bytes)s bytes; the limit is 49152 bytes (48 KiB) per block.")
RUNTIME_GRID_SYNC_NOT_COOPERATIVE = gettext_noop(
    "grid.sync() on line %(line)s needs a cooperative launch (cudaLaunchCooperativeKernel): this launch is not one, so "
    "the GPU stops the kernel with CUDA_ERROR_LAUNCH_FAILED (unspecified launch failure).")
RUNTIME_GRID_SYNC_EXITED = gettext_noop(
    "Deadlock: threads wait in grid.sync() on line %(line)s (block %(block)s) for blocks that have already exited and "
    "never arrive there.")
# Lanes of one warp in warp operations that never satisfy each other (docs/synchronization.md row 12c).
RUNTIME_DEADLOCK_WARP_OPS = gettext_noop(
    "Deadlock in warp %(warp)s of block %(block)s: lanes %(lanes)s wait in the warp operation on line %(line)s (mask "
    "%(mask)s) for lanes %(other_lanes)s, which wait in another warp operation on line %(other_line)s (mask "
    "%(other_mask)s). A warp operation completes only when every lane of its mask that has not exited reaches the "
    "same operation with the same mask: on sm_70+ this hangs.")
RUNTIME_DEADLOCK_PROVEN = gettext_noop("Deadlock in block %(block)s: %(waiting)s, and no other thread can ever arrive there.")
RUNTIME_DEADLOCK_SPINNING = gettext_noop("Deadlock in block %(block)s: %(waiting)s, while %(spinning)s without making progress.")
RUNTIME_DEADLOCK_SPINNING_GRID = gettext_noop(
    "Deadlock in block %(block)s: %(waiting)s, while %(spinning)s without making progress. If they wait for another "
    "block: CUDA does not guarantee that blocks run concurrently.")
# An inter-block spin barrier in an ordinary launch whose grid fits at once (grader/core/coresidency.py).
CO_RESIDENT_SPIN = gettext_noop(
    "Blocks wait for each other in the loop on line %(line)s: the kernel relies on co-resident blocks, which CUDA does "
    "not promise; it hangs when the grid exceeds %(fit)s blocks for this GPU (%(gpu)s: %(per_sm)s blocks per SM x "
    "%(sms)s SMs). This launch has %(blocks)s blocks, so it completes there. Use a cooperative launch with grid.sync(), "
    "or end the kernel and launch another.")
# One group of threads in a deadlock report: where they wait or spin.
RUNTIME_GROUP = {
    "wait_barrier_one": gettext_noop("1 thread %(thread)s waits at the barrier on line %(line)s"),
    "wait_barrier": gettext_noop("%(count)s threads (e.g. %(thread)s) wait at the barrier on line %(line)s"),
    "wait_warp_one": gettext_noop("1 thread %(thread)s waits at the warp operation on line %(line)s"),
    "wait_warp": gettext_noop("%(count)s threads (e.g. %(thread)s) wait at the warp operation on line %(line)s"),
    "spin_one": gettext_noop("1 thread %(thread)s spins in the loop on line %(line)s"),
    "spin": gettext_noop("%(count)s threads (e.g. %(thread)s) spin in the loop on line %(line)s"),
}
RUNTIME_GROUPS = tuple(RUNTIME_GROUP.values())
# What the runtime's fault handler says (the kind comes with it; `access` is read or write).
RUNTIME_FAULT = {
    "stack_overflow": gettext_noop(
        "stack overflow (a thread used more than its 64 KiB stack: deep recursion or a huge local array)"),
    "no_dynamic_shared": gettext_noop(
        "illegal address: %(access)s of extern __shared__ '%(array)s' but the launch gave 0 bytes of dynamic shared "
       "memory"),
    "global_out_of_bounds": gettext_noop(
        "out-of-bounds %(access)s of global buffer '%(array)s' at index %(index)s (valid indices are 0 to %(last)s)"),
    "shared_out_of_bounds": gettext_noop(
        "out-of-bounds %(access)s of shared array '%(array)s' at index %(index)s (valid indices are 0 to %(last)s)"),
    "null_pointer": gettext_noop("illegal address: %(access)s through a null pointer (address %(address)s)"),
    "wild_address": gettext_noop("illegal address: %(access)s at %(address)s, outside every buffer and shared array"),
    "division_by_zero": gettext_noop("integer division by zero (on a GPU the result would be undefined, not a trap)"),
    "assert": gettext_noop("device-side assert triggered (cudaErrorAssert)"),
    "trap": gettext_noop("trap or illegal instruction (cudaErrorIllegalInstruction)"),
}
RUNTIME_FAULTS = tuple(RUNTIME_FAULT.values())
RUNTIME_MESSAGES = (RUNTIME_TIMEOUT, RUNTIME_SKIPPED_BARRIER_NOTE, RUNTIME_SKIPPED_BARRIER_WARPS_NOTE,
                    RUNTIME_SKIPPED_BARRIER,
                    RUNTIME_DIVERGENT_BARRIER_PASSED_SPLIT, RUNTIME_DIVERGENT_BARRIER_PASSED,
                    RUNTIME_DIVERGENT_BARRIER_PASSED_WARPS, RUNTIME_DIVERGENT_BARRIERS_SPLIT, RUNTIME_DIVERGENT_BARRIERS,
                    RUNTIME_WARP_EXITED, RUNTIME_WARP_MISMATCH, RUNTIME_TOO_MUCH_SHARED, RUNTIME_GRID_SYNC_NOT_COOPERATIVE,
                    RUNTIME_GRID_SYNC_EXITED, RUNTIME_DEADLOCK_SPINNING_GRID,
                    RUNTIME_DEADLOCK_SPINNING, RUNTIME_DEADLOCK_PROVEN, RUNTIME_DEADLOCK_WARP_OPS, *RUNTIME_FAULTS)

# ---- the emulator's race check (grader/core/emulator/races.py) ----

RACE = gettext_noop("Data race (%(hazard)s): line %(line)s (%(access)s) and line %(other_line)s (%(other_access)s) are not "
          "ordered by a barrier.")
RACE_ON = gettext_noop("Data race (%(hazard)s) on %(space)s %(array)s[%(index)s]: line %(line)s (%(access)s) and line "
             "%(other_line)s (%(other_access)s) are not ordered by a barrier.")
RACE_THREADS = gettext_noop("Data race (%(hazard)s): line %(line)s (%(access)s) and line %(other_line)s (%(other_access)s) are "
                  "not ordered by a barrier (threads %(thread)s and %(other_thread)s of block %(block)s).")
RACE_ON_THREADS = gettext_noop("Data race (%(hazard)s) on %(space)s %(array)s[%(index)s]: line %(line)s (%(access)s) and line "
                     "%(other_line)s (%(other_access)s) are not ordered by a barrier (threads %(thread)s and "
                     "%(other_thread)s of block %(block)s).")
RACE_LOST_UPDATE = gettext_noop(
    "Lost update on %(space)s %(array)s[%(index)s]: line %(line)s reads and writes it in thread %(thread)s of block "
    "%(block)s and in thread %(other_thread)s of block %(other_block)s with no atomic operation, so one update can "
    "overwrite the other, as on a GPU. Use an atomic read-modify-write such as atomicAdd; a barrier does not make it "
    "safe.")
RACE_BETWEEN_BLOCKS = gettext_noop(
    "Data race (%(hazard)s) on global %(array)s[%(index)s] between blocks: line %(line)s (%(access)s, thread "
    "%(thread)s of block %(block)s) and line %(other_line)s (%(other_access)s, thread %(other_thread)s of block "
    "%(other_block)s). CUDA does not order the blocks of a launch and __syncthreads() orders the threads of one block "
    "only: use atomics, or write in one kernel and read in the next.")
# The same when the other block ran too long before for its line to be known (ThreadSanitizer no longer has it).
RACE_BETWEEN_BLOCKS_NO_LINE = gettext_noop(
    "Data race (%(hazard)s) on global %(array)s[%(index)s] between blocks: line %(line)s (%(access)s, thread "
    "%(thread)s of block %(block)s) and an earlier %(other_access)s by thread %(other_thread)s of block "
    "%(other_block)s. CUDA does not order the blocks of a launch and __syncthreads() orders the threads of one block "
    "only: use atomics, or write in one kernel and read in the next.")
RACE_SAME_LINE_WRITES = gettext_noop(
    "Several threads store the same value to the same word on line %(line)s with no barrier or atomic between them, "
    "and no thread reads it before a barrier: this is harmless on a GPU (compute-sanitizer's racecheck is silent) and "
    "it is accepted. Stores of different values, or a read of the word before a barrier, are a race.")
RACE_CHECK_NOT_BUILT = gettext_noop("The race check could not be built; races were not checked.")
RACE_CHECK_UNFINISHED = gettext_noop("The race check did not finish (%(status)s: %(detail)s); races were not checked.")
RACE_CHECK_INCOMPLETE = gettext_noop("ThreadSanitizer reported a problem; races may be incomplete.")

# ---- the emulator's shared-memory initcheck (grader/core/emulator/initcheck.py) ----

SHARED_UNINITIALIZED_READ = gettext_noop(
    "Shared `%(array)s[%(index)s]` read before any thread wrote it, line %(line)s: shared memory starts with no "
    "value (the emulator fills it with 0xFF bytes, so the read gives -2, 4294967294 or NaN). Write it, then "
    "__syncthreads(), before any thread reads it.")
INITCHECK_NOT_BUILT = gettext_noop("The check for reads of unwritten shared memory could not be built; it did not run.")
# Notes about the platform, not the student's code (a check that could not be built): staff see them,
# students do not (grader/serializers.public_result), and the worker's log has the cause.
PLATFORM_NOTES = (RACE_CHECK_NOT_BUILT, INITCHECK_NOT_BUILT)
INITCHECK_UNFINISHED = gettext_noop("The check for reads of unwritten shared memory did not finish (%(status)s); "
                                    "it found nothing.")

# ---- the GPU backend and compute-sanitizer (grader/core/backends/gpu.py, grader/core/gpu/sanitizer.py) ----

CUDA_ERROR = gettext_noop("%(error)s: %(hint)s")
GPU_DEADLOCK_PROVEN = gettext_noop("%(killed)s The CPU emulator proves a barrier that can never complete on the same test case.")
GPU_SYNC_FOUND = gettext_noop("%(killed)s On the same test case the CPU emulator finds the synchronisation error reported here.")
SANITIZER_UNFINISHED = gettext_noop("The %(tool)s pass did not finish within %(limit)s s and was stopped.")
MISALIGNED = gettext_noop("Misaligned %(space)s %(access)s of %(size)s bytes.")
OUT_OF_BOUNDS = gettext_noop("Out-of-bounds %(space)s %(access)s of %(size)s bytes.")
OUT_OF_BOUNDS_NEAR = gettext_noop("Out-of-bounds %(space)s %(access)s of %(size)s bytes: %(distance)s bytes %(side)s a "
                        "%(allocation)s-byte buffer.")
OUT_OF_BOUNDS_NEAR_SIDE = {"before": gettext_noop("before"), "after": gettext_noop("after")}
STACK_OVERFLOW = gettext_noop("A thread overflowed its stack.")
SHARED_RACE_LINES = gettext_noop("Shared-memory race: a %(access)s (line %(line)s) and a %(other_access)s (line %(other_line)s) "
                       "are not ordered by a barrier.")
SHARED_HAZARD = gettext_noop("Shared-memory %(hazard)s hazard: threads access the same location without a barrier between.")
SHARED_RACE = gettext_noop("Shared-memory race: two threads access the same location without a barrier between.")
WARP_SYNC_ERROR = gettext_noop("Warp synchronisation error: %(sanitizer)s")
DIVERGENT_BARRIER_WARP = gettext_noop("Divergent barrier: threads of one warp reached __syncthreads() on different paths.")
DIVERGENT_BARRIER_BLOCK = gettext_noop("Divergent barrier: threads of one block reached __syncthreads() on different paths.")
# The hints of grader/core/gpu/cuda_errors.py, one per CUresult the child can meet (a test keeps them equal).
CUDA_HINT = {
    "CUDA_ERROR_ILLEGAL_ADDRESS": gettext_noop(
        "A thread read or wrote memory outside every allocation (check your index bounds)."),
    "CUDA_ERROR_MISALIGNED_ADDRESS": gettext_noop(
        "A thread accessed memory at an address not aligned to the access size."),
    "CUDA_ERROR_LAUNCH_FAILED": gettext_noop(
        "The kernel stopped with an exception (a trap, or a fault the GPU could not attribute)."),
    "CUDA_ERROR_ASSERT": gettext_noop("An assert() in the kernel failed."),
    "CUDA_ERROR_ILLEGAL_INSTRUCTION": gettext_noop("The kernel executed an illegal instruction."),
    "CUDA_ERROR_HARDWARE_STACK_ERROR": gettext_noop(
        "A thread overflowed its call stack (deep or unbounded recursion?)."),
    "CUDA_ERROR_INVALID_PC": gettext_noop("The kernel jumped to an invalid program counter."),
    "CUDA_ERROR_INVALID_ADDRESS_SPACE": gettext_noop("An instruction was used on memory of the wrong address space."),
    "CUDA_ERROR_LAUNCH_TIMEOUT": gettext_noop("The kernel ran past the driver's watchdog."),
    "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES": gettext_noop(
        "The block needs more registers (or other resources) than one SM has for it: use fewer threads per block or "
       "fewer registers."),
    "CUDA_ERROR_INVALID_VALUE": gettext_noop(
        "The launch was refused: a grid/block dimension or the dynamic shared memory size is out of range."),
    "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE": gettext_noop(
        "More blocks than can be resident at once for a cooperative launch."),
    "CUDA_ERROR_OUT_OF_MEMORY": gettext_noop(
        "The launch needs more memory than the GPU has (local memory per thread x threads?)."),
    "CUDA_ERROR_NOT_SUPPORTED": gettext_noop("The kernel uses a feature this GPU does not support."),
}
CUDA_HINTS = tuple(CUDA_HINT.values())


def _register() -> None:
    """Make every upper-case constant of this module (str, or dict of str) a Template with its code, in
    CATALOGUE; tuples of them hold the Templates too."""
    by_text: dict[str, Template] = {}
    for name, value in list(globals().items()):
        if not name.isupper() or name.startswith("_") or name in ("CATALOGUE", "VERBATIM"):
            continue
        if isinstance(value, str):
            entries = {name: value}
        elif isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
            entries = {f"{name}.{key}": v for key, v in value.items()}
        else:
            continue
        made = {}
        for code, english in entries.items():
            template = Template(english)
            template.code = code
            CATALOGUE[code] = template
            by_text.setdefault(english, template)
            made[code] = template
        if isinstance(value, str):
            globals()[name] = made[name]
        else:
            for key in value:
                value[key] = made[f"{name}.{key}"]
    for name, value in list(globals().items()):
        if name.isupper() and isinstance(value, tuple):
            globals()[name] = tuple(by_text.get(v, v) if isinstance(v, str) else v for v in value)


_register()


# The codes the emulator's runtime may write in its result file (grader/core/emulator/jobs.py runtime_said).
RUNTIME_CODES = frozenset(t.code for t in (*RUNTIME_MESSAGES, *RUNTIME_GROUPS, *WORDS.values(), AND))


def templates() -> list[str]:
    """Every template of the catalogue, once each (for the catalogue test)."""
    return list(dict.fromkeys(CATALOGUE.values()))
