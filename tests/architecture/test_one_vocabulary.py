"""One name per concept: the checks a problem asks for are the GPU's sanitizer tools, and the kernel
vocabulary the package parser uses is the backends'."""


def test_a_problems_checks_are_the_gpu_sanitizer_tools():
    from grader.core.gpu.sanitizer import Tool
    from grader.core.kernel import Check
    from problems.core.package import Check as PackageCheck

    assert PackageCheck is Check and Tool is Check
    assert {c.value for c in Check} == {"racecheck", "synccheck", "memcheck"}


def test_the_package_parser_and_the_backends_share_the_kernel_vocabulary():
    from grader.core import kernel
    from grader.core.backends import base
    from problems.core import package

    for name in ("C_TYPES", "ArgInit", "ArgRole", "ArgSpec", "KernelSpec", "LaunchConfig"):
        assert getattr(base, name) is getattr(kernel, name)
    assert package.KernelSpec is kernel.KernelSpec and package.ArgRole is kernel.ArgRole
