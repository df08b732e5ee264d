"""The note renderer of the web page: markdown in, HTML that can only contain our own tags."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hostile_inputs import bounded
from mnemex.web.markdown import frontmatter_rows, render_markdown

FILES = {
    "notes/deploy.md",
    "N x.md",
    "assets/image.png",
    "assets/photo one.JPG",
    "docs/doc.pdf",
    "audio/talk.mp3",
    "Board.canvas",
}


def resolve(target: str) -> str | None:
    """Obsidian-like enough: a note by name or path without ``.md``, a file by full name."""
    wanted = target.strip().lower().removesuffix(".md")
    for path in sorted(FILES):
        lower = path.lower()
        stem = lower.removesuffix(".md")
        if wanted in (stem, stem.rsplit("/", 1)[-1]) or (
            not lower.endswith(".md") and wanted == lower.rsplit("/", 1)[-1]
        ):
            return path
    return None


def render(text: str) -> str:
    return render_markdown(text, resolve)


TAGS = frozenset(
    {
        *("a", "img", "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "pre", "code"),
        *("strong", "em", "del", "mark", "blockquote", "div", "span", "table", "thead"),
        *("tbody", "tr", "th", "td", "hr", "br", "input"),
    }
)
# "start" (``<ol start="3">``) besides the brief's list: digits we write ourselves
ATTRIBUTES = frozenset(
    {
        *("href", "src", "alt", "class", "id", "width", "loading", "data-path", "data-target"),
        *("target", "rel", "type", "disabled", "checked", "start"),
    }
)
SAFE_URL_STARTS = ("#", "/api/file?path=", "http:", "https:", "mailto:", "obsidian:")


class _Audit(HTMLParser):
    """Every tag and attribute of a rendered note, and anything that is not a plain tag."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.other: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.other.append(f"self-closing {tag}")

    def handle_comment(self, data: str) -> None:
        self.other.append(f"comment {data}")

    def handle_decl(self, decl: str) -> None:
        self.other.append(f"declaration {decl}")

    def handle_pi(self, data: str) -> None:
        self.other.append(f"processing instruction {data}")

    def unknown_decl(self, data: str) -> None:
        self.other.append(f"unknown declaration {data}")


def assert_safe(html: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    """The output holds only our tags and attributes, and no URL a browser would run."""
    audit = _Audit()
    audit.feed(html)
    audit.close()
    assert audit.other == []
    for tag, attrs in audit.tags:
        assert tag in TAGS, tag
        for name, value in attrs:
            assert name in ATTRIBUTES, (tag, name)
            if name in ("href", "src"):
                assert value is not None
                squeezed = re.sub(r"[\s\x00-\x1f]", "", value).lower()
                assert value.startswith(SAFE_URL_STARTS), value
                assert not squeezed.startswith(("javascript:", "data:", "vbscript:", "file:"))
    # every "<" in the text starts one of our tags; the note's own are escaped
    for m in re.finditer("<", html):
        name = re.match(r"</?([a-z0-9]+)[\s>]", html[m.start() :])
        assert name is not None and name.group(1) in TAGS, html[m.start() : m.start() + 40]
    assert "<script" not in html.lower()
    # our attribute values are double-quoted with every quote inside escaped
    assert re.search(r"<[^>]*\son\w+\s*=", re.sub(r'"[^"]*"', '""', html)) is None
    return audit.tags


def attributes_of(html: str, tag: str) -> list[dict[str, str | None]]:
    return [dict(attrs) for name, attrs in assert_safe(html) if name == tag]


# ------------------------------------------------------------------------------------ blocks


def test_headings_become_h1_to_h6_with_slug_ids() -> None:
    html = render("# Hello *World*\n## Ünïcode & Co.\n###### Six ###\n####### seven")
    assert '<h1 id="hello-world">Hello <em>World</em></h1>' in html
    assert '<h2 id="ünïcode-co">Ünïcode &amp; Co.</h2>' in html
    assert '<h6 id="six">Six</h6>' in html
    assert "<p>####### seven</p>" in html


def test_repeated_headings_get_distinct_ids() -> None:
    html = render("# Same\n# Same")
    assert 'id="same"' in html
    assert 'id="same-1"' in html


def test_paragraph_lines_are_joined_with_spaces_and_blank_lines_split_them() -> None:
    html = render("one\ntwo\n\nthree")
    assert html == "<p>one two</p>\n<p>three</p>"


def test_two_trailing_spaces_or_a_backslash_make_a_line_break() -> None:
    assert render("a  \nb\\\nc") == "<p>a<br> b<br> c</p>"


def test_fenced_code_is_escaped_and_keeps_its_language() -> None:
    html = render('```python\nprint("<b>") # [[Deploy]] **x** #tag\n```\n~~~\n<i>\n~~~')
    assert (
        '<pre><code class="language-python">print(&quot;&lt;b&gt;&quot;)'
        " # [[Deploy]] **x** #tag</code></pre>"
    ) in html
    assert "<pre><code>&lt;i&gt;</code></pre>" in html
    assert "wikilink" not in html


def test_an_unclosed_fence_runs_to_the_end() -> None:
    assert render("```\ncode\n\nmore") == "<pre><code>code\n\nmore</code></pre>"


def test_fence_language_cannot_break_out_of_the_class_attribute() -> None:
    html = render('```x"onmouseover="alert(1)\ncode\n```')
    assert attributes_of(html, "code") == [{"class": "language-xonmouseoveralert1"}]


def test_bullet_lists_nest_by_indentation() -> None:
    html = render("- one\n* two\n  + nested\n  + sibling\n- three\n\t- tabbed")
    assert html.count("<ul>") == 3
    assert "<li>two\n<ul>\n<li>nested</li>\n<li>sibling</li>\n</ul></li>" in html
    assert "<li>three\n<ul>\n<li>tabbed</li>\n</ul></li>" in html


def test_ordered_lists_keep_their_start_and_nest_bullets() -> None:
    html = render("3. c\n4. d\n   - inner")
    assert html.startswith('<ol start="3">\n<li>c</li>\n<li>d\n<ul>\n<li>inner</li>')


def test_blank_lines_between_items_make_paragraphs() -> None:
    assert render("- a\n\n- b") == "<ul>\n<li><p>a</p></li>\n<li><p>b</p></li>\n</ul>"


def test_task_items_are_disabled_checkboxes() -> None:
    html = render("- [ ] todo\n- [x] done\n- [X] also")
    assert '<li class="task"><input type="checkbox" disabled> todo</li>' in html
    assert '<li class="task"><input type="checkbox" disabled checked> done</li>' in html
    assert html.count("checked") == 2


def test_blockquotes_hold_blocks() -> None:
    html = render("> quoted **text**\n> - item\n\nafter")
    assert html.startswith("<blockquote>\n<p>quoted <strong>text</strong></p>\n<ul>")
    assert html.endswith("</blockquote>\n<p>after</p>")


def test_callouts_get_a_type_class_and_a_title() -> None:
    html = render("> [!warning] Be *careful*\n> body\n\n> [!TIP]\n> hint")
    assert (
        '<div class="callout callout-warning"><div class="callout-title">Be <em>careful</em></div>'
        '<div class="callout-content"><p>body</p></div></div>'
    ) in html
    assert '<div class="callout callout-tip"><div class="callout-title">Tip</div>' in html


def test_rules() -> None:
    assert render("a\n\n---\n***\n_ _ _") == "<p>a</p>\n<hr>\n<hr>\n<hr>"


def test_pipe_tables_with_alignment_and_escaped_pipes_in_wikilinks() -> None:
    html = render("| Name | Note |\n|:--|:-:|\n| [[Deploy\\|the deploy]] | `a\\|b` |\n| x |")
    assert '<th class="align-left">Name</th><th class="align-center">Note</th>' in html
    assert (
        '<td class="align-left"><a class="wikilink" href="#/page/notes/deploy.md"'
        ' data-path="notes/deploy.md">the deploy</a></td>'
        '<td class="align-center"><code>a|b</code></td>'
    ) in html
    assert '<tr><td class="align-left">x</td><td class="align-center"></td></tr>' in html


def test_a_pipe_line_without_a_separator_row_is_a_paragraph() -> None:
    assert render("a | b\nc | d") == "<p>a | b c | d</p>"


def test_comments_are_dropped_but_not_inside_code() -> None:
    html = render("a <!-- hidden --> b %%secret%% c\n\n%%\nmulti\nline\n%%\n`%%kept%%`")
    assert "hidden" not in html
    assert "secret" not in html
    assert "multi" not in html
    assert "<p>a  b  c</p>" in html
    assert "<code>%%kept%%</code>" in html


def test_a_comment_between_paragraphs_does_not_join_them() -> None:
    assert render("one\n<!--\nx\n-->\ntwo") == "<p>one</p>\n<p>two</p>"


# ----------------------------------------------------------------------------------- inlines


def test_emphasis_strike_and_highlight() -> None:
    html = render("**b** *e* _e_ ~~s~~ ==h== ***both*** snake_case_name a * b")
    assert html == (
        "<p><strong>b</strong> <em>e</em> <em>e</em> <del>s</del> <mark>h</mark> "
        "<em><strong>both</strong></em> snake_case_name a * b</p>"
    )


def test_emphasis_nests() -> None:
    assert render("*a **b** c*") == "<p><em>a <strong>b</strong> c</em></p>"
    assert render("**a *b***") == "<p><strong>a <em>b</em></strong></p>"


def test_code_spans_are_escaped_and_not_parsed() -> None:
    html = render("`[[Deploy]] **x** <b> #tag https://e.com` and `` a ` b ``")
    assert html == (
        "<p><code>[[Deploy]] **x** &lt;b&gt; #tag https://e.com</code> and <code>a ` b</code></p>"
    )


def test_backslash_escapes_keep_markup_literal() -> None:
    assert render("\\*not em\\* \\[[Deploy]] \\#notag") == "<p>*not em* [[Deploy]] #notag</p>"


def test_wikilinks_resolve_to_page_routes() -> None:
    html = render("[[Deploy]] [[notes/deploy|the deploy]] [[Deploy.md#Run it]] [[deploy#^b1]]")
    links = attributes_of(html, "a")
    assert links == [
        {"class": "wikilink", "href": "#/page/notes/deploy.md", "data-path": "notes/deploy.md"}
    ] * 2 + [
        {
            "class": "wikilink",
            "href": "#/page/notes/deploy.md?h=Run%20it",
            "data-path": "notes/deploy.md",
        },
        {"class": "wikilink", "href": "#/page/notes/deploy.md", "data-path": "notes/deploy.md"},
    ]
    assert ">Deploy</a>" in html
    assert ">the deploy</a>" in html
    assert ">Deploy.md &gt; Run it</a>" in html
    assert ">deploy &gt; ^b1</a>" in html


def test_paths_in_hrefs_are_percent_quoted() -> None:
    html = render("[[N x]]")
    assert '<a class="wikilink" href="#/page/N%20x.md" data-path="N x.md">N x</a>' in html


def test_same_page_heading_links_point_at_the_heading_id() -> None:
    html = render("# Run It\n[[#Run It]] [[#Run It|there]]")
    assert '<a class="wikilink" href="#run-it">Run It</a>' in html
    assert '<a class="wikilink" href="#run-it">there</a>' in html


def test_unresolved_wikilinks_have_no_href() -> None:
    html = render('[[Nowhere|"x"]]')
    assert html == '<p><a class="wikilink unresolved" data-target="Nowhere">&quot;x&quot;</a></p>'


def test_empty_and_unclosed_wikilinks_are_text() -> None:
    assert render("[[]] [[#]] [[a\nb]] [[open") == "<p>[[]] [[#]] [[a b]] [[open</p>"


def test_image_embeds_become_lazy_images_with_a_numeric_width() -> None:
    html = render("![[image.png]] ![[image.png|200]] ![[image.png|300x100]] ![[photo one.JPG|Me]]")
    assert attributes_of(html, "img") == [
        {"src": "/api/file?path=assets/image.png", "alt": "image.png", "loading": "lazy"},
        {
            "src": "/api/file?path=assets/image.png",
            "alt": "image.png",
            "width": "200",
            "loading": "lazy",
        },
        {
            "src": "/api/file?path=assets/image.png",
            "alt": "image.png",
            "width": "300",
            "loading": "lazy",
        },
        {"src": "/api/file?path=assets/photo%20one.JPG", "alt": "Me", "loading": "lazy"},
    ]


def test_a_width_that_is_not_digits_is_alt_text() -> None:
    html = render('![[image.png|200" onerror="alert(1)]]')
    assert attributes_of(html, "img") == [
        {
            "src": "/api/file?path=assets/image.png",
            "alt": '200" onerror="alert(1)',
            "loading": "lazy",
        }
    ]


def test_note_and_file_embeds_become_links() -> None:
    html = render(
        "![[Deploy]] ![[Deploy#Steps]] ![[doc.pdf#page=3]] ![[talk.mp3]] ![[Board.canvas]]"
    )
    assert '<a class="embed" href="#/page/notes/deploy.md" data-path="notes/deploy.md">' in html
    assert 'href="#/page/notes/deploy.md?h=Steps"' in html
    assert '<a class="embed" href="/api/file?path=docs/doc.pdf#page=3">⤷ doc.pdf#page=3</a>' in html
    assert '<a class="embed" href="/api/file?path=audio/talk.mp3">⤷ talk.mp3</a>' in html
    assert '<a class="embed" href="/api/file?path=Board.canvas">⤷ Board.canvas</a>' in html


def test_unresolved_embeds_are_spans() -> None:
    assert render("![[gone.png]]") == '<p><span class="embed unresolved">⤷ gone.png</span></p>'


def test_external_links_open_in_a_new_tab() -> None:
    html = render('[site](https://example.com/a?b=1&c=2 "title") [me](mailto:a@b.c)')
    assert (
        '<a href="https://example.com/a?b=1&amp;c=2" class="external" target="_blank"'
        ' rel="noopener noreferrer">site</a>'
    ) in html
    assert 'href="mailto:a@b.c"' in html


def test_obsidian_links_stay_in_the_tab() -> None:
    html = render("[open](obsidian://open?vault=v)")
    assert attributes_of(html, "a") == [
        {"href": "obsidian://open?vault=v", "class": "external", "rel": "noopener noreferrer"}
    ]


def test_link_text_keeps_emphasis_and_code_but_no_nested_links() -> None:
    html = render("[**b** `c` #tag https://e.com](https://x.y)")
    assert ">" + "<strong>b</strong> <code>c</code> #tag https://e.com</a>" in html
    assert html.count("<a ") == 1


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        "<javascript:alert(1)>",
        "< javascript:alert(1)>",
        "<java\tscript:alert(1)>",
        "<java\nscript:alert(1)>",
        "\x01javascript:alert(1)",
        "data:text/html;base64,PHNjcmlwdD4=",
        "vbscript:msgbox(1)",
        "file:///etc/passwd",
        "//evil.example/x",
        "\\\\evil\\share",
        "ftp://example.com",
        "<java\u200bscript:alert(1)>",
    ],
)
def test_links_with_other_schemes_are_plain_text(url: str) -> None:
    html = render(f"[click me]({url}) ![pic]({url})")
    assert "href" not in html
    assert "src" not in html
    assert "click me" in html
    assert_safe(html)


def test_relative_links_resolve_in_the_vault() -> None:
    html = render("[d](notes/deploy.md#Run%20it) [x](N%20x.md) [p](<docs/doc.pdf>) [u](gone.md)")
    assert attributes_of(html, "a") == [
        {
            "class": "wikilink",
            "href": "#/page/notes/deploy.md?h=Run%20it",
            "data-path": "notes/deploy.md",
        },
        {"class": "wikilink", "href": "#/page/N%20x.md", "data-path": "N x.md"},
        {"class": "attachment", "href": "/api/file?path=docs/doc.pdf"},
        {"class": "unresolved", "data-target": "gone.md"},
    ]


def test_relative_links_are_decoded_before_resolving() -> None:
    seen: list[str] = []

    def record(target: str) -> str | None:
        seen.append(target)
        return None

    render_markdown("[a](../up%20one/N.md#h) [b](<with space.md>)", record)
    assert seen == ["../up one/N.md", "with space.md"]


def test_fragment_links_point_at_a_heading_on_the_page() -> None:
    assert render("[top](#Run-It)") == '<p><a class="wikilink" href="#run-it">top</a></p>'


def test_markdown_images_in_the_vault_are_images_and_external_ones_are_links() -> None:
    html = render("![a pic](<assets/image.png>) ![remote](https://e.com/x.png) ![d](doc.pdf)")
    assert '<img src="/api/file?path=assets/image.png" alt="a pic" loading="lazy">' in html
    assert (
        '<a href="https://e.com/x.png" class="external" target="_blank"'
        ' rel="noopener noreferrer">remote</a>'
    ) in html
    assert '<a class="attachment" href="/api/file?path=docs/doc.pdf">d</a>' in html


def test_bare_and_angle_urls_are_linked() -> None:
    html = render("see https://e.com/a_(b). and <https://e.com/c> or (https://e.com/d)")
    hrefs = [a["href"] for a in attributes_of(html, "a")]
    assert hrefs == ["https://e.com/a_(b)", "https://e.com/c", "https://e.com/d"]
    assert html.endswith(">https://e.com/d</a>)</p>")


def test_tags_are_spans_when_they_start_a_word() -> None:
    html = render("#tag #nested/tag-x #_u #1a #123 a#b C# #")
    assert html == (
        '<p><span class="tag">#tag</span> <span class="tag">#nested/tag-x</span>'
        ' <span class="tag">#_u</span> <span class="tag">#1a</span> #123 a#b C# #</p>'
    )


def test_raw_html_in_a_note_is_shown_as_text() -> None:
    html = render('<b>bold</b>\n\n<div onclick="x()">hi</div>')
    assert html == (
        "<p>&lt;b&gt;bold&lt;/b&gt;</p>\n<p>&lt;div onclick=&quot;x()&quot;&gt;hi&lt;/div&gt;</p>"
    )


def test_placeholder_characters_in_a_note_cannot_pull_in_other_html() -> None:
    html = render("[[Deploy]] \ue0000\ue001 \ue000")
    assert html.count("<a ") == 1
    assert_safe(html)


# ------------------------------------------------------------------------------- frontmatter


def test_frontmatter_rows_are_text() -> None:
    rows = frontmatter_rows(
        {
            "title": "<b>Deploy</b>",
            "tags": ["ops", "how-to"],
            "meta": {"a": 1, "b": ["x"]},
            "draft": False,
            "none": None,
            "n": 3,
        }
    )
    assert rows == [
        ("title", "<b>Deploy</b>"),
        ("tags", "ops, how-to"),
        ("meta", '{"a":1,"b":["x"]}'),
        ("draft", "false"),
        ("none", ""),
        ("n", "3"),
    ]


# ---------------------------------------------------------------------------------- hostility

HOSTILE = [
    "<script>alert(1)</script>",
    "<SCRIPT SRC=//evil/x.js></SCRIPT>",
    '<img src=x onerror="alert(1)">',
    "<svg onload=alert(1)>",
    "<iframe src=javascript:alert(1)></iframe>",
    "<style>body{display:none}</style>",
    '<a href="javascript:alert(1)">x</a>',
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](<  javascript:alert(1)>)",
    "[x](<java\tscript:alert(1)>)",
    "[x](<java&#x09;script:alert(1)>)",
    "[x](data:text/html,<script>alert(1)</script>)",
    "[x](vbscript:msgbox(1))",
    "![x](javascript:alert(1))",
    "![x](data:image/svg+xml,<svg onload=alert(1)>)",
    "[[javascript:alert(1)]]",
    "[[javascript:alert(1)|click]]",
    "![[javascript:alert(1)]]",
    "![[data:image/png;base64,AAAA]]",
    '[[Deploy|"><script>alert(1)</script>]]',
    '[["><script>alert(1)</script>]]',
    '["><script>alert(1)</script>](https://e.com)',
    '[x](https://e.com "\\"><script>alert(1)</script>")',
    '[x](https://e.com/"onmouseover="alert(1))',
    '![[image.png|200" onerror="alert(1)]]',
    "![[image.png|200><script>alert(1)</script>]]",
    '![a" onerror="alert(1)](assets/image.png)',
    '# "><script>alert(1)</script>',
    '> [!note"><script>] "><img src=x onerror=alert(1)>',
    '```"><script>alert(1)</script>\ncode\n```',
    '| <b onclick="x">h</b> |\n|---|\n| <script> |',
    "#tag<script>alert(1)</script>",
    "https://e.com/<script>alert(1)</script>",
    '<https://e.com/"onclick="alert(1)>',
    "<!--><script>alert(1)</script>-->",
    "%%<script>%%<script>alert(1)</script>",
    "[x](\u202ejavascript:alert(1))",
    "[x](ｊａｖａｓｃｒｉｐｔ:alert(1))",
    "\ue0000\ue001<script>\ue000",
    "`<script>`<script>",
    "- [x] <img src=x onerror=alert(1)>\n  - [ ] <svg/onload=alert(1)>",
    "**<script>**alert(1)**</script>**",
    '[[Deploy#"><script>alert(1)</script>]]',
    '![[doc.pdf#page=3"><script>]]',
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_input_renders_only_our_own_markup(text: str) -> None:
    html = render(text)
    tags = assert_safe(html)
    urls = [value or "" for _tag, attrs in tags for name, value in attrs if name in ("href", "src")]
    assert not any("javascript:" in re.sub(r"\s", "", url).lower() for url in urls)
    assert "<script" not in html
    assert "<img" not in html or "onerror" not in re.sub(r'alt="[^"]*"', "", html)


def test_hostile_input_also_fails_to_escape_inside_lists_quotes_and_tables() -> None:
    for text in HOSTILE:
        one_line = text.replace("\n", " ")
        for wrapped in (f"- {one_line}", f"> {one_line}", f"| a |\n|---|\n| {one_line} |"):
            assert_safe(render(wrapped))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                *"[]()!<>#*_~=`|\\-+>:./ \n\t\"'&%^ajvscriptdamg0123456789x",
                *("javascript:", "data:", "https://", "[[", "]]", "![", "```", "- [ ] ", "\ue000"),
                *("Deploy", "image.png", "> [!note] ", "| a |", "|---|", "<!--", "-->", "%%"),
            ]
        ),
        max_size=80,
    ).map("".join)
)
def test_any_text_renders_only_allowlisted_markup(text: str) -> None:
    assert_safe(render(text))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_unicode_text_renders_only_allowlisted_markup(text: str) -> None:
    assert_safe(render(text))


def test_hostile_notes_render_in_linear_time() -> None:
    sizes = bounded(
        "import json\n"
        "from hostile_inputs import hostile_notes\n"
        "from mnemex.web.markdown import render_markdown\n"
        "extra = {'nested-lists': '- ' * 5000 + 'x', 'nested-quotes': '> ' * 5000 + 'x',\n"
        "         'emphasis': '**a' + ' **a' * 100000, 'brackets': '[' * 200000 + '](x)'}\n"
        "notes = {**hostile_notes(), **extra}\n"
        "print(json.dumps({k: len(render_markdown(v, lambda t: None)) for k, v in notes.items()}))"
    )
    assert sizes["unclosed-wikilinks"] > 0
    assert all(size > 0 for name, size in sizes.items() if name != "backtick-run")
