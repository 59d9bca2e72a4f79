"""A student's opened Lab model goes with their session (explorer/server/lab_session.py,
explorer/server/sessions.py): the app's registry is made once and hooked to the page's unload and
to the session sweep,
which hands it the sessions the server still keeps (idle and pushed-out ones are not)."""

from __future__ import annotations

import datetime

import gradio as gr

from explorer.server.lab_session import registry
from explorer.server.sessions import ClassroomStateHolder


class Opened:
    nbytes = 1


def test_the_registry_is_made_once_and_hooked_to_the_sessions_end():
    with gr.Blocks() as demo:
        gr.Markdown("x")
        models = registry(demo, None)
        assert registry(demo, None) is models  # one per app
    assert demo.session_sweepers == [models.keep_only]
    unloads = [fn for fn in demo.fns.values() if any(t[1] == "unload" for t in fn.targets)]
    assert len(unloads) == 1  # the page's unload closes the session's model


def test_the_sweep_closes_the_models_of_sessions_the_server_dropped():
    with gr.Blocks() as demo:
        gr.Markdown("x")
        models = registry(demo, None)
    demo.state_session_capacity = 3
    holder = ClassroomStateHolder()
    holder.set_blocks(demo)
    for i in range(5):
        holder[f"s{i}"]  # noqa: B018  (a request of session s{i})
        models._models[f"s{i}"] = Opened()  # (as LabModels.open keeps them)
    holder.time_last_used["s3"] -= datetime.timedelta(seconds=holder.idle_ttl_s + 1)
    holder.delete_idle()
    holder.sweep_others()
    assert sorted(models._models) == ["s2", "s4"]  # s0, s1 pushed out by the cap; s3 idle
