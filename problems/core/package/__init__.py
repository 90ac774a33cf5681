"""Problem packages: a folder (or its files as a dict) parsed into a ProblemPackage.

Layout (DESIGN.md "Problem packages"):

    problem.yaml       metadata, kernel signature, launch, limits, tolerance, checks, test cases
    statement.md       English statement (Markdown with $math$); statement.ko.md optional
    starter.cu         what the editor opens with; starter.ko.cu optional: the same code with its
                       comments in Korean, opened by Korean readers (checked: only comments may differ)
    solution.cu        reference solution: must be ACCEPTED
    wrong/*.cu         known-bad solutions; the first line says `// verdict: NAME` (and, where the GPU
                       backend cannot see the fault, a `// gpu-verdict: NAME (why)` line may follow)
    harness.py         generate(case, rng) -> inputs; reference(inputs) -> expected outputs

A package may declare variant parameters (problems/core/variants.py): `with_variant(v)` gives the
package one student sees, its texts rendered and its tests and harness given the variant.

Every error names the file, the field and what is expected (PackageError).

The package is cut by concept: model (the dataclasses a package parses into, and what a parsed one
does: bind a variant, load its harness), harness (harness.py's functions given a variant), sections
(one parser per section of problem.yaml), checks (the checks across files: launches under every
variant, wrong solutions' verdict lines, `// launch:` comments) and parser (the entry points that put
them together). Import from here; the names below are the package's public interface.
"""
from grader.core.kernel import Check  # the type of ProblemPackage.checks

from ..topics import Topic
from .harness import Harness
from .model import LaunchTemplate, PackageError, ProblemPackage, TestCaseSpec, WrongSolution
from .parser import MAX_FILE_BYTES, load_package, parse_package, read_package_dir
from .sections import SLUG_RE

__all__ = ["MAX_FILE_BYTES", "SLUG_RE", "Check", "Harness", "LaunchTemplate", "PackageError", "ProblemPackage", "TestCaseSpec",
           "Topic", "WrongSolution", "load_package", "parse_package", "read_package_dir"]
