"""One name per concept: the checks a problem asks for are the GPU's sanitizer tools, and the kernel
vocabulary the package parser uses is the backends'; a problem's topic and a question family's are one set."""


def test_a_problems_checks_are_the_gpu_sanitizer_tools():
    from grader.core.gpu.sanitizer import Tool
    from grader.core.kernel import Check
    from problems.core.package import Check as PackageCheck

    assert PackageCheck is Check and Tool is Check
    assert {c.value for c in Check} == {"racecheck", "synccheck", "memcheck"}


def test_the_package_parser_and_the_backends_share_the_kernel_vocabulary():
    from grader.core import kernel
    from grader.core.backends import base
    from problems.core.package import model, sections

    for name in ("C_TYPES", "ArgInit", "ArgRole", "ArgSpec", "KernelSpec", "LaunchConfig"):
        assert getattr(base, name) is getattr(kernel, name)
    assert sections.KernelSpec is kernel.KernelSpec and sections.ArgRole is kernel.ArgRole
    assert model.KernelSpec is kernel.KernelSpec


def test_problems_and_question_families_share_one_set_of_topics():
    """A problem's topic and a question family's topic are the same enum, so the practice pages'
    topic tables, the authoring form and problem.yaml offer the same topics."""
    from practice.core import questions
    from practice.core.questions import base
    from problems.core import package, topics

    assert package.Topic is topics.Topic is questions.Topic is base.Topic
    assert questions.TOPIC_NAMES is topics.TOPIC_NAMES
    assert set(topics.TOPIC_NAMES) == set(topics.Topic)
