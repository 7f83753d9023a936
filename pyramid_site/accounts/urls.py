from django.urls import path

from . import views

urlpatterns = [
    path("guest/", views.GuestView.as_view(), name="guest"),
    path("signup/", views.SignupView.as_view(), name="signup"),
    path("login/", views.TokenLoginView.as_view(), name="login"),
    path("session/", views.SessionLoginView.as_view(), name="session"),
    path("token/", views.TokenRevokeView.as_view(), name="token"),
    path("me/", views.MeView.as_view(), name="me"),
]
