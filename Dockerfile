# The service's image: a build stage with gcc makes the project's wheel (the solver's compiled core in it,
# built for the portable x86-64-v2 baseline; PYRAMID_MARCH=native only for an image that never leaves the
# machine that built it); the runtime stage installs that wheel and nothing else, runs as a non-root user,
# has its static files collected at build time and starts gunicorn.
FROM python:3.11-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY engine engine
COPY games games
COPY leaderboards leaderboards
COPY pyramid_site pyramid_site
ARG PYRAMID_MARCH=x86-64-v2
RUN PYRAMID_MARCH=$PYRAMID_MARCH pip wheel --no-deps --wheel-dir /wheels . \
    && pip wheel --wheel-dir /wheels /wheels/pyramid-*.whl

FROM python:3.11-slim AS runtime
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DJANGO_SETTINGS_MODULE=pyramid_site.settings \
    STATIC_ROOT=/app/staticfiles
RUN useradd --create-home --uid 10001 pyramid
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-index --find-links /wheels pyramid && rm -rf /wheels \
    && python -c "import engine.solver._core"
WORKDIR /app
COPY manage.py ./
# collected with throwaway secrets: nothing secret is read at this step
RUN DJANGO_DEBUG=false DJANGO_SECRET_KEY=collectstatic PYRAMID_DAILY_SECRET=collectstatic \
    python manage.py collectstatic --noinput -v0 && chown -R pyramid /app
USER pyramid
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=5 CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/health/').status != 200)"
CMD ["gunicorn", "pyramid_site.wsgi", "--bind", "0.0.0.0:8000", "--workers", "4", "--access-logfile", "-"]
