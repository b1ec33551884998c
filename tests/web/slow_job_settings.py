"""The site's settings with every event job slowed down (a sleep per step), so that
tests/web/test_event_job_crash.py can kill a real worker half-way through one."""
from armylists import settings as _site

globals().update({name: value for name, value in vars(_site).items() if name.isupper()})

EVENT_JOB_STEP_DELAY = 0.05
