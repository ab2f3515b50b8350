"""Pages that refresh themselves can be stopped (WCAG 2.2.1, issue 33): the teacher's pages, "The class is full"
and "Your games are already open" reload by a script that a "Stop refreshing" button stops; a ``<meta>`` refresh
(which no one can stop) is left only for browsers without scripts."""
from __future__ import annotations

import re

from widgets.server.room_pages import browser_full_page, page, teacher_refused_page


def test_a_refreshing_page_says_so_and_can_be_stopped():
    html = browser_full_page(2, "/play")
    assert re.search(r'<noscript><meta http-equiv="refresh" content="10"></noscript>', html)
    assert html.count('http-equiv="refresh"') == 1          # only for browsers without scripts
    assert "This page refreshes itself every 10 seconds." in html
    assert '<button type="button" id="ahd-refresh-stop">Stop refreshing</button>' in html
    assert "window.location.reload()" in html and "clearTimeout" in html and "10000" in html
    assert html.index("ahd-refresh-stop") < html.index("</main>")   # inside the page's main landmark


def test_a_page_that_does_not_refresh_has_no_refresh_at_all():
    for html in (teacher_refused_page(), page("title", "<p>body</p>")):
        assert "refresh" not in html and "<main>" in html
