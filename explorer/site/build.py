"""Write the static edition into a folder: the page (static/site/index.html and site.css),
its one script (static/build/site.js, the bundle of static/site/site.js with the engine and
the grid renderer inside: ``npm run build``), the tokenizer and the 21 zoo language models
(checkpoints/, F16 safetensors) under models/, the configuration read from the views
(config.py) inlined into index.html as JSON, and README.md carrying the static Space card.

Shape of OUT::

    index.html  site.js  site.css  README.md
    models/tokenizer.json  models/<name>.safetensors (21)
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import CHECKPOINT_DIR, NAME_RE, load_zoo
from explorer.paths import STATIC
from explorer.site.config import site_config

BUNDLE = STATIC / "build" / "site.js"  # scripts/build_js.mjs writes it from static/site/site.js
DEFAULT_APP_URL = "README.md"  # the card below, which names the full app's repository
CARD = """---
title: Attention Explorer (static)
emoji: 🔍
colorFrom: indigo
colorTo: yellow
sdk: static
app_file: index.html
pinned: false
short_description: {short}
---

# Attention Explorer — static edition

Type a sentence and see what every attention head of a small trained transformer does
with it; the models run in your browser, so this folder needs no server, only a static host.
The full app (every view, training snapshots, Patch, the Lab) is the `attention-explorer`
repository: `pip install -r requirements.txt && python app.py`.
"""
SHORT_DESCRIPTION = "Every attention head of a small transformer, in your browser"


def zoo_models(directory: Path = CHECKPOINT_DIR) -> list[Path]:
    """The zoo's language models (the names explorer.models.zoo loads), sorted."""
    return sorted(p for p in directory.glob("*.safetensors") if NAME_RE.match(p.stem))


def _page(config: dict) -> str:
    template = (STATIC / "site" / "index.html").read_text(encoding="utf-8")
    # JSON inside <script>: "</" and "<!--" must not end or open anything
    data = json.dumps(config, ensure_ascii=False).replace("<", "\\u003c")
    return template.replace("/*CONFIG*/{}", data)


def build(out: Path, app_url: str | None = None) -> Path:
    """Write the static edition into ``out`` (created; files of an older build replaced)."""
    out = Path(out)
    (out / "models").mkdir(parents=True, exist_ok=True)
    tok = Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")
    zoo = load_zoo(CHECKPOINT_DIR, tok.vocab_size)
    models = zoo_models()
    for path in models:
        shutil.copyfile(path, out / "models" / path.name)
    shutil.copyfile(CHECKPOINT_DIR / "tokenizer.json", out / "models" / "tokenizer.json")
    shutil.copyfile(BUNDLE, out / "site.js")
    shutil.copyfile(STATIC / "site" / "site.css", out / "site.css")
    config = site_config(zoo, tok, [p.stem for p in models], app_url or DEFAULT_APP_URL)
    (out / "index.html").write_text(_page(config), encoding="utf-8")
    (out / "README.md").write_text(CARD.format(short=SHORT_DESCRIPTION), encoding="utf-8")
    return out
