"""The operators' console: the health dashboard in the admin, the rolling request
aggregate it reads, and the heartbeats of the Celery workers (docs/admin.md)."""
