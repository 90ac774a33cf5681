"""The occupancy calculator page: public, bookmarkable GET inputs, result, working and charts."""
import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_calculator_url_and_defaults(client):
    url = reverse("practice:calculator")
    assert url == "/practice/occupancy/"
    r = client.get(url)
    assert r.status_code == 200
    html = r.content.decode()
    assert "blocks per SM" in html and "<svg" in html


def test_the_link_from_submission_pages_works_logged_out(client):
    """?cc=9.0&threads=256&regs=32&smem=2048: 8 blocks (64 warps), 100 %, limited by warps."""
    r = client.get(reverse("practice:calculator"), {"cc": "9.0", "threads": "256", "regs": "32", "smem": "2048"})
    assert r.status_code == 200
    res = r.context["result"]
    assert (res.blocks_per_sm, res.occupancy, str(res.limiter)) == (8, 1.0, "warps")
    html = r.content.decode()
    assert 'value="256"' in html and "100.0 %" in html
    assert html.count("<svg") == 3
    assert 'class="binding"' in html  # the limiter is highlighted


def test_seed_register_cliff_in_the_calculator(client):
    r = client.get(reverse("practice:calculator"), {"cc": "8.6", "threads": "256", "regs": "41", "smem": "2048"})
    res = r.context["result"]
    assert res.blocks_per_sm == 5 and str(res.limiter) == "registers"
    html = r.content.decode()
    assert "⌈41 × 32 / 256⌉ × 256 = 1536" in html
    regs_chart = r.context["charts"][1]
    assert any(c["value"] == 41 for c in regs_chart["cliffs"])  # the cliff from 40 to 41 registers is marked
    assert regs_chart["current"]["value"] == 41


def test_launch_that_cannot_fit_is_explained(client):
    r = client.get(reverse("practice:calculator"), {"cc": "9.0", "threads": "1024", "regs": "65", "smem": "0"})
    assert r.status_code == 200 and r.context["result"].blocks_per_sm == 0
    assert "cannot run" in r.content.decode()


@pytest.mark.parametrize("query", [{"cc": "5.0", "threads": "256", "regs": "32", "smem": "0"},
                                   {"cc": "9.0", "threads": "abc", "regs": "32", "smem": "0"},
                                   {"cc": "9.0", "threads": "4096", "regs": "32", "smem": "0"},
                                   {"cc": "9.0", "threads": "256", "regs": "-1", "smem": "0"}])
def test_bad_inputs_give_form_errors_not_500(client, query):
    r = client.get(reverse("practice:calculator"), query)
    assert r.status_code == 400
    assert "result" not in r.context
    assert 'class="field-error"' in r.content.decode()


def test_empty_cc_from_a_submission_defaults_to_90(client):
    r = client.get(reverse("practice:calculator"), {"cc": "", "threads": "128", "regs": "32", "smem": "0"})
    assert r.status_code == 200 and r.context["result"].cc == "9.0"


def test_calculator_in_korean(client):
    client.cookies["django_language"] = "ko"
    r = client.get(reverse("practice:calculator"), {"cc": "8.6", "threads": "256", "regs": "41", "smem": "2048"},
                   HTTP_ACCEPT_LANGUAGE="ko")
    assert "register는 warp 단위로" in r.content.decode()


def test_htmx_update_with_an_invalid_input_shows_the_error_in_the_result_card(client):
    """htmx swaps only 2xx answers: an invalid value typed into the calculator comes back as a 200 whose result
    card lists the error, while a plain GET keeps its 400."""
    url = "/practice/occupancy/?cc=9.0&threads=2048&regs=32&smem=0"
    plain = client.get(url)
    assert plain.status_code == 400
    live = client.get(url, headers={"HX-Request": "true"})
    assert live.status_code == 200
    html = live.content.decode()
    result = html[html.index('id="result"'):html.index('id="calc-more"')]
    assert "alert-error" in result and "Threads per block" in result
