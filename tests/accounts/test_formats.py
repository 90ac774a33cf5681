"""A datetime that Django prints itself ({{ value }} without the `when` filter, the admin's lists) reads
as every page writes it (accounts/formats, settings.FORMAT_MODULE_PATH), in English and Korean: Django's
own formats gave "Dec. 5, 2026, 8:08 p.m." and "2026년 12월 5일 8:08 오후"."""
from datetime import datetime, timezone

import pytest
from django.template import Context, Template
from django.utils import timezone as dj_timezone
from django.utils import translation

from accounts.core.times import format_when, zone_named

MOMENT = datetime(2026, 12, 5, 11, 8, 5, tzinfo=timezone.utc)


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("zone", ["Asia/Seoul", "UTC", "Europe/Berlin"])
def test_a_datetime_printed_by_django_reads_as_the_when_filter_writes_it(lang, zone):
    with dj_timezone.override(zone_named(zone)), translation.override(lang):
        printed = Template("{{ t }}").render(Context({"t": MOMENT}))
        filtered = Template("{% load warpdrill %}{{ t|when }}").render(Context({"t": MOMENT}))
    assert printed == filtered == format_when(MOMENT, zone_named(zone))


def test_the_filter_takes_no_precision():
    """`when` has one format: a template asking it for "time" or "seconds" does not compile."""
    from django.template import TemplateSyntaxError

    with pytest.raises(TemplateSyntaxError):
        Template('{% load warpdrill %}{{ t|when:"time" }}')
