"""What one rate-limit check costs (armylists/accounts/rate_limits.py): the count taken atomically
(armylists/accounts/rate_counts.py: a locked database row, or a script on Redis), as every write, import,
export, validation and log-in pays.

    python bench/rate_limit.py [--checks N]

In-process, on the database cache of a fresh SQLite database (bench/in_process.py), and on Redis
when REDIS_URL is set. Medians in milliseconds. Prints figures only; docs/benchmarks.md records them.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.in_process import start_site  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--checks", type=int, default=300)
    args = parser.parse_args()
    start_site("rate-limit")
    from django.conf import settings
    from django.contrib.auth.models import AnonymousUser
    from django.test import RequestFactory

    from armylists.accounts.rate_limits import ScopedThrottle

    ScopedThrottle.THROTTLE_RATES = {"write": f"{args.checks * 10}/minute"}
    request = RequestFactory().post("/lists/1/rename/", REMOTE_ADDR="203.0.113.9")
    request.user = AnonymousUser()
    view = SimpleNamespace(throttle_scope="write")
    times = []
    for _ in range(args.checks):
        start = time.perf_counter()
        assert ScopedThrottle().allow_request(request, view)
        times.append((time.perf_counter() - start) * 1000)
    backend = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    print(f"{backend}: one rate-limit check, median of {args.checks}: {statistics.median(times):.2f} ms "
          f"(p95 {sorted(times)[int(len(times) * 0.95)]:.2f} ms)")


if __name__ == "__main__":
    main()
