"""Shared fixtures, and the tiers the tests fall into.

Fixtures: tiny seeded models (every test using them runs in milliseconds), and what is
costly, made once per test session: the app's real (tokenizer, zoo) (``resources``), the
app as ``app.py`` builds it on a free port (``app_url``), one Chromium (``browser``), and
the purpose-built pages several modules test (``extras_url``, ``compare_url``). They are
defined here only, so that pytest makes each once: a test module that imports one of
them (``from tests.server import browser``) would get a copy of its own, made again (the
collection below refuses that).

Tiers: markers applied at collection (``pytest_collection_modifyitems``), by rule:

* ``browser``: the test uses the ``browser`` fixture (itself or through another fixture),
  or lives in a ``*_browser.py`` file.
* ``server``: the test talks to a served app: it uses ``app_url`` or another ``*_url``
  fixture, or it (or a fixture or helper of its module it calls) calls ``serve(``,
  ``build_app(``, ``tabs_page(`` or ``.launch(``.
* ``process``: the test, or a fixture or helper of its module it calls, starts processes:
  ``subprocess``, ``multiprocessing``, a command of ``sys.executable``, a ``LabRunner(`` or
  ``stand_in_runner(`` (their workers), a notebook kernel.
* ``slow``: the test runs long by design (a load test, a real training); ``SLOW`` below
  names them with the reason.

``python -m pytest -m "not browser and not process and not slow"`` is the fast tier.
Browser tests run last (one Chromium for all of them, and Playwright's sync API keeps an
event loop running, which ``asyncio.run`` in a later test would trip over)."""

from __future__ import annotations

import inspect
import os
import re
from pathlib import Path

import pytest
import torch

from explorer.models.config import POSITIONAL_ENCODINGS, ModelConfig
from explorer.models.transformer import Transformer

TESTS = Path(__file__).resolve().parent


def tiny_config(**overrides) -> ModelConfig:
    base = dict(vocab_size=61, d_model=32, n_layers=2, n_heads=4, d_ff=64, n_ctx=24)
    base.update(overrides)
    return ModelConfig(**base)


def tiny_model(seed: int = 0, **overrides) -> Transformer:
    torch.manual_seed(seed)
    return Transformer(tiny_config(**overrides)).eval()


@pytest.fixture
def model() -> Transformer:
    return tiny_model()


@pytest.fixture(params=POSITIONAL_ENCODINGS)
def any_pe_model(request) -> Transformer:
    return tiny_model(pos_encoding=request.param)


@pytest.fixture
def tokens() -> torch.Tensor:
    return torch.randint(0, 61, (1, 11), generator=torch.Generator().manual_seed(1))


# ------------------------------------------------------------------ shared, once a session

_made: dict = {}  # what the session fixtures below have made so far (for the checks)


def _fingerprint(resources) -> tuple:
    """What a test must not change in the shared (tokenizer, zoo): the zoo's tables, and
    each model's mode and weights (a sum of each parameter: cheap, and any write moves it)."""
    tok, zoo = resources
    weights = tuple(
        (name, model.training, tuple(float(p.detach().double().sum()) for p in
                                     model.state_dict().values() if p.is_floating_point()))
        for name, model in sorted(zoo.models.items()))
    return (tok.vocab_size, len(tok.token_pieces("The cat sat on the mat.")),
            sorted(zoo.cards), sorted(zoo.unavailable), sorted(zoo.evals), zoo.untrained,
            zoo.device, weights)


@pytest.fixture(scope="session")
def resources():
    """(tokenizer, zoo) as the app loads them, with one torch thread like the server. Shared
    by the whole session: read it, never change it (checked after every module)."""
    from explorer import app

    torch.set_num_threads(1)
    loaded = app.load_resources()
    _made["resources"] = (loaded, _fingerprint(loaded))
    return loaded


@pytest.fixture(scope="session")
def app_url(request):
    """The app as ``app.py`` builds it, on a free port, one for the session; or, when
    ``AE_APP_URL`` is set, a server started by hand (``python app.py``), so a benchmark
    can read its memory after a test file has been run against it. Tests that flood it
    or count its sessions start their own (``tests.server.app_server``)."""
    if os.environ.get("AE_APP_URL"):
        yield os.environ["AE_APP_URL"].rstrip("/") + "/"
        return
    from tests.server import app_server

    with app_server(*request.getfixturevalue("resources")) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    """One Chromium for the session. Each test or module opens its own context (and closes
    it; any left open are closed after each module, as the module's own browser was)."""
    from playwright.sync_api import sync_playwright

    from tests.server import CHROMIUM_ARGS, chromium_path

    path = chromium_path()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        _made["browser"] = b
        yield b
        _made.pop("browser", None)
        b.close()


@pytest.fixture(scope="session")
def extras_url(resources):
    """The Explore tab and the three extra tabs (Through the layers, Through training, Take
    it home) with the share-link wiring (``tests/ui/test_extras_browser.py``; the API
    tests of test_rollout, test_snapshots, test_export and test_share use it too)."""
    from tests.server import EXTRAS_TABS, serve_tabs

    with serve_tabs("extra tabs", resources, EXTRAS_TABS, share_link=True) as url:
        yield url


@pytest.fixture(scope="session")
def compare_url(resources):
    """The shared sentence box and knobs plus the Compare and Ablate tabs
    (``tests.views.test_compare.build_tabs_app``): test_compare, test_ablation and
    test_compare_browser."""
    from tests.server import compare_server

    with compare_server(*resources) as url:
        yield url


SHARED = ("resources", "app_url", "browser", "extras_url", "compare_url")


@pytest.fixture(scope="module", autouse=True)
def _module_leaves_shared_things_as_found(request):
    """After each module: close the browser contexts it left open (its pages' live loops
    would otherwise keep calling the server), and check that it did not change the shared
    (tokenizer, zoo), if a test of it had it."""
    yield
    b = _made.get("browser")
    if b is not None:
        for context in list(b.contexts):
            try:
                context.close()
            except Exception:  # noqa: BLE001  (closed meanwhile, or the browser is gone)
                pass
    if "resources" in _made and request.node.nodeid in _made.setdefault("used", set()):
        loaded, before = _made["resources"]
        if _fingerprint(loaded) != before:
            pytest.fail("a test of this module changed the shared (tokenizer, zoo) "
                        "(the `resources` fixture): copy what you change")


# ------------------------------------------------------------------ tiers

# Slow by design: what the test does takes long on any box (not the box's speed), with why.
SLOW = {
    "tests/plumbing/test_queue_flood.py::test_a_class_of_30_is_answered_through_two_floods_"
    "with_no_503": "a load test: 30 students through two floods of 950 posts",
    "tests/ui/test_class_admission.py::test_a_class_behind_one_address_is_served_and_a_"
    "script_is_not": "a load test: 40 students typing at 8 keys a second, and a script",
    "tests/ui/test_isolation.py::test_concurrent_students_each_get_exactly_their_own_result":
        "a load test: many students at once on 16 handlers",
    "tests/ui/test_memory.py::test_memory_and_hooks_stay_flat_over_thousands_of_requests":
        "thousands of requests",
    "tests/plumbing/test_sessions.py::test_page_load_sessions_are_kept_lean": "many page loads",
    "tests/plumbing/test_sessions.py::test_fresh_session_keystrokes_keep_nothing":
        "thousands of fresh-session keystrokes",
    "tests/plumbing/test_sessions.py::test_a_client_in_a_loop_gets_busy_and_another_is_still_"
    "answered": "a client in a loop for seconds",
    "tests/test_readme_numbers.py::test_only_the_small_rotary_models_find_most_short_"
    "sentences_easier": "evaluates the zoo's models on held-out text",
    "tests/test_readme_numbers.py::test_mask_off_helps_the_default_model_on_short_sentences_"
    "only": "evaluates a model on held-out text",
    "tests/models/test_checkpoints.py::test_other_transformer_loads_matches_card_and_reaches_"
    "its_accuracy": "evaluates each committed model",
    "tests/models/test_seq2seq.py::test_committed_checkpoint_reaches_its_stated_accuracy":
        "evaluates the committed model",
    "tests/models/test_tokenizer.py::test_committed_tokenizer_matches_its_recipe":
        "trains the tokenizer again",
    "tests/training/test_zoo_build.py::test_evaluate_then_index_on_a_tiny_model":
        "a real evaluation",
    "tests/training/test_evaluate.py::test_the_evaluations_list_check_extends_the_training_"
    "curves_one": "a real evaluation",
    "tests/training/test_loop.py::test_the_seq2seq_trainer_is_its_old_loop": "real training",
    "tests/training/test_loop.py::test_the_language_model_trainer_is_its_old_loop":
        "real training",
    "tests/training/test_train.py::test_the_head_recipe_trains_and_tracks_head_scores":
        "real training",
    "tests/training/test_train.py::test_resume_continues_where_it_stopped": "real training",
    "tests/training/test_lab.py::test_a_run_is_fixed_by_its_settings_and_stops_when_asked":
        "real training",
}

BROWSER_FIXTURES = {"browser"}
# A fixture named *_url serves something (the app, a purpose-built page, the static site).
SERVER_SOURCE = re.compile(r"\b(serve|serve_tabs|build_app|tabs_page|app_server)\(|\.launch\(")
PROCESS_SOURCE = re.compile(
    r"\bsubprocess\.|\bPopen\(|\bmultiprocessing\b|\bLabRunner\(|\bstand_in_runner\(|"
    r"\bsys\.executable\b|\bNotebookClient\b|\bExecutePreprocessor\b|"
    r"\bProcessPoolExecutor\b|\bos\.fork\(")
_sources: dict = {}


def _source(obj) -> str:
    """The source of a function, '' when there is none (a builtin, a lambda in a C call)."""
    key = id(obj)
    if key not in _sources:
        try:
            _sources[key] = inspect.getsource(obj)
        except (OSError, TypeError):
            _sources[key] = ""
    return _sources[key]


def _local_code(item) -> str:
    """The source of the test, of the fixtures it uses that live in test files (not this
    shared conftest), and of the module-level helpers these call (two levels deep)."""
    funcs = [getattr(item, "function", None)]
    for defs in item._fixtureinfo.name2fixturedefs.values():
        func = defs[-1].func
        if inspect.getsourcefile(func) != __file__:
            funcs.append(func)
    module = getattr(item, "module", None)
    seen, texts = set(), []
    for depth in range(3):
        called = []
        for func in funcs:
            if func is None or id(func) in seen:
                continue
            seen.add(id(func))
            text = _source(func)
            texts.append(text)
            if module is not None and depth < 2:
                for name in set(re.findall(r"\b([A-Za-z_]\w*)\(", text)):
                    helper = getattr(module, name, None)
                    if inspect.isfunction(helper) and helper.__module__ == module.__name__:
                        called.append(helper)
        funcs = called
    return "\n".join(texts)


def _tiers(item) -> set[str]:
    names = set(item.fixturenames)
    code = _local_code(item)
    tiers = set()
    if names & BROWSER_FIXTURES or item.path.stem.endswith("_browser"):
        tiers.add("browser")
    if any(n.endswith("_url") for n in names) or SERVER_SOURCE.search(code):
        tiers.add("server")
    if PROCESS_SOURCE.search(code):
        tiers.add("process")
    if SLOW.get(item.nodeid.split("[")[0]) is not None:
        tiers.add("slow")
    return tiers


def pytest_runtest_setup(item):
    if "resources" in item.fixturenames:  # its module's end checks them (above)
        _made.setdefault("used", set()).add(item.nodeid.split("::")[0])


def pytest_collection_modifyitems(config, items):
    for item in items:
        for name in SHARED:  # made here once, not again by a module that imported it
            defs = item._fixtureinfo.name2fixturedefs.get(name)
            if defs and inspect.getsourcefile(defs[-1].func) == __file__ \
                    and defs[-1].baseid not in ("", "tests"):
                raise pytest.UsageError(
                    f"{item.nodeid}: its module imports the shared fixture {name!r}; "
                    "tests/conftest.py provides it to every test (remove the import)")
        for tier in sorted(_tiers(item)):
            item.add_marker(tier)
    modules = {item.nodeid.split("::")[0]: getattr(item, "module", None) for item in items}
    stale = [k for k in SLOW if k.split("::")[0] in modules
             and not hasattr(modules[k.split("::")[0]], k.split("::")[-1])]
    if stale:  # a test renamed or gone: its entry would silently stop marking it
        raise pytest.UsageError(f"SLOW in tests/conftest.py names no test: {stale}")
    # Browser modules last, in their order (a module is kept together: its fixtures).
    browser_modules = {item.module for item in items
                       if item.get_closest_marker("browser") and getattr(item, "module", None)}
    items.sort(key=lambda item: getattr(item, "module", None) in browser_modules)
