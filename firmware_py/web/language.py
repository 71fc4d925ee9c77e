"""The pages' language: the table's own (`[table] language`), or one of the others a visitor picks
(`?lang=de`), with every word from the table's message catalogue (`firmware_py.table.messages`).

A page is its HTML in `static/` with `{{key}}` wherever a word of the catalogue's pages' part
(`PAGE_CATALOGUE`) goes: the server fills each in, escaped, sets `<html lang>`, and puts the page's
words and the displays' (`CATALOGUE`: HERO, WAIT, …) in the page as JSON (`{{words}}`) for what
its script writes. A page's word names a button as the table's own word for it with `{@key}`
(`{@draw}`: DRAW, KARTE ZIEHEN, …), so that the page and the table call it the same. Nothing is
English by default in a page: a word missing from the catalogue is an error when the page is
made (`KeyError`), which the tests make for every page and language.

>>> page = render("<html lang={{lang}}><h1>{{game-name}}</h1>{{words}}", Language.DE)
>>> page.startswith("<html lang=de><h1>Der Rosenkönig</h1>{")
True
"""
import functools
import html
import json
import re
from pathlib import Path
from typing import Any

from firmware_py.table.messages import CATALOGUE, LANGUAGE_NAMES, PAGE_CATALOGUE, Language

PLACE = re.compile(r"\{\{([a-z0-9-]+)\}\}")
DISPLAY_WORD = re.compile(r"\{@([a-z0-9-]+)\}")


def choose(asked: str | None, table: Language) -> Language:
    """The language of a page: the one `asked` for (`?lang=`) if the table speaks it, else the table's."""
    return Language(asked) if asked in tuple(Language) else table


@functools.cache
def words(language: Language) -> dict[str, Any]:
    """Every word a page's script may write, in `language`: the pages' (`page`), the displays' (`table`),
    and each language's own name (`languages`), for the page's choice of language."""
    return {"lang": str(language), "page": {key: page_text(key, language) for key in PAGE_CATALOGUE},
            "table": {key: texts[language] for key, texts in CATALOGUE.items()},
            "languages": {str(lang): PAGE_CATALOGUE[f"language-{lang}"][lang] for lang in LANGUAGE_NAMES}}


def page_text(key: str, language: Language) -> str:
    """The pages' word `key` in `language`, each `{@key}` in it the displays' word.

    >>> page_text("howto-draw", Language.DE).startswith("KARTE ZIEHEN nimmt")
    True
    """
    return DISPLAY_WORD.sub(lambda match: CATALOGUE[match.group(1)][language], PAGE_CATALOGUE[key][language])


def dumps(data: object) -> str:
    """JSON in which no `<`, `>` or `&` appears (each written as its \\u escape, the same JSON): whatever a
    page does with the text (the server's messages, the words in a page), no name can open a tag.

    >>> print(dumps({"name": "<b>Ann & Bo</b>"}))
    {"name": "\\u003cb\\u003eAnn \\u0026 Bo\\u003c/b\\u003e"}
    """
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace(
        "&", "\\u0026")


def render(template: str, language: Language) -> str:
    """`template` with its `{{key}}`s filled in `language` (`{{lang}}`: its code, `{{words}}`: `words` as
    `dumps` writes it); KeyError for a key the catalogue does not have."""
    def fill(match: re.Match[str]) -> str:
        key = match.group(1)
        if key == "lang":
            return str(language)
        if key == "words":
            return dumps(words(language))
        return html.escape(page_text(key, language))
    return PLACE.sub(fill, template)


@functools.cache
def page(path: Path, language: Language) -> bytes:
    """The page at `path` in `language`, made once."""
    return render(path.read_text(encoding="utf-8"), language).encode()
