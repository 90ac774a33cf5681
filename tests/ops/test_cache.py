"""ops/cache.py: the live cache's Redis backend keeps one client object per pool and still behaves as
Django's (reads, writes, add's no-replace, expiry, and a forked child on fresh connections)."""
import os
import secrets
import time

import pytest

from ops.cache import RedisCache

REDIS_URL = os.environ.get("WARPDRILL_TEST_REDIS_URL", "redis://127.0.0.1:6379/13")


@pytest.fixture
def cache():
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except redis.RedisError:
        pytest.skip(f"no Redis at {REDIS_URL}")
    backend = RedisCache(REDIS_URL, {"KEY_PREFIX": f"test-ops-cache-{secrets.token_hex(4)}"})
    yield backend
    backend.delete_many(["a", "b", "gone"])


def test_one_client_object_serves_every_operation(cache):
    """Reads and writes (one server: one pool) get the same redis.Redis object, where Django's
    backend builds a new one per operation."""
    first = cache._cache.get_client("a")
    assert cache._cache.get_client("b", write=True) is first
    cache.set("a", 1)
    cache.get("a")
    assert cache._cache.get_client("a") is first


def test_reads_writes_add_and_expiry_as_djangos(cache):
    """set/get round-trip values, add() does not replace a present key, a timeout expires it."""
    cache.set("a", {"token": "0123abcd"}, 30)
    assert cache.get("a") == {"token": "0123abcd"}
    assert cache.add("a", "other", 30) is False
    assert cache.get("a") == {"token": "0123abcd"}
    cache.set("gone", "x", 1)
    time.sleep(1.2)
    assert cache.get("gone", "missing") == "missing"
    cache.delete("a")
    assert cache.get("a") is None


def test_a_forked_child_reads_on_its_own_connection(cache):
    """A process forked after the client was made (gunicorn workers, Celery pool processes) reads and
    writes through the kept object on connections of its own."""
    cache.set("a", "parent")
    pid = os.fork()
    if pid == 0:
        ok = cache.get("a") == "parent" and cache.set("b", "child") is None
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert cache.get("b") == "child"
    assert cache.get("a") == "parent"
