"""Running the site: the health check for load balancers and the warm-up of a process before its first
request (gunicorn.conf.py).
"""
