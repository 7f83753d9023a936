"""The page's static files named by their content (``app.3f9c0e1a2b4d.js``), so a release never mixes its modules
with an earlier one's, and every named file may be cached for good.

``collectstatic`` writes the named copies and rewrites the ES modules' ``import ... from "./x.js"`` lines to the
named files (Django's ``support_js_module_import_aggregation``). Without a ``collectstatic`` run (the README's run
command, scripts that start the service as it is checked out) the page keeps working: a file that is not in the
manifest is served by its plain name from the apps' folders (``WHITENOISE_USE_FINDERS``), as before."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedStaticStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
    manifest_strict = False

    def stored_name(self, name):
        try:
            return super().stored_name(name)
        except ValueError:  # not collected: the file by its own name, from the apps' folders
            return name
