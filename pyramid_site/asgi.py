"""The ASGI application (uvicorn): the whole API, and the live streams, which need it (docs/operations.md,
"Live updates"). It answers the server's lifespan itself (Django does not): at the start it hooks the live streams
to the server's shutdown signal, so that they end with ``retry:`` and their clients reconnect."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pyramid_site.settings")
django_application = get_asgi_application()

from pyramid_site.live import shutdown  # noqa: E402 - after Django is set up


async def application(scope, receive, send):
    if scope["type"] != "lifespan":
        return await django_application(scope, receive, send)
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            shutdown.install()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            shutdown.begin()
            await send({"type": "lifespan.shutdown.complete"})
            return
