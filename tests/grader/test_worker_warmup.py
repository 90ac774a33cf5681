"""Where a worker warms its backend: the parent of a prefork pool never holds per-process state."""
from __future__ import annotations

import pytest
from celery.concurrency.prefork import TaskPool
from celery.concurrency.solo import TaskPool as SoloPool

from grader import tasks


class Recorder:
    warm_per_process = True
    prepared = 0
    process_prepared = 0

    def prepare(self):
        type(self).prepared += 1

    def prepare_process(self):
        type(self).process_prepared += 1


class SharedRecorder(Recorder):
    warm_per_process = False


class Consumer:
    def __init__(self, pool_type):
        self.pool = pool_type.__new__(pool_type)  # only its type matters here


@pytest.mark.parametrize("backend, pool_type, in_parent, in_pool_process, process_state", [
    (Recorder, TaskPool, 0, 1, 0),  # gpu under prefork: each pool process, never the parent
    (Recorder, SoloPool, 1, 1, 0),  # gpu under solo: the one process that grades
    # emulator: its runtime on disk is shared, the parent builds it; each pool process starts its own
    # warm children (the ptxas report's NVRTC compiler)
    (SharedRecorder, TaskPool, 1, 0, 1),
])
def test_backend_is_warmed_where_it_grades(monkeypatch, backend, pool_type, in_parent, in_pool_process,
                                           process_state):
    backend.prepared = backend.process_prepared = 0
    monkeypatch.setattr(tasks, "backend_class", lambda: backend)
    monkeypatch.setattr(tasks, "get_backend", lambda: backend())
    thread = tasks.prepare_backend(sender=Consumer(pool_type))
    if thread is not None:  # a shared backend under prefork: warmed in a thread while the pool grades
        assert pool_type is TaskPool and not backend.warm_per_process
        thread.join(10)
    assert backend.prepared == in_parent
    tasks.prepare_backend_in_pool_process()
    assert backend.prepared == in_parent + in_pool_process
    assert backend.process_prepared == process_state
