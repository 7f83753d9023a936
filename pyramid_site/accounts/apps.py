from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "pyramid_site.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self):
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_save

        from .receivers import username_key_write

        post_save.connect(username_key_write, sender=get_user_model(), dispatch_uid="accounts.username_key")
