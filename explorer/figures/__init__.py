"""Plotly figures: pure functions of captured data (numpy arrays and token strings).

Here: the attention grid, one head and the head view (:mod:`.attention`), the teaching
figures, comparison, classifier and encoder-decoder figures, the layers and training
charts, the Explore canvas' weights (:mod:`.live_grid`), token labels made safe for
Plotly, colour themes and a fast JSON writer.

May import: numpy and plotly, and only other modules of this package: no torch, no model,
no analysis. A figure is a function of the numbers it draws.
"""
