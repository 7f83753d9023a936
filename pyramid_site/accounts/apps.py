from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "pyramid_site.accounts"
    label = "accounts"
    verbose_name = "Accounts"
