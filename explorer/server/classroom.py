"""``gr.Blocks`` for a classroom: lean, expiring sessions and a per-address rate limit.

app.py builds the page in a :class:`ClassroomBlocks`; however it is launched (``python app.py``,
the tests' in-process server), its server keeps sessions the lean way
(``explorer/server/sessions.py``) and puts the client guard (``explorer/server/client_guard.py``)
in front of every request. The limiter belongs to the app object: one per served app, none at
module level.
"""

from __future__ import annotations

import gradio as gr
from starlette.middleware import Middleware

from explorer.server import sessions
from explorer.server.class_route import ClassRoutes
from explorer.server.client_guard import ClientGuard, RateLimiter
from explorer.server.engine_route import EngineFiles
from explorer.views.class_state import Classrooms


class ClassroomBlocks(gr.Blocks):
    """``gr.Blocks`` whose ``launch`` adds the client guard and lean sessions.
    ``limiter``: the :class:`RateLimiter` to use (default: the documented limits)."""

    def __init__(self, *args, limiter: RateLimiter | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.limiter = limiter or RateLimiter()
        # class mode's registry: the routes' and the Lab's (a student's run joins its class)
        self.classrooms = Classrooms()

    def launch(self, *args, app_kwargs: dict | None = None, **kwargs):
        sessions.install()
        # A fresh dict each time: Gradio writes its own entries (lifespan) into it.
        app_kwargs = dict(app_kwargs or {})
        app_kwargs["middleware"] = [*app_kwargs.get("middleware", ()),
                                    Middleware(ClientGuard, limiter=self.limiter),
                                    Middleware(EngineFiles),  # behind the guard's limits
                                    # class mode (issue 43); the Lab's runner, once built
                                    Middleware(ClassRoutes, classrooms=self.classrooms,
                                               lab=lambda: getattr(self, "lab_runner", None))]
        return super().launch(*args, app_kwargs=app_kwargs, **kwargs)
