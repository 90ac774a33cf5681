"""The embedded development broker: kombu's filesystem transport with atomic message files.

kombu's filesystem channel writes a message straight into its final file name, and its reader
does not take the writer's lock: a worker that lists the folder while beat is still writing reads
an empty or partial file, and `json.loads` raises an "Unrecoverable error" that stops the worker
(and honcho then stops the whole `make dev`). Here a message is written to a hidden temporary name
that no queue matches, then renamed into place; a rename within one folder is atomic, so a reader
sees either no file or the whole message.

The transport also waits for messages in short slices (Transport.drain_events), so that a worker
stops within a fraction of a second of Ctrl+C instead of after honcho's 5 s (then SIGKILL).
"""
from __future__ import annotations

import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps



class Channel(filesystem.Channel):
    """A filesystem channel whose `_put` is atomic (write a temporary file, then rename it)."""

    def _put(self, queue, payload, **kwargs):
        name = "{}_{}.{}.msg".format(int(round(monotonic() * 1000)), uuid.uuid4(), queue)
        final = os.path.join(self.data_folder_out, name)
        # A leading dot: the reader matches `<anything>.<queue>.msg` after the first dot, so
        # '.tmp-…' never matches a queue while it is being written.
        temporary = os.path.join(self.data_folder_out, f".tmp-{uuid.uuid4().hex}")
        try:
            with open(temporary, "wb", buffering=0) as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(temporary, final)
        except OSError as exc:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    """kombu's filesystem transport with the atomic channel above, waiting in short slices."""

    Channel = Channel
    # Celery's loop for a transport without an event loop (celery.worker.loops.synloop) waits up to
    # 2 s for a message per cycle and sees a shutdown signal only between cycles, running one more
    # cycle as it stops: ~4 s of waiting after SIGTERM, and with the pool's shutdown more than
    # honcho's 5 s before its SIGKILL. Waiting in slices of this many seconds, it stops at once.
    drain_slice_s = 0.2

    def drain_events(self, connection, timeout=None):
        """Wait for a message for at most `timeout` seconds (None: until one comes), in slices of
        drain_slice_s: socket.timeout at the end of a slice sends Celery's loop round again."""
        if timeout is not None:
            timeout = min(timeout, self.drain_slice_s)
        return super().drain_events(connection, timeout=timeout)
