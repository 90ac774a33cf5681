"""How many students' browser connections one nginx worker process holds with platform/nginx.conf.

Usage (from the repository root; nginx on the PATH, as Debian's nginx-light installs it):

    .venv/bin/python bench/proxy_connections.py --worker-connections 1024   # the nginx image's main file
    .venv/bin/python bench/proxy_connections.py --clients 5000     # platform/nginx-main.conf's worker_connections

A browser keeps its connection open between requests (HTTP keep-alive: nginx's keepalive_timeout,
65 s in the nginx image's nginx.conf), and a student whose exam page polls every few seconds never
lets it close: each open exam page holds at least one connection for the whole exam. This starts
nginx with one worker process, --worker-connections and keepalive_timeout 65 (as the nginx image's
main file and platform/nginx-main.conf set it) around platform/nginx.conf's server block (upstream pointed at a tiny local HTTP server standing
in for gunicorn: the limit is nginx's, not the web tier's), then opens --clients connections, each
sending one request through the proxy and then staying open, as a polling page's does. Measured:
how many were answered before nginx refused (connection reset, no answer), and what nginx logged.
No CPU figure: the limit is a count. The last line printed is JSON.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class Upstream(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):  # noqa: N802 (http.server's name)
        body = b"ok\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--worker-connections", type=int,
                   default=int(re.search(r"worker_connections\s+(\d+);", (ROOT / "platform" / "nginx-main.conf").read_text())[1]))
    p.add_argument("--worker-processes", type=int, default=1)
    p.add_argument("--clients", type=int, default=1500)
    args = p.parse_args()

    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.clients + 100)), hard))
    work = Path(tempfile.mkdtemp(prefix="warpdrill-proxy-"))
    up_port, port = free_port(), free_port()
    upstream = ThreadingHTTPServer(("127.0.0.1", up_port), Upstream)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    server = (ROOT / "platform" / "nginx.conf").read_text()
    server = server.replace("server web:8000;", f"server 127.0.0.1:{up_port};").replace("listen 80;", f"listen 127.0.0.1:{port};")
    assert f"127.0.0.1:{up_port}" in server and f"listen 127.0.0.1:{port}" in server, "platform/nginx.conf changed shape"
    (work / "server.conf").write_text(server)
    (work / "nginx.conf").write_text(f"""
worker_processes {args.worker_processes};
worker_rlimit_nofile {args.worker_connections * 2 + 100};
pid {work}/nginx.pid;
error_log {work}/error.log warn;
events {{ worker_connections {args.worker_connections}; }}
http {{
    access_log off;
    keepalive_timeout 65;
    client_body_temp_path {work}/body; proxy_temp_path {work}/proxy;
    fastcgi_temp_path {work}/fastcgi; uwsgi_temp_path {work}/uwsgi; scgi_temp_path {work}/scgi;
    include {work}/server.conf;
}}
""")
    nginx = subprocess.Popen(["nginx", "-c", str(work / "nginx.conf"), "-g", "daemon off;"], stderr=subprocess.PIPE,
                             start_new_session=True)
    clients: list[socket.socket] = []
    answered = refused = still_open = dropped = 0
    first_refusal = None
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        request = f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
        for i in range(args.clients):
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=5)
                s.sendall(request)
                data = s.recv(4096)
                if not data.startswith(b"HTTP/1.1 200"):
                    raise OSError(f"answer {data[:40]!r}")
                clients.append(s)
                answered += 1
            except OSError as exc:
                refused += 1
                if first_refusal is None:
                    first_refusal = {"client": i + 1, "error": f"{type(exc).__name__}: {exc}"}
                if refused >= 20:
                    break
        time.sleep(0.5)
        # Second round on every connection still thought open: nginx may have closed idle ones to make
        # room (it drains keep-alive connections when it runs out): those are the students it dropped.
        for s in clients:
            try:
                s.sendall(request)
                data = s.recv(4096)
                still_open += data.startswith(b"HTTP/1.1 200")
                dropped += not data
            except OSError:
                dropped += 1
    finally:
        for s in clients:
            s.close()
        os.killpg(nginx.pid, 15)
        nginx.wait(20)
        upstream.shutdown()
    log = (work / "error.log").read_text(errors="replace") if (work / "error.log").exists() else ""
    messages = sorted({re.sub(r"^\S+ \S+ \[\w+\] \d+#\d+: (\*\d+ )?", "", line).split(",")[0] for line in log.splitlines()})[:5]
    result = {"worker_processes": args.worker_processes, "worker_connections": args.worker_connections,
              "clients_tried": answered + refused, "answered": answered, "refused": refused,
              "still_open_after_all_connected": still_open, "closed_by_nginx": dropped,
              "first_refusal": first_refusal, "nginx_said": messages}
    print(f"{args.worker_processes} nginx worker process(es), worker_connections {args.worker_connections}: "
          f"{answered} of {answered + refused} connections answered, {still_open} of them still open once all had "
          f"connected ({dropped} closed by nginx); first refusal: {first_refusal}; nginx: {messages}")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
