"""One request's numbers: text in, plain arrays and dataclasses out (no figures).

Here: one request's run (:mod:`.run`: text -> tokens -> model + capture), head statistics,
types and labels, rollout, the stages inside one head, tensor shapes, training snapshots,
the lessons' computations, positional-encoding views, and the classifier's analysis.

May import: :mod:`explorer.models` and :mod:`explorer.training` (task definitions such as
the classifier's rule). Never figures or views.
"""
