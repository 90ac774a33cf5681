"""The embedded broker never hands a worker a half-written message (it used to stop `make dev`)."""
import json
import os
import threading

from kombu import Connection

from config.filesystem_broker import Channel


def test_settings_use_the_atomic_transport_for_the_embedded_broker(settings):
    """With the filesystem broker, Celery's transport is ours (atomic writes), not kombu's plain one."""
    if settings.CELERY_BROKER_URL.startswith("filesystem://"):
        assert settings.CELERY_BROKER_TRANSPORT == "config.filesystem_broker:Transport"


def test_a_reader_never_sees_a_partial_message(tmp_path):
    """While one thread puts large messages as fast as it can, another reads the folder: every
    message it gets is whole JSON (kombu's own writer let the reader see empty files), and none is lost."""
    folder = str(tmp_path)
    options = {"data_folder_in": folder, "data_folder_out": folder, "store_processed": False}
    sent, got, errors = 200, [], []
    body = "x" * 200_000

    def reader():
        with Connection(transport="config.filesystem_broker:Transport", transport_options=options) as conn:
            channel = conn.default_channel
            while len(got) < sent:
                try:
                    got.append(channel._get("q"))
                except json.JSONDecodeError as exc:  # a partial file
                    errors.append(exc)
                    return
                except Exception:  # Empty: nothing yet
                    pass

    thread = threading.Thread(target=reader)
    thread.start()
    with Connection(transport="config.filesystem_broker:Transport", transport_options=options) as conn:
        channel = conn.default_channel
        assert isinstance(channel, Channel)
        for i in range(sent):
            channel._put("q", {"i": i, "body": body})
    thread.join(timeout=120)
    assert not errors
    assert sorted(m["i"] for m in got) == list(range(sent))
    assert not [f for f in os.listdir(folder) if f.startswith(".tmp-")]
