"""A JSON log formatter (standard library only): one JSON object per line.

Keys: ts (ISO 8601, UTC, milliseconds), level, logger, message, process, then the context fields of
ops.logcontext that are set (request_id, submission_id, exam_attempt_id, backend, task_id), then
`exc` with the formatted traceback when there is one.
"""
from __future__ import annotations

import json
import logging
from datetime import datetime, timezone

from ops.logcontext import FIELDS


class JsonFormatter(logging.Formatter):
    """Format a record as one line of JSON (see the module docstring for the keys)."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "ts": datetime.fromtimestamp(record.created, tz=timezone.utc).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "process": record.process,
        }
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                entry[name] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        elif record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)
