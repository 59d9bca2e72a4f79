"""Making the models: training data, the trainers, evaluation and the zoo's index.

Here: the corpus stream and the generated tasks (probes, the classifier's and the
encoder-decoder's tasks), the repeated-span recipe, the trainers (``python -m
explorer.training.train``; the task trainers' shared options in ``cli.py``), the bigram
baseline, head scores on held-out text, the evaluation (``python -m
explorer.training.evaluate``; its counting helpers in ``counting.py``), the zoo's plan and
build (``python -m explorer.training.zoo_build``) and the generated
``checkpoints/README.md``.

May import: :mod:`explorer.models`. Never the analysis, figures or views.
"""
