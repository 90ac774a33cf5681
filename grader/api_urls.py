"""URLs (filled in by the web pages work)."""
app_name = "api"
urlpatterns: list = []
