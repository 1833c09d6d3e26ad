"""Pages from the model: HTML (one self-contained file per CRD, an index with an offline search box) and
GitHub-flavoured Markdown, through Jinja2 templates (``crdtool/docs/templates``).

Descriptions are Markdown (controller-gen copies Go comments into them); in HTML they are rendered by
markdown-it-py with raw HTML turned off, so a description cannot inject markup or scripts; in Markdown
they are kept as written, with ``<`` escaped. No template reads a clock or an environment variable:
the same model gives the same bytes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Sequence

from crdtool.docs.model import CrdPage

__all__ = ["IndexEntry", "index_entries", "render_html_index", "render_html_page", "render_markdown_index",
           "render_markdown_page"]


@dataclass(frozen=True)
class IndexEntry:
    """A page as the index lists it: its ``href``, the versions as text, the words the search box
    matches, and whether another CRD of the same name is listed (then its source is shown)."""

    page: CrdPage
    href: str
    versions: str
    search: str
    duplicate: bool


def index_entries(pages: Sequence[CrdPage], suffix: str) -> list[tuple[str, list[IndexEntry]]]:
    """``[(group, entries)]``, groups and kinds sorted, for the index templates; ``suffix``: ``.html``/``.md``."""
    counts: dict[str, int] = {}
    for p in pages:
        counts[p.name] = counts.get(p.name, 0) + 1
    groups: dict[str, list[IndexEntry]] = {}
    for p in pages:
        versions = ", ".join(v.name + (" (storage)" if v.storage else "") for v in p.versions)
        words = [p.kind, p.group, p.plural, p.singular, p.name, *p.short_names, *p.categories, *(v.name for v in p.versions)]
        groups.setdefault(p.group, []).append(
            IndexEntry(p, p.slug + suffix, versions, " ".join(w.lower() for w in words if w), counts[p.name] > 1)
        )
    return [(g, sorted(groups[g], key=lambda e: (e.page.kind, e.page.slug))) for g in sorted(groups)]


def render_html_page(page: CrdPage) -> str:
    """One CRD's page as a self-contained HTML document (inline CSS, no script, nothing fetched)."""
    return _env(True).get_template("page.html.j2").render(page=page, css=_css())


def render_html_index(pages: Sequence[CrdPage]) -> str:
    """The index page: groups, kinds and versions, and a search box that works from ``file://``."""
    return _env(True).get_template("index.html.j2").render(pages=pages, groups=index_entries(pages, ".html"), css=_css())


def render_markdown_page(page: CrdPage) -> str:
    """One CRD's page as GitHub-flavoured Markdown."""
    return _env(False).get_template("page.md.j2").render(page=page).rstrip("\n") + "\n"


def render_markdown_index(pages: Sequence[CrdPage]) -> str:
    """The index as GitHub-flavoured Markdown."""
    return _env(False).get_template("index.md.j2").render(pages=pages, groups=index_entries(pages, ".md")).rstrip("\n") + "\n"


# --- the template environment ----------------------------------------------------------------------


@lru_cache(maxsize=2)
def _env(html: bool) -> Any:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("crdtool.docs", "templates"),
        autoescape=html,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["capfirst"] = lambda s: s[:1].upper() + s[1:]
    if html:
        env.filters["md"] = _markdown_html
        env.filters["inline_code"] = _inline_code_html
    else:
        env.filters["code"] = md_code
        env.filters["cell"] = _cell
        env.filters["mdtext"] = _md_text
        env.filters["mdtext_keep_code"] = _md_text_keep_code
        env.filters["mddesc"] = _md_description
        env.filters["gh_anchor"] = _gh_anchor
        env.filters["fence"] = _fence
    return env


@lru_cache(maxsize=1)
def _css() -> str:
    return resources.files("crdtool.docs").joinpath("templates/style.css").read_text(encoding="utf-8").strip()


@lru_cache(maxsize=1)
def _markdown() -> Any:
    from markdown_it import MarkdownIt

    # CommonMark with GitHub's tables and strikethrough; raw HTML is escaped, not passed through
    return MarkdownIt("commonmark", {"html": False, "linkify": False}).enable(["table", "strikethrough"])


def _markdown_html(text: str) -> Any:
    from markupsafe import Markup

    return Markup(_markdown_cached(text))


_MARKUP_CHARS = frozenset("\\`*_[]<>!#|~&=")
_LIST_OR_RULE = re.compile(r"^\s*(?:[-+]|\d{1,9}[.)](?:\s|$))", re.M)  # list items, --- rules and underlines


def plain_paragraphs(text: str) -> str | None:
    """The HTML markdown-it-py gives ``text`` when it is plain prose, without running the parser, else None.

    Plain: none of the characters Markdown's block and inline syntax starts with, no list item, no
    indented code (a line starting with a tab or four spaces), no hard break (two trailing spaces). Then
    CommonMark makes a paragraph of each run of non-blank lines, each line stripped, ``"`` escaped.
    ``tests/docs/test_render_fast_path.py`` checks the equivalence on generated text."""
    if _MARKUP_CHARS.intersection(text) or _LIST_OR_RULE.search(text):
        return None
    if any(c.isspace() and c not in " \n" for c in text):  # tabs, vertical tabs, no-break spaces: the parser's
        return None
    paragraphs: list[list[str]] = [[]]
    for line in text.split("\n"):
        if line.startswith("    ") or line.endswith("  "):
            return None
        stripped = line.strip(" ")
        if not stripped:
            if paragraphs[-1]:
                paragraphs.append([])
            continue
        paragraphs[-1].append(stripped)
    return "\n".join("<p>" + "\n".join(p).replace('"', "&quot;") + "</p>" for p in paragraphs if p)


@lru_cache(maxsize=8192)
def _markdown_cached(text: str) -> str:
    fast = plain_paragraphs(text)
    if fast is not None:
        return fast
    md = _markdown()
    html: str = md.render(text)
    # links in descriptions may point anywhere; they never load anything by themselves (no images, no
    # iframes: markdown-it's image syntax is turned into a plain link so the page fetches nothing)
    return _IMG.sub(lambda m: f'<a href="{m.group(1)}">{m.group(2) or m.group(1)}</a>', html).rstrip("\n")


_IMG = re.compile(r'<img src="([^"]*)" alt="([^"]*)"(?: title="[^"]*")? />')
_CODE_SPAN = re.compile(r"`([^`]+)`")


def _inline_code_html(text: str) -> Any:
    """Plain text whose backticked parts become ``<code>`` (HTML-escaped)."""
    from markupsafe import Markup, escape

    out: list[str] = []
    last = 0
    for m in _CODE_SPAN.finditer(text):
        out.append(str(escape(text[last:m.start()])))
        out.append(f"<code>{escape(m.group(1))}</code>")
        last = m.end()
    out.append(str(escape(text[last:])))
    return Markup("".join(out))


# --- Markdown escaping ------------------------------------------------------------------------------


def md_code(text: str) -> str:
    """``text`` as a Markdown code span: a fence of more backticks than any run inside, padded when the
    text starts or ends with a backtick; newlines as spaces (a code span is one line here)."""
    text = text.replace("\r", " ").replace("\n", " ")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or (text.startswith(" ") and text.endswith(" ") and text.strip()) else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _cell(text: str) -> str:
    """Text for a table cell: one line, ``|`` escaped (GitHub escapes it inside code spans too)."""
    return text.replace("\r", " ").replace("\n", " ").replace("|", "\\|")


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~])")


def _md_text(text: str) -> str:
    """Plain text shown literally in Markdown (one line)."""
    return _MD_SPECIAL.sub(r"\\\1", text.replace("\n", " "))


def _md_text_keep_code(text: str) -> str:
    """Text whose backticked parts stay code spans and the rest is shown literally."""
    out: list[str] = []
    last = 0
    for m in _CODE_SPAN.finditer(text):
        out.append(_md_text(text[last:m.start()]))
        out.append(md_code(m.group(1)))
        last = m.end()
    out.append(_md_text(text[last:]))
    return "".join(out)


def _md_description(text: str) -> str:
    """A description kept as Markdown, made safe to embed: raw HTML shown as text (``<`` escaped),
    no line that would end the surrounding block as a heading or a thematic break."""
    lines = []
    for line in text.replace("\r\n", "\n").strip("\n").split("\n"):
        line = line.replace("<", "&lt;")
        stripped = line.lstrip()
        if stripped.startswith("#") or re.fullmatch(r"(-{3,}|={3,}|\*{3,}|_{3,})\s*", stripped):
            line = "\\" + stripped
        lines.append(line)
    return "\n".join(lines)


def _fence(text: str, info: str = "") -> str:
    """A fenced code block longer than any backtick run in ``text``."""
    longest = max((len(run) for run in re.findall(r"`{3,}", text)), default=2)
    fence = "`" * (longest + 1)
    return f"{fence}{info}\n{text.rstrip()}\n{fence}"


def _gh_anchor(text: str) -> str:
    """GitHub's heading anchor: lower case, punctuation removed, spaces as ``-``."""
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
