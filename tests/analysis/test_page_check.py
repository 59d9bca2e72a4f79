"""What a class will see: the page's own labels counted on held-out story openings, the
counts attached only to the weights they were measured on, and the pointer saying them."""

import json

import pytest

from explorer.analysis.clear_heads import ClearHead, clear_heads, on_page_sentence, summary
from explorer.analysis.page_check import page_counts, story_openings
from explorer.models.zoo import PAGE_SUFFIX, read_eval
from explorer.views.start_here import REPEAT, STORY


def test_story_openings_take_the_first_sentences_of_the_first_stories():
    stories = ["One. Two! Three? Four.", "  Alone here  ", "A. B. C.", "never read"]
    assert story_openings(stories, n=3, sentences=3) == ["One. Two! Three?", "Alone here",
                                                         "A. B. C."]
    assert story_openings(stories, n=1, sentences=1) == ["One."]


def test_page_counts_are_the_pages_own_labels(resources):
    """The default model's previous-token head is named on the page's first example and on
    its list, not on a one-word text (nothing comes before it): two of three."""
    tok, zoo = resources
    model = zoo.get("causal-h4-rotary")
    prev = next(h for h in clear_heads(zoo.evals["causal-h4-rotary"])
                if h.kind == "previous-token")
    (row,) = page_counts(model, tok, [STORY, REPEAT, "Hello", ""], [prev])
    assert (row["layer"], row["head"], row["kind"]) == (prev.layer, prev.head, prev.kind)
    assert (row["named"], row["of"]) == (2, 3)  # the empty text is not counted
    assert 0.5 < row["median_score"] < 0.7


def test_counts_are_attached_only_to_the_weights_they_were_measured_on(tmp_path):
    (tmp_path / "eval").mkdir()
    (tmp_path / "eval" / "m.json").write_text(json.dumps({"weights_sha256": "abc"}))
    page = {"weights_sha256": "abc", "heads": [{"layer": 1, "head": 0,
                                                "kind": "previous-token", "named": 7, "of": 9}]}
    (tmp_path / "eval" / f"m{PAGE_SUFFIX}").write_text(json.dumps(page))
    assert read_eval(tmp_path, "m", "abc")["on_the_page"] == page
    page["weights_sha256"] = "older"
    (tmp_path / "eval" / f"m{PAGE_SUFFIX}").write_text(json.dumps(page))
    assert "on_the_page" not in read_eval(tmp_path, "m", "abc")
    (tmp_path / "eval" / f"m{PAGE_SUFFIX}").write_text("{broken")
    assert read_eval(tmp_path, "m", "abc") == {"weights_sha256": "abc"}


def evaluation(named_prev=52, named_ind=0, continued=183):
    return {
        "previous_token": {"best": {"layer": 1, "head": 1, "score": 0.51}, "emerged": True},
        "induction": {"random_repeat": {"best": {"layer": 3, "head": 0, "score": 0.53},
                                        "copy_gain_nats": 6.0, "emerged": True}},
        "switched_off": {"induction": {"copy_gain_nats": 3.4}},
        "list_continuation": {"continued": continued, "lists": 192},
        "on_the_page": {"heads": [
            {"layer": 1, "head": 1, "kind": "previous-token", "named": named_prev, "of": 100},
            {"layer": 3, "head": 0, "kind": "induction", "named": named_ind, "of": 100}]},
    }


def test_the_pointer_says_how_often_the_page_names_each_head():
    r = evaluation()
    heads = clear_heads(r)
    assert [h.on_page for h in heads] == [(52, 100), (0, 100)]
    assert heads[0] == ClearHead("previous-token", 1, 1, 0.51)  # counts are not identity
    text = summary("m", heads, True, r)
    assert "the page named L1 H1 previous-token on 52, L3 H0 induction on 0" in text
    assert "continued 183 of 192" in text and "list example" in text


@pytest.mark.parametrize("named_ind, continued", [(60, 183), (0, 40)])
def test_the_list_hint_needs_a_weak_story_copy_and_strong_lists(named_ind, continued):
    r = evaluation(named_ind=named_ind, continued=continued)
    assert "list example" not in summary("m", clear_heads(r), True, r)


def test_no_counts_no_sentence():
    r = evaluation()
    del r["on_the_page"]
    assert on_page_sentence(clear_heads(r), r["list_continuation"]) == ""


def test_every_shipped_language_model_has_current_page_counts(resources):
    """`python -m explorer.analysis.page_check` was rerun after the last evaluation: each
    count file matches its weights and counts exactly the heads the pointer lists."""
    tok, zoo = resources
    for name, result in zoo.evals.items():
        if not name.startswith(("causal-", "bidir-")):
            continue
        assert "on_the_page" in result, f"{name}: run python -m explorer.analysis.page_check"
        page = result["on_the_page"]
        listed = [(h.layer, h.head, h.kind) for h in clear_heads(result)]
        assert [(h["layer"], h["head"], h["kind"]) for h in page["heads"]] == listed
        assert all(0 <= h["named"] <= h["of"] == page["openings"] for h in page["heads"])
