"""gunicorn settings shared by `make run`, the Dockerfile and docker-compose.yml.

Request-size limits sit above the application's own (api/middleware.py: URLs up to 2 KiB,
a header up to 8 KiB, 32 KiB of headers), so that the application answers oversized
requests with a problem document; only requests beyond these answer with gunicorn's page.
"""

limit_request_line = 8190  # gunicorn's maximum
limit_request_field_size = 16384
limit_request_fields = 100
graceful_timeout = 5
accesslog = "-"
