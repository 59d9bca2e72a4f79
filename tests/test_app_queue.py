"""explorer/app.py ``start_queue``: the queue's limits, and its idle poll slowed from Gradio's
1 ms (61 ms of CPU a second on the event loop that answers keystrokes) to ``QUEUE_POLL_S``."""

import gradio as gr

from explorer import app


def test_the_queue_gets_our_limits_and_a_slower_idle_poll():
    with gr.Blocks() as demo:
        gr.Textbox()
    app.start_queue(demo)
    assert demo._queue.sleep_when_free == app.QUEUE_POLL_S == 0.005
    assert demo._queue.max_size == app.QUEUE["max_size"]
    assert demo._queue.default_concurrency_limit == app.QUEUE["default_concurrency_limit"]
