"""WARPDRILL_VAR_DIR moves the site's state (SQLite database, embedded broker, caches) out of var/."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = ("import json, django; from django.conf import settings; django.setup(); "
         "print(json.dumps({'var': str(settings.VAR_DIR), 'db': str(settings.DATABASES['default']['NAME']), "
         "'broker': str(settings.CELERY_BROKER_TRANSPORT_OPTIONS.get('data_folder_in', '')), "
         "'cache': str(settings.WARPDRILL_CACHE_DIR)}))")


def settings_with(env_extra: dict) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("WARPDRILL_TESTING", "WARPDRILL_TEST_RUN_ID", "DATABASE_URL", "CELERY_BROKER_URL",
                        "REDIS_URL", "WARPDRILL_CACHE_DIR")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", **env_extra)
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_state_goes_where_warpdrill_var_dir_says(tmp_path):
    where = tmp_path / "site-b"
    got = settings_with({"WARPDRILL_VAR_DIR": str(where)})
    assert got["var"] == str(where.resolve()) and where.is_dir()
    assert got["db"] == str(where.resolve() / "db.sqlite3")
    assert got["cache"].startswith(str(where.resolve()))
    if got["broker"]:  # the embedded filesystem broker's folders
        assert got["broker"].startswith(str(where.resolve()))


def test_default_is_var_in_the_checkout():
    assert settings_with({})["var"] == str((ROOT / "var").resolve())


CACHE_PROBE = ("import json, tempfile, django; django.setup(); from grader.core.backends import registry; "
               "from grader.core.gpu import cache; "
               "root = registry.configuration()['OPTIONS']['cache_root']; "
               "print(json.dumps({'emulator': str(registry.build_backend('emulator').cache_dir), "
               "'gpu': str(cache.default_cache_dir(root)), 'tmp': tempfile.gettempdir()}))")


def cache_dirs_with(env_extra: dict) -> dict:
    """The judge's compile-cache folders in a fresh site process with `env_extra`: the emulator backend's
    as the registry builds it from settings.WARPDRILL_JUDGE, and the GPU's under the same cache_root."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("WARPDRILL_CACHE_DIR", "WARPDRILL_VAR_DIR", "WARPDRILL_TESTING", "WARPDRILL_TEST_RUN_ID",
                        "DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", **env_extra)
    out = subprocess.run([sys.executable, "-c", CACHE_PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_compile_caches_follow_warpdrill_var_dir(tmp_path):
    """With WARPDRILL_VAR_DIR set, the emulator's and the GPU's compile caches are under its cache/ folder
    (where settings put WARPDRILL_CACHE_DIR, handed to the backends as their cache_root option)."""
    where = tmp_path / "site-b"
    got = cache_dirs_with({"WARPDRILL_VAR_DIR": str(where)})
    assert got["emulator"] == str(where.resolve() / "cache" / "emulator")
    assert got["gpu"] == str(where.resolve() / "cache" / "gpu")
    assert settings_with({"WARPDRILL_VAR_DIR": str(where)})["cache"] == str(where.resolve() / "cache")


def test_warpdrill_cache_dir_wins_over_var_dir(tmp_path):
    """WARPDRILL_CACHE_DIR still names the compile caches' folder when WARPDRILL_VAR_DIR is set too."""
    got = cache_dirs_with({"WARPDRILL_VAR_DIR": str(tmp_path / "site-b"), "WARPDRILL_CACHE_DIR": str(tmp_path / "c")})
    assert (got["emulator"], got["gpu"]) == (str(tmp_path / "c" / "emulator"), str(tmp_path / "c" / "gpu"))


def test_compile_caches_default_to_the_checkout_without_either():
    """Without either variable the emulator's cache stays in the checkout's var/cache/emulator."""
    assert cache_dirs_with({})["emulator"] == str(ROOT / "var" / "cache" / "emulator")


def test_the_gpu_compile_cache_defaults_to_the_sites_var_never_a_shared_temp_folder():
    """With neither variable set, the GPU's compile cache (whose entries quote source lines) is
    var/cache/gpu in the checkout, like the emulator's, not a folder of the machine's /tmp. The site
    process's own temporary folder is compared (the test process's tempfile.gettempdir() is state
    cached at its first call), and only where the checkout itself does not lie in it."""
    got = cache_dirs_with({})
    assert got["gpu"] == str(ROOT / "var" / "cache" / "gpu")
    assert got["gpu"] != str(Path(got["tmp"]) / "warpdrill-cache" / "gpu")  # the old machine-wide default
    if not str(ROOT).startswith(got["tmp"] + os.sep):
        assert not got["gpu"].startswith(got["tmp"] + os.sep)


def test_the_gpu_compile_cache_folders_are_private(tmp_path):
    """The cache's root and its shards are created 0700, and a root left readable by others is narrowed."""
    import stat

    from grader.core.gpu.cache import CompileCache

    root = tmp_path / "cache" / "gpu"
    CompileCache(root).put("ab" + "0" * 62, {"ok": True}, b"cubin")
    assert stat.S_IMODE(root.stat().st_mode) == 0o700
    assert stat.S_IMODE((root / "ab").stat().st_mode) == 0o700
    os.chmod(root, 0o755)
    CompileCache(root).put("cd" + "0" * 62, {"ok": True}, None)
    assert stat.S_IMODE(root.stat().st_mode) == 0o700
    assert CompileCache(root).get("ab" + "0" * 62) == ({"ok": True, "has_cubin": True,
                                                       "cubin_sha256": __import__("hashlib").sha256(b"cubin").hexdigest()},
                                                      b"cubin")
