from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "pyramid_site.web"
    label = "web"
    verbose_name = "Web page"
