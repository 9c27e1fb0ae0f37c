# The application image: the API (uvicorn), the Celery workers and beat all run from it.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    GOLF_VAR_DIR=/app/var

WORKDIR /app
RUN useradd --create-home --uid 1000 golf

COPY requirements.runtime.lock ./
RUN pip install --no-cache-dir --require-hashes -r requirements.runtime.lock

COPY . .
# collectstatic connects to nothing; the URLs only satisfy the settings' checks
RUN mkdir -p /app/var \
    && DEBUG=1 DATABASE_URL=postgres://build@localhost/none CELERY_BROKER_URL=redis://localhost \
       python manage.py collectstatic --noinput \
    && chown -R golf:golf /app/var

USER golf
EXPOSE 8000
ENV HOST=0.0.0.0 PORT=8000 WEB_PROCESSES=4
CMD ["python", "-m", "config.serve"]
