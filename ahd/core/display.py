"""Small HTML tables for notebooks (``_repr_html_`` of results and odds), standard library only.

Saved notebooks keep the HTML, so GitHub and nbviewer show the figures without a kernel.
"""
from __future__ import annotations

from typing import Iterable
from xml.sax.saxutils import escape

_TABLE = 'style="border-collapse:collapse;font-size:13px"'
_CELL = 'style="padding:2px 8px;text-align:{align};border-bottom:1px solid #ddd"'


def percent(p: float) -> str:
    return f"{p:.1%}"


def html_table(caption: str, rows: Iterable[tuple[str, str]], note: str = "") -> str:
    """A two-column table: ``caption`` above, (label, value) rows, an optional small note below."""
    body = "".join(f"<tr><td {_CELL.format(align='left')}>{escape(label)}</td>"
                   f"<td {_CELL.format(align='right')}>{escape(value)}</td></tr>" for label, value in rows)
    foot = f'<div style="font-size:11px;color:#666">{escape(note)}</div>' if note else ""
    return (f'<div><table {_TABLE}><caption style="text-align:left;font-weight:bold;padding-bottom:2px">'
            f"{escape(caption)}</caption>{body}</table>{foot}</div>")
