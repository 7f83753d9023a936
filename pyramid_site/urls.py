from django.contrib import admin
from django.http import JsonResponse
from django.urls import include, path
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerView

from . import health
from .accounts.admin_login import admin_login
from .api.schema_view import SchemaView


def api_root(request):
    """Where a client starts: the schema and the first addresses it needs."""
    return JsonResponse(
        {
            "schema": "/api/schema/",
            "docs": "/api/docs/",
            "daily": "/api/daily/",
            "games": "/api/games/",
            "guest": "/api/accounts/guest/",
            "signup": "/api/accounts/signup/",
            "login": "/api/accounts/login/",
            "boards": "/api/boards/all-time/",
            "clubs": "/api/clubs/",
        }
    )


# the answers Django gives itself are in the API's error shape too (with DEBUG off; DEBUG shows its pages)
handler400 = "pyramid_site.requests.bad_request"
handler403 = "pyramid_site.requests.forbidden"
handler404 = "pyramid_site.requests.not_found"
handler500 = "pyramid_site.requests.server_error"

urlpatterns = [
    path("admin/login/", admin_login, name="admin-login"),  # the admin's own page, throttled like the API's log-in
    path("admin/", admin.site.urls),
    path("health/", health.health, name="health"),
    path("health/ready/", health.ready, name="health-ready"),
    path("health/live/", health.live, name="health-live"),
    path("metrics", health.metrics, name="metrics"),
    path("api/", api_root, name="api-root"),
    path("api/schema/", SchemaView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
    path("api/accounts/", include("pyramid_site.accounts.urls")),
    path("api/", include("games.api.urls")),
    path("api/", include("leaderboards.urls")),
    path("api/fair-play/", include("leaderboards.fair_play.urls")),
    path("api/operations/", include("pyramid_site.operations.urls")),
    path("", include("pyramid_site.web.urls")),
]
