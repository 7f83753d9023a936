from django.contrib import admin
from django.http import JsonResponse
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView


def health(request):
    """A trivial endpoint on the same stack, the baseline of the load benchmark."""
    return JsonResponse({"ok": True})


def not_found(request, exception=None):
    """Unknown addresses answer in the API's error shape (with DEBUG off; DEBUG shows Django's page)."""
    return JsonResponse({"code": "not_found", "message": f"there is nothing at {request.path}"}, status=404)


handler404 = not_found

urlpatterns = [
    path("admin/", admin.site.urls),
    path("health/", health, name="health"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
    path("api/accounts/", include("pyramid_site.accounts.urls")),
    path("api/", include("games.api.urls")),
    path("api/", include("leaderboards.api.urls")),
    path("api/fair-play/", include("leaderboards.fair_play.urls")),
    path("api-auth/", include("rest_framework.urls")),
    path("", include("pyramid_site.web.urls")),
]
