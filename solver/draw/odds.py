"""The strategy of ``patience odds`` as a chart: one coloured cell per starting total and up-card."""

from __future__ import annotations

from html import escape
from typing import Any

COLOURS = {"S": "#f2c14e", "H": "#5da271", "D": "#4a7fb5", "P": "#c45c66", "N": "#9e9e9e"}
CELL_W, CELL_H, LEFT, TOP = 34, 22, 78, 56


def strategy_svg(report: dict[str, Any]) -> str:
    """An SVG document: rows are the player's starting totals (hard, soft, pairs), columns the banker's
    up-card; each cell is coloured by the best first action and carries its letter (an asterisk:
    hands of that total want different actions); a legend and the expectation below."""
    table = report["strategy"]
    rows, columns, cells = table["rows"], table["columns"], table["cells"]
    width = LEFT + CELL_W * len(columns) + 16
    height = TOP + CELL_H * len(rows) + 64
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="8" y="18" font-size="14" font-weight="bold">{escape(report["layout"])}: the '
           f'{escape(report["seat"])}\'s best first action</text>',
           f'<text x="{LEFT + CELL_W * len(columns) / 2}" y="{TOP - 8}" text-anchor="middle">'
           'banker\'s up-card</text>']
    for j, col in enumerate(columns):
        out.append(f'<text x="{LEFT + CELL_W * j + CELL_W / 2}" y="{TOP - 22}" text-anchor="middle" '
                   f'font-weight="bold">{escape(col)}</text>')
    for i, row in enumerate(rows):
        y = TOP + CELL_H * i
        out.append(f'<text x="{LEFT - 6}" y="{y + 15}" text-anchor="end">{escape(row)}</text>')
        for j, cell in enumerate(cells[i]):
            x = LEFT + CELL_W * j
            colour = COLOURS.get(cell[:1], "#eeeeee")
            out.append(f'<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" fill="{colour}" '
                       'stroke="white"/>')
            out.append(f'<text x="{x + CELL_W / 2}" y="{y + 15}" text-anchor="middle">{escape(cell)}</text>')
    y = TOP + CELL_H * len(rows) + 20
    x = 8
    for letter, name in table["legend"].items():
        out.append(f'<rect x="{x}" y="{y - 11}" width="12" height="12" fill="{COLOURS[letter]}"/>')
        out.append(f'<text x="{x + 16}" y="{y}">{letter} {escape(name)}</text>')
        x += 24 + 7 * len(name) + 18
    out.append(f'<text x="8" y="{y + 24}">expectation per stake {100 * report["expectation"]:+.4f}%'
               ' (* : depends on the cards, not only the total)</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
