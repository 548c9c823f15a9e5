"""The front-end bundle shipped in judge/web/static/ is what web/package-lock.json rebuilds, byte for byte,
and the page needs nothing from the network: every asset it names is in the package."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

import serving

STATIC = serving.REPO / "judge" / "web" / "static"
TEMPLATES = serving.REPO / "judge" / "web" / "templates"


@pytest.mark.skipif(shutil.which("npm") is None or shutil.which("node") is None,
                    reason="needs node and npm (and the npm registry) to rebuild the bundle")
def test_the_bundle_rebuilds_identically_from_the_lock_file():
    result = subprocess.run(["bash", str(serving.REPO / "web" / "check-bundle.sh")], capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "bundle reproducible" in result.stdout


def test_every_asset_the_page_names_ships_in_the_package():
    css = (STATIC / "app.css").read_text()
    fonts = set(re.findall(r'url\("\./(fonts/[^")]+\.woff2)"\)', css))
    assert len(fonts) == 20  # KaTeX's fonts, woff2 (the format every current browser reads)
    assert all((STATIC / f).is_file() for f in fonts)
    for template in TEMPLATES.glob("*.html"):
        text = template.read_text()
        assert not re.search(r"(src|href)=\"(https?:)?//", text), template  # no CDN, no remote asset
        for asset in re.findall(r'(?:src|href)="/static/([^"]+)"', text):
            assert (STATIC / asset).is_file(), asset


def test_the_lock_file_pins_every_package():
    import json

    lock = json.loads((serving.REPO / "web" / "package-lock.json").read_text())
    package = json.loads((serving.REPO / "web" / "package.json").read_text())
    for name, version in {**package["dependencies"], **package["devDependencies"]}.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), (name, version)  # exact, never a range
        assert lock["packages"][f"node_modules/{name}"]["version"] == version
    assert all("integrity" in entry for key, entry in lock["packages"].items() if key)
