"""URLs (filled in by the web pages work)."""
app_name = "problems"
urlpatterns: list = []
