"""The web page: one HTML shell; everything it shows comes from the public REST API, in the words of its
catalogues (``catalogue``). The shell installs as an app (``manifest``) and works offline after one visit
(``service_worker``: the shell's files cached under the release's digest, ``shell_version``)."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import Http404, HttpResponse, JsonResponse
from django.template.loader import get_template, render_to_string
from django.utils import translation
from django.utils.decorators import method_decorator
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.generic import TemplateView
from django.views.i18n import JSONCatalog

import engine

STATIC = Path(__file__).resolve().parent / "static"
# the files of the shell a browser keeps for offline use: the page's modules, its styles, its SVG icon (the PNG
# icons are read once, when the page is installed)
SHELL_SUFFIXES = (".js", ".css", ".svg")
VERSION_HEADER = "X-Shell-Version"
# the two themes' colours (style.css's --felt-dark and the light theme's header), for the manifest and the metas
THEME_COLOURS = {
    "dark": {"theme_color": "#0a3d26", "background_color": "#0f5132"},
    "light": {"theme_color": "#dcebe1", "background_color": "#f4f7f2"},
}


def preset_sheets() -> dict[str, dict]:
    """Each preset's options and plain description, from which the rules pages are written."""
    return {name: rules.to_dict() | {"describe": rules.describe()} for name, rules in engine.PRESETS.items()}


def shell_files() -> list[str]:
    """The page's static files (names under the static root): its modules, vendored ones included, the style
    sheet and the icons; not the type declarations."""
    return sorted(
        path.relative_to(STATIC).as_posix()
        for path in (STATIC / "web").rglob("*")
        if path.suffix in SHELL_SUFFIXES and not path.name.endswith(".d.ts")
    )


def _shell_version() -> str:
    """The release's digest: the shell's files, its template, its catalogues and the service worker itself. Every
    change to one of them is a new version, and a browser then fetches the whole shell again."""
    digest = hashlib.sha256()
    for name in shell_files():
        digest.update(name.encode() + b"\0" + (STATIC / name).read_bytes())
    for template in ("web/index.html", "web/sw.js"):
        digest.update(Path(get_template(template).origin.name).read_bytes())
    for catalogue_file in sorted((Path(__file__).resolve().parent / "locale").glob("*/LC_MESSAGES/djangojs.mo")):
        digest.update(catalogue_file.read_bytes())
    return digest.hexdigest()[:16]


_cached_shell_version = lru_cache(maxsize=1)(_shell_version)


def shell_version() -> str:
    # while developing the files change under a running server: the digest is taken anew each time
    return _shell_version() if settings.DEBUG else _cached_shell_version()


@method_decorator(ensure_csrf_cookie, name="dispatch")
class PageView(TemplateView):
    template_name = "web/index.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(**kwargs) | {
            "presets": preset_sheets(),
            "languages": settings.LANGUAGES,
            "colours": THEME_COLOURS,
        }

    def render_to_response(self, context, **response_kwargs):
        response = super().render_to_response(context, **response_kwargs)
        response[VERSION_HEADER] = shell_version()
        return response


@cache_control(max_age=3600)
def catalogue(request, language: str):
    """The page's strings in one language, as JSON (`{"catalog": {...}, "formats": ..., "plural": ...}`): the
    page picks the language itself (a choice kept in the browser, the account's), so it names it in the URL."""
    if language not in dict(settings.LANGUAGES):
        raise Http404(language)
    with translation.override(language):
        response = JSONCatalog.as_view(domain="djangojs", packages=["pyramid_site.web"])(request)
    response[VERSION_HEADER] = shell_version()
    return response


@cache_control(no_cache=True)  # it names the icons' files of this release
def manifest(request):
    """The web app manifest: the page installs as an app that opens on today's deals."""
    icon = staticfiles_storage.url
    body = {
        "name": "Pyramid Solitaire",
        "short_name": "Pyramid",
        "description": "Pyramid Solitaire: a new deal every day, every move checked by the server.",
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "lang": "en",
        **THEME_COLOURS["dark"],
        # the light theme's colours, where the browser reads them (user_preferences, a proposal Chromium tried)
        "user_preferences": {"color_scheme_light": THEME_COLOURS["light"]},
        "icons": [
            {"src": icon("web/icons/icon.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
            {"src": icon("web/icons/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": icon("web/icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": icon("web/icons/maskable-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
        ],
        "categories": ["games"],
    }
    return JsonResponse(body, content_type="application/manifest+json", json_dumps_params={"indent": 1})


def service_worker(request):
    """The service worker (`/sw.js`, so its scope is the whole site): it keeps this release's shell for offline
    use, in a cache named by the release's digest. Never cached itself, so a new release is seen at once."""
    version = shell_version()
    files = {name: staticfiles_storage.url(name) for name in shell_files()}
    # named by their content (collected, DJANGO_DEBUG off): a cached copy is the right one for good
    named = [url for name, url in files.items() if url.rsplit("/", 1)[1] != name.rsplit("/", 1)[1]]
    shell = [
        "/",
        *files.values(),
        *(f"/i18n/{code}.json" for code, _ in settings.LANGUAGES if code != "en"),
        "/manifest.webmanifest",
    ]
    body = render_to_string("web/sw.js", {"config": json.dumps({"version": version, "shell": shell, "named": named})})
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    response[VERSION_HEADER] = version
    return response
