"""`make dev`'s last word: wait until the site answers, then print its URL and the demo logins.

Runs as one of Procfile.dev's processes, so the address and logins are the last thing on the first
screen instead of scrolling away under the workers' start-up. It then sleeps: honcho stops every
process when one exits. Ctrl+C's SIGTERM (from honcho) ends the sleep with exit status 0.
"""
import signal
import sys
import time
import urllib.error
import urllib.request

from django.core.management.base import BaseCommand

from .seed_demo import DEMO_USERS


class Command(BaseCommand):
    help = "Wait for the development site to answer, then print its URL and the demo logins (used by make dev)."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for the site")
        parser.add_argument("--once", action="store_true", help="exit after printing (tests)")

    def handle(self, *args, host, port, timeout, once, **options):
        shown = "localhost" if host in ("127.0.0.1", "localhost") else host
        url = f"http://{shown}:{port}/"
        deadline = time.monotonic() + timeout
        while True:
            try:
                urllib.request.urlopen(f"http://{host if host != '0.0.0.0' else '127.0.0.1'}:{port}/", timeout=2)
                break
            except urllib.error.HTTPError:
                break  # the site answered (even a 404 is an answer)
            except OSError:
                if time.monotonic() > deadline:
                    self.stderr.write(f"The site did not answer on {url} within {timeout:.0f} s: see the web process's lines above.")
                    return
                time.sleep(0.5)
        lines = ["", f"  WarpDrill is ready: {url}", ""]
        lines += [f"    {username:<11} / {password}" for username, password, *_ in DEMO_USERS]
        if host == "0.0.0.0":
            lines += ["", "  Listening on every interface (WARPDRILL_BIND=0.0.0.0): the demo passwords above are public."]
        lines += ["", "  Ctrl+C stops the site, its grading worker and the scheduler.", ""]
        self.stdout.write("\n".join(lines))
        if not once:
            signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
        while not once:
            time.sleep(3600)
