"""Sign-up (filled in by the web pages work)."""
from django.http import HttpResponse


def signup(request):
    return HttpResponse("sign-up")
