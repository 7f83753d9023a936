# The service's image: a build stage with gcc makes a virtual environment in /opt/venv from the lock file
# (requirements/runtime.txt, every file checked by its hash) and the project itself (the solver's compiled core
# in it, built for the portable x86-64-v2 baseline; PYRAMID_MARCH=native only for an image that never leaves the
# machine that built it); the runtime stage copies that environment alone (no wheels or compiler left behind),
# has its static files collected and compressed at build time, owned by root, and runs as a user who can change
# none of it. Its base images: the registry's, or stand-ins made from Debian's packages (tools/base_images).
FROM python:3.11-slim AS build
# the Python headers are in the official image; a stand-in made from Debian's packages takes them from python3-dev
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
       $(python3 -c "import os, sysconfig; print('' if os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')) else 'python3-dev')") \
    && rm -rf /var/lib/apt/lists/*
RUN python3 -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
# the dependencies first, in a layer of their own that a change of the code does not rebuild
COPY requirements/runtime.txt requirements/runtime.txt
RUN pip install --require-hashes --no-deps -r requirements/runtime.txt
COPY pyproject.toml setup.py README.md ./
COPY engine engine
COPY games games
COPY leaderboards leaderboards
COPY pyramid_site pyramid_site
ARG PYRAMID_MARCH=x86-64-v2
# the compiled core checked from outside the source tree (whose engine/ has no compiled core)
# (and pip check: the lock holds everything the project and its dependencies ask for on this Python)
RUN PYRAMID_MARCH=$PYRAMID_MARCH pip install --no-deps --no-build-isolation . \
    && pip check \
    && cd / && python -c "import engine.solver._core" \
    && find /opt/venv -name '__pycache__' -prune -exec rm -rf {} +

FROM python:3.11-slim AS runtime
ENV PATH=/opt/venv/bin:$PATH PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    DJANGO_SETTINGS_MODULE=pyramid_site.settings STATIC_ROOT=/app/staticfiles GUNICORN_BIND=0.0.0.0:8000
RUN useradd --create-home --uid 10001 pyramid
COPY --from=build /opt/venv /opt/venv
WORKDIR /app
COPY manage.py ./
# collected with throwaway secrets: nothing secret is read at this step; WhiteNoise's compress step (in the
# storage, pyramid_site/web/storage.py) writes a .gz beside every file; owned by root, read by the app's user
RUN python -c "import engine.solver._core" \
    && DJANGO_DEBUG=false DJANGO_SECRET_KEY=collectstatic PYRAMID_DAILY_SECRET=collectstatic \
       python manage.py collectstatic --noinput -v0
USER pyramid
EXPOSE 8000
# /health/ answers before the host check, so this probe passes whatever DJANGO_ALLOWED_HOSTS says
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=5 \
    CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/health/', timeout=4).status != 200)"
# workers, timeouts, --max-requests and the address from the environment (pyramid_site/gunicorn_conf.py)
CMD ["gunicorn", "--config", "python:pyramid_site.gunicorn_conf", "pyramid_site.wsgi"]
