"""The zoo plan, the trainer arguments it uses, and the generated manifest and README
(end to end on a tiny untrained model: evaluate -> eval JSON -> index)."""

import json
import shutil
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path

import pytest
import torch

from explorer.models.checkpoint import save_model, sha256_file
from explorer.models.zoo import CHECKPOINT_DIR, NAME_RE
from explorer.training import evaluate as ev
from explorer.training import zoo_build, zoo_index
from explorer.training.train import DEFAULT_CORPUS, TrainSettings, parse_args
from tests.conftest import tiny_model


def test_plan_covers_the_zoo_in_priority_order():
    names = zoo_build.planned_names()
    assert names[:2] == ["causal-h4-rotary", "bidir-h4-rotary"]
    assert names[2:6] == [f"causal-h4-{p}" for p in ("none", "sinusoidal", "learned", "alibi")]
    assert names[6:9] == ["causal-h1-rotary", "causal-h2-rotary", "causal-h8-rotary"]
    expected = {f"causal-h{h}-{p}" for h in (1, 2, 4, 8)
                for p in ("none", "sinusoidal", "learned", "rotary", "alibi")}
    assert set(names) == expected | {"bidir-h4-rotary"}
    assert len(names) == len(set(names)) == 21


@pytest.mark.parametrize("name", ["causal-h4-rotary", "bidir-h4-rotary", "causal-h8-alibi"])
def test_trainer_arguments_build_the_named_model(name):
    argv = zoo_build.train_argv(name, zoo_build.tokens_arg("2e6"), threads=1, resume=False)
    args = parse_args(argv)
    objective, heads, pos = NAME_RE.match(name).groups()
    assert (args.name, args.heads, args.pos, args.bidirectional) == (
        name, int(heads), pos, objective == "bidir")
    assert (args.d_model, args.layers, args.d_ff, args.ctx, args.seed) == (128, 4, 512, 128, 0)
    assert args.tokens == 2_000_000 and args.threads == 1 and not args.resume
    assert args.snapshots == (zoo_build.DEFAULT_SNAPSHOTS if name == "causal-h4-rotary" else 0)
    # the study's recipe, spelled out in the command each card records
    assert (args.batch_size, args.repeat_share, args.repeat_kind, args.repeat_max,
            args.repeat_top, args.track_every) == (8, 0.5, "mixed", 60, 4096, 500)
    assert parse_args(zoo_build.train_argv(name, "1000", 1, resume=True)).resume


def test_a_model_from_another_recipe_or_budget_is_retrained(tmp_path):
    import json

    card = {"training": {"tokens": 12_000_000, "batch_size": 8, "repeat_share": 0.5,
                         "repeat_kind": "mixed", "repeat_max": 60, "repeat_top": 4096}}
    (tmp_path / "m.json").write_text(json.dumps(card))
    assert zoo_build.is_current("m", "12000000", tmp_path)
    assert not zoo_build.is_current("m", "2000000", tmp_path)
    f = {**card["training"], "repeat_share": 0.25, "repeat_kind": "frequent", "repeat_max": 32}
    (tmp_path / "m.json").write_text(json.dumps({"training": f}))  # recipe F: random spans
    assert not zoo_build.is_current("m", "12000000", tmp_path)
    (tmp_path / "m.json").write_text(json.dumps(card))
    card["training"]["repeat_top"] = 2000  # recipe A: spans of the 2,000 commonest tokens
    (tmp_path / "m.json").write_text(json.dumps(card))
    assert not zoo_build.is_current("m", "12000000", tmp_path)
    card["training"]["repeat_top"] = 4096
    card["training"]["repeat_share"] = 0.0  # the first zoo: plain text
    (tmp_path / "m.json").write_text(json.dumps(card))
    assert not zoo_build.is_current("m", "12000000", tmp_path)
    card["training"]["repeat_share"] = 0.5
    card["training"]["repeat_text_share"] = 0.5  # cards before the flag: the coin flip
    (tmp_path / "m.json").write_text(json.dumps(card))
    assert zoo_build.is_current("m", "12000000", tmp_path)
    card["training"]["repeat_text_share"] = 0.25  # another split of the mixed rows
    (tmp_path / "m.json").write_text(json.dumps(card))
    assert not zoo_build.is_current("m", "12000000", tmp_path)
    assert not zoo_build.is_current("missing", "12000000", tmp_path)


def test_the_recipe_in_words_names_a_mixed_split_only_when_it_is_not_the_coin_flip():
    from explorer.training.zoo_plan import recipe_words

    n = {"repeat_share": 0.5, "repeat_kind": "mixed", "repeat_max": 60}
    assert recipe_words(n) == recipe_words({**n, "repeat_text_share": 0.5}) == (
        "50% of the rows repeat a span of random tokens or its own text, up to 60 tokens")
    assert recipe_words({**n, "repeat_share": 0.75, "repeat_text_share": 1 / 3}) == (
        "75% of the rows repeat a span of random tokens (67%) or its own text (33%), "
        "up to 60 tokens")
    quarter = {"training": {**n, "repeat_top": 4096, "repeat_text_share": 0.25}}
    assert zoo_index.recipe(quarter) == (
        "50% repeats: random tokens (75%) or its own text (25%), ≤ 60 tokens")


def test_the_recipe_in_words_by_default_follows_the_recipes_own_split(monkeypatch):
    from explorer.training import zoo_plan

    monkeypatch.setitem(zoo_plan.RECIPE, "--repeat-kind", "mixed")
    monkeypatch.setitem(zoo_plan.RECIPE, "--repeat-text-share", "0.25")
    assert "random tokens (75%) or its own text (25%)" in zoo_plan.recipe_words()


def test_the_trainer_takes_the_mixed_split_and_keeps_it_on_the_card():
    args = parse_args(["--name", "m", "--repeat-kind", "mixed", "--repeat-text-share", "0.25"])
    assert args.repeat_text_share == 0.25
    assert TrainSettings(repeat_text_share=0.25).recipe().text_share == 0.25
    assert TrainSettings().recipe().text_share == 0.5  # what every card before it used


def test_tokens_argument():
    assert zoo_build.tokens_arg("2e6") == "2000000"
    with pytest.raises(Exception, match="whole number"):
        zoo_build.tokens_arg("0.5")


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="reads Linux /proc")
def test_a_running_trainer_is_detected():
    name = "causal-h3-none"  # no such zoo model: nothing real can be training it
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)",
                             "-m", "explorer.training.train", "--name", name])
    try:
        for _ in range(50):  # the command line appears once the process has started
            if zoo_build.training_elsewhere(name):
                break
            time.sleep(0.05)
        assert zoo_build.training_elsewhere(name) == proc.pid
        assert zoo_build.status(name).startswith("busy")
    finally:
        proc.kill()
        proc.wait()
    assert zoo_build.training_elsewhere(name) is None


def test_dry_run_prints_the_plan_and_trains_nothing(capsys):
    assert zoo_build.main(["--dry-run", "--only", "causal-h2-learned", "causal-h1-none"]) == 0
    out = capsys.readouterr().out
    # plan order, not the order given; the command spells out the architecture
    assert out.index("causal-h1-none") < out.index("causal-h2-learned")
    assert "python -m explorer.training.train --name causal-h1-none --heads 1 --pos none" in out
    assert not zoo_build.LOCK.exists()


@pytest.mark.skipif(not DEFAULT_CORPUS.exists(), reason="needs the corpus in ../shared")
def test_evaluate_then_index_on_a_tiny_model(tmp_path):
    shutil.copy(CHECKPOINT_DIR / "tokenizer.json", tmp_path / "tokenizer.json")
    model = tiny_model(seed=0, vocab_size=4096, n_ctx=64, n_heads=2)
    name = "causal-h2-rotary"
    weights = save_model(model, tmp_path / f"{name}.safetensors", dtype=torch.float16)
    save_model(model, tmp_path / "snapshots" / name / "step_00001.safetensors")
    settings = TrainSettings(eval_batches=2)
    card = {"name": name, "objective": "next-token", "config": model.config.to_dict(),
            "training": asdict(settings), "tokens_seen": 0, "val_loss": 8.3,
            "corpus_sha256": sha256_file(DEFAULT_CORPUS),
            "tokenizer_sha256": sha256_file(tmp_path / "tokenizer.json"),
            "dataset": {"val_share": 0.02}, "weights_sha256": sha256_file(weights),
            "command": f"python -m explorer.training.train --name {name}",
            "snapshots": [{"file": "step_00001.safetensors", "step": 1, "tokens": 1024}]}
    (tmp_path / f"{name}.json").write_text(json.dumps(card))
    zoo_index.write_index(tmp_path)
    assert "| `causal-h2-rotary` | next-token | 2 | rotary | plain | 0 | 8.300 | not evaluated" in (
        tmp_path / "README.md").read_text()

    result = ev.evaluate_model(name, tmp_path)
    assert result["loss"]["target_tokens"] == 2 * 16 * 64
    assert result["previous_token"]["emerged"] is False  # untrained
    assert result["pronoun"] is None and result["agreement"]["pairs"] == 200
    assert [row["step"] for row in result["snapshots"]] == [1]
    ev.write_eval(result, tmp_path / "eval")
    first = [p.read_text() for p in zoo_index.write_index(tmp_path)]
    second = [p.read_text() for p in zoo_index.write_index(tmp_path)]
    assert first == second  # deterministic

    files = json.loads(first[0])["files"]
    assert list(files) == sorted(files)
    assert files == {p: sha256_file(tmp_path / p) for p in (
        f"{name}.safetensors", f"snapshots/{name}/step_00001.safetensors", "tokenizer.json")}
    readme = first[1]
    assert "not evaluated" not in readme
    assert f"`{name}`: `python -m explorer.training.train --name {name}`" in readme
    assert "Previous-token heads" in readme and "Emerged: none" in readme
    assert "CDLA-Sharing-1.0" in readme and "Eldan" in readme
    assert "Not trained yet: `causal-h4-rotary`" in readme
    assert "**During training** (`causal-h2-rotary`, best head at each snapshot): 1,024 tokens" in (
        readme)


def test_the_shipped_index_is_what_the_generator_writes():
    """checkpoints/README.md and manifest.json say "edit the generator, not this file": a
    builder that loaded an older zoo_index wrote a README the generator no longer makes."""
    assert (CHECKPOINT_DIR / "README.md").read_text() == zoo_index.readme(CHECKPOINT_DIR)
    assert json.loads((CHECKPOINT_DIR / "manifest.json").read_text()) == zoo_index.manifest(
        CHECKPOINT_DIR)


def test_the_device_reaches_the_trainer_only_when_asked_for():
    assert parse_args(zoo_build.train_argv("causal-h1-none", "1000", 1, False)).device is None
    argv = zoo_build.train_argv("causal-h1-none", "1000", 1, False, device="cuda")
    assert parse_args(argv).device == "cuda"


def test_jobs_run_at_most_n_at_once_and_each_is_reported(tmp_path):
    """``--jobs``: every command runs, never more than ``jobs`` at a time, and a failing one
    is reported with its exit code (CI never trains: the commands only sleep)."""
    script = ("import sys, time, pathlib; d = pathlib.Path(sys.argv[1]); "
              "(d / (sys.argv[2] + '.start')).write_text(str(time.time())); time.sleep(0.4); "
              "(d / (sys.argv[2] + '.end')).write_text(str(time.time())); "
              "sys.exit(3 if sys.argv[2] == 'bad' else 0)")
    names = ["a", "b", "bad", "c", "d"]
    commands = {n: [sys.executable, "-c", script, str(tmp_path), n] for n in names}
    seen = []
    codes = zoo_build.run_jobs(commands, 2, lambda n, c: seen.append((n, c)),
                               log_dir=tmp_path, poll_s=0.05)
    assert codes == {"a": 0, "b": 0, "bad": 3, "c": 0, "d": 0}
    assert sorted(seen) == sorted(codes.items())
    spans = [(float((tmp_path / f"{n}.start").read_text()),
              float((tmp_path / f"{n}.end").read_text())) for n in names]
    for t, _ in spans:  # at any start, at most 2 are running (itself included)
        assert sum(s <= t < e for s, e in spans) <= 2
    assert (tmp_path / "bad.log").exists()


def test_after_training_evaluate_then_check_the_page_then_rewrite_the_index():
    """Each step is a fresh ``python -m`` (an edit made during a long build reaches the next
    model), in the order the page's loader needs: the manifest knows the new weights before
    the page check loads them, and the README is written again with the page counts."""
    commands = zoo_build.finish_commands(["causal-h1-none", "causal-h2-none"], 1)
    assert [c[:3] for c in commands] == [[sys.executable, "-m", m] for m in (
        "explorer.training.evaluate", "explorer.analysis.page_check",
        "explorer.training.evaluate")]
    assert commands[0][3:] == ["causal-h1-none", "causal-h2-none", "--write-index",
                               "--threads", "1"]
    assert commands[1][3:] == ["causal-h1-none", "causal-h2-none", "--threads", "1"]
    assert commands[2][3:] == ["--write-index"]
    for command in commands:  # each is a real command line of its module
        module = __import__(command[2], fromlist=["main"])
        with pytest.raises(SystemExit) as stop:
            module.main([*command[3:], "--help"])
        assert stop.value.code == 0


def test_a_failing_step_after_training_stops_the_rest_and_is_reported(
        tmp_path, monkeypatch, capsys):
    """A failed evaluation is printed, not raised: in ``--jobs`` it runs inside the loop
    that still owns the other trainers, which an exception would stop."""
    marker = tmp_path / "ran"
    monkeypatch.setattr(zoo_build, "finish_commands", lambda names, threads: [
        [sys.executable, "-c", "pass"],
        [sys.executable, "-c", "raise SystemExit(3)"],
        [sys.executable, "-c", f"open({str(marker)!r}, 'w')"]])
    assert zoo_build.finish(["causal-h1-none"], 1) is False
    assert not marker.exists()
    assert "causal-h1-none" in capsys.readouterr().out
    monkeypatch.setattr(zoo_build, "finish_commands", lambda names, threads: [
        [sys.executable, "-c", f"open({str(marker)!r}, 'w')"]])
    assert zoo_build.finish(["causal-h1-none"], 1) is True
    assert marker.exists()
