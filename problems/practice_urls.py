"""URLs (filled in by the web pages work)."""
app_name = "practice"
urlpatterns: list = []
