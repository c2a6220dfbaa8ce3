"""Rewriting ``## title`` sections of the Markdown pages that commands regenerate
(docs/balance.md, docs/benchmarks.md), leaving every other section as it is."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def replace_sections(
    path: Path, sections: dict[str, str], intro: str, *, before: Sequence[str] = ()
) -> None:
    """Write ``## title`` sections into a Markdown file, leaving every other section as it is.

    A section the file does not have yet goes just before the first of the ``before``
    sections that the file has (so that games stay above the comparisons), else at the end.
    """
    text = path.read_text(encoding="utf-8") if path.exists() else intro
    blocks: list[tuple[str | None, list[str]]] = [(None, [])]
    for line in text.splitlines():
        if line.startswith("## "):
            blocks.append((line[3:].strip(), [line]))
        else:
            blocks[-1][1].append(line)

    def block(title: str) -> list[str]:
        return [f"## {title}", "", *sections[title].rstrip("\n").splitlines(), ""]

    present = {title for title, _ in blocks}
    new = [title for title in sections if title not in present]
    anchor = next((title for title in before if title in present and title not in new), None)
    out: list[str] = []
    for title, lines in blocks:
        if title is not None and title == anchor:
            for added in new:
                out.extend(block(added))
            new = []
        out.extend(block(title) if title in sections else lines)
    for added in new:
        if out and out[-1].strip():
            out.append("")
        out.extend(block(added))
    cleaned = "\n".join(out).rstrip("\n") + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(cleaned, encoding="utf-8")
