# Placeholder until the Django project lands; replaced by the webapp work.
SECRET_KEY = "dev"
INSTALLED_APPS: list[str] = []
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}}
