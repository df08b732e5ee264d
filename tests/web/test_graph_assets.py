"""The graph view's static assets: the vendored d3-force bundle, its licences, and graph.js."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "mnemex" / "web" / "static"
VENDOR = STATIC / "vendor"
BUNDLE = VENDOR / "d3-force.bundle.min.js"
LICENSES = VENDOR / "LICENSES.txt"
GRAPH_JS = STATIC / "graph.js"
VENDOR_SCRIPT = ROOT / "scripts" / "vendor_js.sh"
PACKAGES = ("d3-dispatch", "d3-quadtree", "d3-timer", "d3-force")
ISC_TEXT = (
    "Permission to use, copy, modify, and/or distribute this software for any purpose\n"
    "with or without fee is hereby granted"
)
MIT_TEXT = "Permission is hereby granted, free of charge, to any person obtaining a copy"
PINNED = re.compile(r'^\s*"(d3-[a-z]+) (\d+\.\d+\.\d+) (\w+) (sha512-\S+)"\s*$', re.MULTILINE)


def pinned_versions() -> dict[str, str]:
    return {name: version for name, version, _, _ in PINNED.findall(VENDOR_SCRIPT.read_text())}


def test_the_vendor_script_pins_an_exact_version_and_hash_of_each_package() -> None:
    script = VENDOR_SCRIPT.read_text()
    assert set(pinned_versions()) == set(PACKAGES)
    assert pinned_versions()["d3-force"] == "3.0.0"
    assert 'npm pack "$name@$version"' in script
    # no ranges or tags anywhere a version is named
    assert not re.search(r"d3-[a-z]+@(latest|next|\^|~|\*)", script)


def test_the_bundle_names_each_package_at_its_pinned_version_in_dependency_order() -> None:
    bundle = BUNDLE.read_text()
    header = bundle.split("*/", 1)[0]
    positions = []
    for name, version in pinned_versions().items():
        assert f"{name}@{version}" in header
        banner = f"// https://d3js.org/{name}/ v{version} "
        assert banner in bundle
        positions.append(bundle.index(banner))
    assert positions == sorted(positions)
    assert positions[-1] == bundle.index("// https://d3js.org/d3-force/")
    assert bundle.endswith("\n")


@pytest.mark.parametrize("name", PACKAGES)
def test_the_licences_file_has_the_full_text_of_each_package(name: str) -> None:
    licences = LICENSES.read_text()
    version = pinned_versions()[name]
    assert f"{name}@{version}" in licences
    section = licences.split(f"{name}@{version}", 1)[1].split("=" * 80 + "\n\n", 1)[1]
    section = section.split("\n" + "=" * 80, 1)[0]
    assert "Copyright" in section
    assert ISC_TEXT in section or MIT_TEXT in section
    assert "THE SOFTWARE IS PROVIDED" in section


def test_graph_js_builds_no_code_or_html_from_strings() -> None:
    source = GRAPH_JS.read_text()
    for banned in (
        "eval(",
        "new Function",
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "document.write",
        'setAttribute("style"',
        "import(",
    ):
        assert banned not in source, banned
    assert "window.MnemexGraph" in source


def test_the_bench_page_loads_every_script_from_a_file() -> None:
    page = (ROOT / "bench" / "web_graph" / "page.html").read_text()
    assert "<script>" not in page
    tags = re.findall(r"<script\b[^>]*>", page)
    assert tags
    assert all(' src="' in tag for tag in tags)
    assert " style=" not in page
    assert not (STATIC / "graph-bench.html").exists()
